import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';

/**
 * The spawn errors that mean the executable is missing or cannot be run as one. Any other spawn
 * failure (E2BIG for an argv over the kernel's limit, EAGAIN, ENOMEM) is not a missing CLI, and
 * must never be reported as one.
 */
const NOT_RUNNABLE = new Set(['ENOENT', 'EACCES', 'ENOTDIR', 'ENOEXEC', 'ELOOP', 'ENAMETOOLONG', 'EISDIR']);

/**
 * `--claude ./node_modules/.bin/claude` names a file relative to where the user stands, but the
 * child starts in its temp project: a path with a separator is made absolute against the working
 * directory first. A bare name (`claude`) is still looked up on PATH.
 */
export function resolveClaudeBin(bin: string, cwd: string = process.cwd()): string {
  return bin.includes('/') || bin.includes(path.sep) ? path.resolve(cwd, bin) : bin;
}

// How `claude` is launched: every argv and environment skilltrigger starts it with is built here,
// so the measured runs, the gates, the listing probe and the author calls cannot drift apart.

/**
 * How a measured run answers tool calls. The CLI runs the model's tool calls while the message is
 * still streaming, before skilltrigger can decide and stop it (claude-cli-facts.md §0.3), with the
 * API key in its environment; an eval query is untrusted text (in CI it comes from a pull request).
 * `dontAsk` turns every "would ask for approval" into a denial, and as a command-line flag it
 * overrides a `defaultMode` (bypassPermissions, acceptEdits, …) from the user's settings. It changes
 * nothing the model is sent: the request's tools, system prompt and listing stay byte-identical, so
 * the measurement is the same (docs/security.md, __tests__/faults/security.e2e.test.ts).
 */
export const RUN_PERMISSION_ARGS: readonly string[] = ['--permission-mode', 'dontAsk'];

/**
 * The `-p` argv every prompt is sent with: stream-json (read by one parser), no session file, the
 * measured runs' permission mode, the prompt after `--` so a leading `-` stays text.
 */
function promptArgs(
  prompt: string,
  options: { partials?: boolean; oneTurn?: boolean; model?: string | undefined },
): string[] {
  return [
    '-p',
    '--output-format',
    'stream-json',
    '--verbose',
    ...(options.partials ? ['--include-partial-messages'] : []),
    '--no-session-persistence',
    ...RUN_PERMISSION_ARGS,
    ...(options.oneTurn ? ['--max-turns', '1'] : []),
    ...(options.model ? ['--model', options.model] : []),
    '--',
    prompt,
  ];
}

/** The exact argv of one measured run (SPEC §2.2): partial messages on, so a decision comes at once. */
export function claudeArgs(query: string, model?: string): string[] {
  return promptArgs(query, { partials: true, model });
}

/** The round-trip prompt. The simulated model answers it with `pong` by default. */
export const ROUND_TRIP_QUERY = 'Reply with exactly: pong';

/**
 * The round-trip's argv: a measured run's flags (permission mode included: it is the roster run
 * too) minus the partial messages, since the gate reads only the assistant text and the result.
 */
export function roundTripArgs(model?: string): string[] {
  return promptArgs(ROUND_TRIP_QUERY, { model });
}

/**
 * An author call's argv (`init`'s draft, `improve`'s rewrite): read by the same reader as the
 * round-trip gate, so an API failure is told apart from an answer; one turn, because the answer is
 * text and a tool call is no answer; the measured runs' permission mode, since the prompt carries
 * the user's own text.
 */
export function askArgs(prompt: string, model?: string): string[] {
  return promptArgs(prompt, { oneTurn: true, model });
}

/** The argv of a listing probe: one turn, no tools needed; only the first request is read. */
export function probeArgs(model?: string): string[] {
  return promptArgs('skilltrigger listing probe', { oneTurn: true, model });
}

/** The gates' short commands (claude-cli-facts.md §4), each run to completion by `runClaudeCommand`. */
export const GATE_COMMANDS = {
  version: ['--version'],
  authStatus: ['auth', 'status', '--json'],
  pluginList: ['plugin', 'list', '--json'],
} as const satisfies Record<string, readonly string[]>;

/**
 * The environment claude runs with: the user's, minus `CLAUDECODE` (set inside a Claude Code
 * session; claude refuses to nest with it), with retries capped so API failures surface as errors
 * inside the per-run timeout instead of ~3 minutes of backoff (claude-cli-facts.md §3).
 */
export function claudeEnvironment(base: NodeJS.ProcessEnv, maxRetries: number): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined || key === 'CLAUDECODE' || key === 'CLAUDE_CODE_ENTRYPOINT') continue;
    env[key] = value;
  }
  env.CLAUDE_CODE_MAX_RETRIES = String(maxRetries);
  // No telemetry or reachability probes: they add requests and leave files, and change nothing the model sees.
  env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC = '1';
  return env;
}

/** What of the user's environment reaches a listing probe's claude: nothing that logs in or configures. */
const PROBE_PASSED_THROUGH = ['PATH', 'TMPDIR', 'LANG', 'LC_ALL', 'LC_CTYPE', 'SYSTEMROOT'];

/**
 * A listing probe's environment: PATH, TMPDIR and the locale of the user's, a throwaway HOME, the
 * loopback simulated model and a dummy key, so the user's own key and settings never reach it.
 */
export function probeEnvironment(
  base: NodeJS.ProcessEnv,
  home: string,
  modelUrl: string,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of PROBE_PASSED_THROUGH) {
    const value = base[key];
    if (value !== undefined) env[key] = value;
  }
  Object.assign(env, {
    HOME: home,
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: 'sk-skilltrigger-listing-probe',
    CLAUDE_CODE_MAX_RETRIES: '0',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  });
  return env;
}

/**
 * The process groups of every `claude` still running, so that a second interrupt can kill them
 * all at once (a claude, or a tool it started, may ignore SIGTERM).
 */
const liveGroups = new Set<number>();

/** SIGKILL every claude process group still running (the second Ctrl-C). Synchronous. */
export function killAllClaudeGroups(): void {
  for (const pid of liveGroups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* the group is gone already */
    }
  }
}

/** Tracks a detached child's group from spawn until `forget` (after its group was killed or ended). */
function trackGroup(pid: number | undefined): () => void {
  if (pid === undefined) return () => undefined;
  liveGroups.add(pid);
  return () => liveGroups.delete(pid);
}

/** Whether a finished execa result is a spawn failure, and whether that means "no runnable CLI". */
function spawnFailure(result: {
  failed: boolean;
  exitCode?: number;
  signal?: string;
  isTerminated: boolean;
  code?: string;
}): { failed: boolean; missing: boolean; code?: string } {
  const neverRan =
    result.failed && result.exitCode === undefined && result.signal === undefined && !result.isTerminated;
  if (!neverRan && result.code !== 'ENOENT' && result.code !== 'EACCES')
    return { failed: false, missing: false };
  const missing = result.code === undefined || NOT_RUNNABLE.has(result.code);
  return { failed: true, missing, ...(result.code === undefined ? {} : { code: result.code }) };
}

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
   * session and key files, see `removeSessionLeftovers`). Resolves when the group is gone and the
   * files are removed. The CLI writes the user's files (`~/.claude.json`, the plugin store) to a
   * temp file and renames it into place, so a kill cannot leave them half-written (docs/speed.md).
   */
  kill(): Promise<void>;
  exited: Promise<ClaudeExit>;
}

export interface SpawnOptions {
  bin: string;
  args: string[];
  cwd: string;
  /** The complete environment: nothing is inherited that is not listed here. */
  env: Record<string, string>;
  /** For debugging only: pass the CLI's stderr through. Never written into a report. */
  inheritStderr?: boolean;
}

/**
 * The only module that starts `claude`. It runs in its own process group (`detached`) so that a
 * stop reaches everything it started (tools run by the model, too), with stdin ignored: an open
 * stdin pipe makes `-p` wait 3 s for data (claude-cli-facts.md §0.11).
 */
export function spawnClaude(options: SpawnOptions): ClaudeProcess {
  const child = execa(resolveClaudeBin(options.bin), options.args, {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: options.inheritStderr ? 'inherit' : 'ignore',
    detached: true,
    reject: false,
    buffer: false,
    cleanup: true,
    windowsHide: true,
  });

  let gone = false;
  const forget = trackGroup(child.pid);
  const exited: Promise<ClaudeExit> = child.then(
    (result) => {
      gone = true;
      const spawn = spawnFailure(result);
      return {
        spawnFailed: spawn.missing,
        ...(spawn.failed && !spawn.missing ? { spawnError: spawn.code ?? 'unknown' } : {}),
        ...(result.exitCode === undefined ? {} : { exitCode: result.exitCode }),
        ...(result.signal === undefined ? {} : { signal: result.signal }),
      };
    },
    () => {
      gone = true;
      return { spawnFailed: true };
    },
  );

  const signalGroup = (signal: NodeJS.Signals, evenIfGone = false): void => {
    const pid = child.pid;
    if (pid === undefined || (gone && !evenIfGone)) return;
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

  // stdout is drained by 'data' events for the whole life of the process, not by iterating the
  // stream: leaving a `for await` over the stream destroys it, and a claude whose stdout pipe is
  // closed ignores SIGTERM until the KILL 2 s later (measured: 2.1 s instead of ~0.16 s).
  const queue: string[] = [];
  let ended = !child.stdout;
  let consumerGone = false;
  let wake: (() => void) | undefined;
  let buffer = '';
  const push = (line: string): void => {
    const trimmed = line.trim();
    if (trimmed && !consumerGone) queue.push(trimmed);
  };
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    buffer += chunk;
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      push(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf('\n');
    }
    wake?.();
  });
  const finish = (): void => {
    if (ended) return;
    push(buffer);
    buffer = '';
    ended = true;
    wake?.();
  };
  child.stdout?.on('end', finish);
  child.stdout?.on('close', finish);
  child.stdout?.on('error', finish);

  async function* lines(): AsyncGenerator<string> {
    try {
      for (;;) {
        const line = queue.shift();
        if (line !== undefined) {
          yield line;
          continue;
        }
        if (ended) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    } finally {
      consumerGone = true;
      queue.length = 0;
    }
  }

  return {
    pid: child.pid,
    lines: lines(),
    exited,
    async kill() {
      signalGroup('SIGKILL', true);
      await exited;
      forget();
      if (child.pid !== undefined) await removeSessionLeftovers(child.pid, options.env);
    },
    async stop(graceMs = 2000) {
      if (gone) {
        // claude itself is gone (it exited or was SIGKILLed) but what it started may still run.
        signalGroup('SIGKILL', true);
        forget();
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
        forget();
      }
    },
  };
}

/**
 * What a claude process leaves when it is killed instead of exiting: `<config>/sessions/<pid>.json`
 * and `<pid>.<hash>.key` (and their `.tmp` files), and `.claude.json.tmp.<pid>.*` if the kill came
 * mid-write (claude-cli-facts.md §5; seen with strace on 2.1.328). On a TERM the CLI removes them
 * itself; after a KILL this does, for that pid only. The config folder is `CLAUDE_CONFIG_DIR`, else
 * `~/.claude`; `.claude.json` sits in the config folder or in HOME. The socket and file-watch probes
 * the CLI makes under TMPDIR are not touched here: a measured run gets a TMPDIR of its own, inside
 * its temp project, which is removed with it.
 */
export async function removeSessionLeftovers(pid: number, env: Record<string, string>): Promise<void> {
  const home = env.HOME;
  const config = env.CLAUDE_CONFIG_DIR || (home ? path.join(home, '.claude') : undefined);
  if (!config) return;
  const remove = async (dir: string, matches: (name: string) => boolean) => {
    const names = await readdir(dir).catch(() => [] as string[]);
    await Promise.all(
      names.filter(matches).map((name) => rm(path.join(dir, name), { force: true }).catch(() => undefined)),
    );
  };
  const own = `${pid}.`;
  await remove(path.join(config, 'sessions'), (name) => name.startsWith(own));
  const jsonTemp = `.claude.json.tmp.${pid}.`;
  await remove(config, (name) => name.startsWith(jsonTemp));
  if (home && !env.CLAUDE_CONFIG_DIR) await remove(home, (name) => name.startsWith(jsonTemp));
}

/** How a short `claude` command (a gate's `--version`, `auth status`, `plugin list`, round-trip) ended. */
export interface ClaudeCommandResult {
  /** The executable could not be started at all: the CLI is missing (or not executable). */
  spawnFailed: boolean;
  /** Killed by skilltrigger because it outlived `timeoutMs`. */
  timedOut: boolean;
  /** Stopped because the caller's signal aborted. */
  aborted: boolean;
  exitCode?: number;
  signal?: string;
  stdout: string;
  /** Kept in memory for gate reasons only; never written into a report. */
  stderr: string;
  /** Why the spawn failed (e.g. `ENOENT`), when it did. */
  spawnError?: string;
}

export interface ClaudeCommandOptions {
  /** The complete environment: nothing is inherited that is not listed here. */
  env: Record<string, string>;
  cwd: string;
  /** Wall-clock bound: a hung API (claude-cli-facts.md §3) must not hang a gate. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Run one short `claude` command to completion and hand back its output. Like `spawnClaude` it
 * runs in its own process group with stdin ignored, so a timeout or abort stops whatever it
 * started, and a missing binary is reported as `spawnFailed` rather than thrown.
 */
export async function runClaudeCommand(
  bin: string,
  args: string[],
  options: ClaudeCommandOptions,
): Promise<ClaudeCommandResult> {
  if (options.signal?.aborted)
    return { spawnFailed: false, timedOut: false, aborted: true, stdout: '', stderr: '' };
  const child = execa(resolveClaudeBin(bin), args, {
    cwd: options.cwd,
    env: options.env,
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
  let timedOut = false;
  let aborted = false;
  let gone = false;
  const forget = trackGroup(child.pid);
  const stopGroup = (): void => {
    const pid = child.pid;
    if (pid === undefined || gone) return;
    const kill = (signal: NodeJS.Signals) => {
      try {
        process.kill(-pid, signal);
      } catch {
        /* the group is gone already */
      }
    };
    kill('SIGTERM');
    setTimeout(() => kill('SIGKILL'), 2000).unref();
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
  } finally {
    gone = true;
    forget();
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
