/**
 * A short `claude` command (a gate's `--version`, `auth status`, `plugin list`, the round-trip, an
 * author call, a listing probe) run to completion with a wall-clock bound.
 */
import { execa } from 'execa';
import type { CommandResult } from '../../program-output.js';
import { createTempFolder, removeTempFolder } from '../process/stub-project.js';
import { spawnFailure, trackGroup } from './children.js';
import { resolveClaudeBin } from './launch.js';
import { removeSessionLeftovers } from './leftovers.js';

/**
 * How a short `claude` command (a gate's `--version`, `auth status`, `plugin list`, round-trip)
 * ended: what the gates' rules judge (`CommandResult`), and whether the caller stopped it.
 */
export interface ClaudeCommandResult extends CommandResult {
  /** Stopped because the caller's signal aborted. */
  aborted: boolean;
}

export interface ClaudeCommandOptions {
  /** The complete environment: nothing is inherited that is not listed here. */
  env: Record<string, string>;
  cwd: string;
  /** Wall-clock bound: a hung API (docs/claude-cli.md §6) must not hang a gate. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Run one short `claude` command to completion and hand back its output. Like `spawnClaude` it
 * runs in its own process group with stdin ignored, so a timeout or abort stops whatever it
 * started, and a missing binary is reported as `spawnFailed` rather than thrown. It gets a TMPDIR
 * of its own, removed after it (the CLI leaves `cc-socks/` and `claude-<uid>/` there), and what it
 * left in the config folder for its temp project is removed (docs/home.md).
 */
export async function runClaudeCommand(
  bin: string,
  args: string[],
  options: ClaudeCommandOptions,
): Promise<ClaudeCommandResult> {
  if (options.signal?.aborted)
    return { spawnFailed: false, timedOut: false, aborted: true, stdout: '', stderr: '' };
  // Without a temp folder of its own (a full TMPDIR) it runs as before, in the user's.
  const tmp = await createTempFolder().catch(() => undefined);
  const child = startCommand(bin, args, options, tmp);
  let timedOut = false;
  let aborted = false;
  let gone = false;
  const forget = trackGroup(child.pid);
  const stopGroup = (): void => {
    if (!gone) termThenKill(child.pid);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    stopGroup();
  }, options.timeoutMs);
  const onAbort = () => {
    aborted = true;
    stopGroup();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const result = await child;
    gone = true;
    return commandResult(result, timedOut, aborted);
  } finally {
    gone = true;
    forget();
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    if (child.pid !== undefined) await removeSessionLeftovers(child.pid, options.env, options.cwd);
    if (tmp !== undefined) await removeTempFolder(tmp).catch(() => undefined);
  }
}

/** The command in its own process group, stdin ignored, its output kept whole, TMPDIR its own when it has one. */
function startCommand(bin: string, args: string[], options: ClaudeCommandOptions, tmp: string | undefined) {
  return execa(resolveClaudeBin(bin), args, {
    cwd: options.cwd,
    env: tmp === undefined ? options.env : { ...options.env, TMPDIR: tmp },
    extendEnv: false,
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
    detached: true,
    reject: false,
    cleanup: true,
    encoding: 'utf8',
    stripFinalNewline: false,
    maxBuffer: 16 * 1024 * 1024,
    windowsHide: true,
  });
}

/** TERM to the process group, KILL two seconds later if it is still there. */
function termThenKill(pid: number | undefined): void {
  if (pid === undefined) return;
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      /* the group is gone already */
    }
  };
  kill('SIGTERM');
  setTimeout(() => kill('SIGKILL'), 2000).unref();
}

/** How the command ended, from execa's result: a spawn failure only when it was not stopped. */
function commandResult(
  result: Awaited<ReturnType<typeof startCommand>>,
  timedOut: boolean,
  aborted: boolean,
): ClaudeCommandResult {
  const spawn = spawnFailure(result);
  const spawnFailed = !timedOut && !aborted && spawn.failed;
  return {
    spawnFailed,
    timedOut,
    aborted,
    ...(result.exitCode === undefined ? {} : { exitCode: result.exitCode }),
    ...(result.signal === undefined ? {} : { signal: result.signal }),
    stdout: typeof result.stdout === 'string' ? result.stdout : '',
    stderr: typeof result.stderr === 'string' ? result.stderr : '',
    ...(spawnFailed && spawn.code ? { spawnError: spawn.code } : {}),
  };
}
