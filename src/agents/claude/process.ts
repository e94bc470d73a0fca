/**
 * A long-running `claude` (a measured run): its stdout read line by line
 * while it runs, and its stop, which reaches its whole process group.
 */
import { execa } from 'execa';
import { stdoutLines } from '../process/stdout-lines.js';
import { spawnFailure, trackGroup } from './children.js';
import { resolveClaudeBin } from './launch.js';
import { removeSessionLeftovers } from './leftovers.js';

/** How a `claude` process ended. */
export interface ClaudeExit {
  /** The executable could not be started at all because it is missing or not executable. */
  spawnFailed: boolean;
  /** The OS error of a spawn that failed for another reason (E2BIG, EAGAIN): not a missing CLI. */
  spawnError?: string;
  exitCode?: number;
  signal?: string;
}

/** A running `claude` process: its stdout as lines, and a way to stop its whole process group. */
export interface ClaudeProcess {
  /** The process (and process group) id, once spawned. */
  pid: number | undefined;
  lines: AsyncIterable<string>;
  /** TERM to the process group, KILL after `graceMs` if it is still there. Resolves when it is gone. */
  stop(graceMs?: number): Promise<void>;
  /**
   * KILL the process group at once, then remove what the CLI would have removed on a TERM (its
   * session and key files) and its temp project's folder in the config folder (see
   * `removeSessionLeftovers`; `stop` removes that folder too). Resolves when the group is gone and the
   * files are removed. The CLI writes the user's files (`~/.claude.json`, the plugin store) to a
   * temp file and renames it into place, so a kill cannot leave them half-written (docs/speed.md).
   */
  kill(): Promise<void>;
  exited: Promise<ClaudeExit>;
  /** Whether the process has exited (a standby that died while it waited is replaced, never measured). */
  hasExited(): boolean;
  /**
   * A standby's prompt (`promptOnStdin`): writes the text to stdin and closes it, so `-p` ends after
   * this one message as it does with the prompt as an argument. Resolves once written; a process
   * that is gone meanwhile makes the write fail quietly, and its end is read from stdout as usual.
   */
  send(text: string): Promise<void>;
}

export interface SpawnOptions {
  bin: string;
  args: string[];
  cwd: string;
  /** The complete environment: nothing is inherited that is not listed here. */
  env: Record<string, string>;
  /** For debugging only: pass the CLI's stderr through. Never written into a report. */
  inheritStderr?: boolean;
  /**
   * A standby: stdin is a pipe the prompt is written to later (`send`). Otherwise stdin is ignored:
   * an open stdin pipe makes a `-p <query>` run wait 3 s for data (docs/claude-cli.md §1);
   * with `--input-format stream-json` the CLI waits for its message instead, without that delay.
   */
  promptOnStdin?: boolean;
}

/**
 * Starts a measured run's `claude` (the short commands are claude-command.ts). It runs in its own process group (`detached`) so that a
 * stop reaches everything it started (tools run by the model, too); stdin is ignored unless the
 * run is a standby that reads its prompt there (`promptOnStdin`).
 */
export function spawnClaude(options: SpawnOptions): ClaudeProcess {
  const child = startChild(options);
  let gone = false;
  const forget = trackGroup(child.pid);
  // A write to a standby that died is an EPIPE on stdin: without a listener it would end skilltrigger.
  child.stdin?.on('error', () => undefined);
  const exited: Promise<ClaudeExit> = child.then(
    (result) => {
      gone = true;
      return exitOf(result);
    },
    () => {
      gone = true;
      return { spawnFailed: true };
    },
  );
  const signalGroup = groupSignaller(child, () => gone);
  /** The group is no longer tracked, and the session files it left are removed. */
  const release = async (): Promise<void> => {
    forget();
    if (child.pid !== undefined) await removeSessionLeftovers(child.pid, options.env, options.cwd);
  };
  const { lines } = stdoutLines(child.stdout);

  return {
    pid: child.pid,
    lines,
    exited,
    hasExited: () => gone,
    send: (text) => (!child.stdin || gone ? Promise.resolve() : writeAndClose(child.stdin, text)),
    async kill() {
      signalGroup('SIGKILL', true);
      await exited;
      await release();
    },
    async stop(graceMs = 2000) {
      if (gone) {
        // claude itself is gone (it exited or was SIGKILLed) but what it started may still run.
        signalGroup('SIGKILL', true);
        await release();
        return;
      }
      signalGroup('SIGTERM');
      const timer = setTimeout(() => signalGroup('SIGKILL'), graceMs);
      try {
        await exited;
      } finally {
        clearTimeout(timer);
        // Whatever the model started in the group and left behind goes too.
        signalGroup('SIGKILL', true);
        await release();
      }
    },
  };
}

/** The `claude` process itself, in its own process group, reading no stdin unless it is a standby. */
function startChild(options: SpawnOptions) {
  return execa(resolveClaudeBin(options.bin), options.args, {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    stdin: options.promptOnStdin ? 'pipe' : 'ignore',
    stdout: 'pipe',
    stderr: options.inheritStderr ? 'inherit' : 'ignore',
    detached: true,
    reject: false,
    buffer: false,
    cleanup: true,
    windowsHide: true,
  });
}

/** Writes a standby's prompt and closes stdin; a process gone meanwhile makes the write fail quietly. */
function writeAndClose(stdin: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise<void>((resolve) => {
    stdin.end(text, () => resolve());
    stdin.once('error', () => resolve());
  });
}

/** How the process ended, from execa's result. */
function exitOf(result: Parameters<typeof spawnFailure>[0]): ClaudeExit {
  const spawn = spawnFailure(result);
  return {
    spawnFailed: spawn.missing,
    ...(spawn.failed && !spawn.missing ? { spawnError: spawn.code ?? 'unknown' } : {}),
    ...(result.exitCode === undefined ? {} : { exitCode: result.exitCode }),
    ...(result.signal === undefined ? {} : { signal: result.signal }),
  };
}

/**
 * Sends a signal to the process's whole group (to the process alone when the group is gone);
 * nothing once it has exited, unless `evenIfGone` (what it started may still run).
 */
function groupSignaller(
  child: { pid?: number | undefined; kill(signal: NodeJS.Signals): boolean },
  isGone: () => boolean,
): (signal: NodeJS.Signals, evenIfGone?: boolean) => void {
  return (signal, evenIfGone = false) => {
    const pid = child.pid;
    if (pid === undefined || (isGone() && !evenIfGone)) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // The group is already gone; the process itself may still need the signal.
      try {
        child.kill(signal);
      } catch {
        /* already exited */
      }
    }
  };
}
