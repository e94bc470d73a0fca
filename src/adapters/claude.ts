import { execa } from 'execa';

/** How a `claude` process ended. */
export interface ClaudeExit {
  /** The executable could not be started at all (missing, not executable). */
  spawnFailed: boolean;
  exitCode?: number;
  signal?: string;
}

/** A running `claude` process: its stdout as lines, and a way to stop its whole process group. */
export interface ClaudeProcess {
  lines: AsyncIterable<string>;
  /** TERM to the process group, KILL after `graceMs` if it is still there. Resolves when it is gone. */
  stop(graceMs?: number): Promise<void>;
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
  const child = execa(options.bin, options.args, {
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
  const exited: Promise<ClaudeExit> = child.then(
    (result) => {
      gone = true;
      const neverRan =
        result.failed && result.exitCode === undefined && result.signal === undefined && !result.isTerminated;
      return {
        spawnFailed: neverRan || result.code === 'ENOENT' || result.code === 'EACCES',
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

  async function* lines(): AsyncGenerator<string> {
    if (!child.stdout) return;
    let buffer = '';
    child.stdout.setEncoding('utf8');
    for await (const chunk of child.stdout) {
      buffer += chunk;
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (line) yield line;
        newline = buffer.indexOf('\n');
      }
    }
    if (buffer.trim()) yield buffer.trim();
  }

  return {
    lines: lines(),
    exited,
    async stop(graceMs = 2000) {
      if (gone) return;
      signalGroup('SIGTERM');
      const timer = setTimeout(() => signalGroup('SIGKILL'), graceMs);
      try {
        await exited;
      } finally {
        clearTimeout(timer);
        // Whatever the model started in the group and left behind goes too.
        signalGroup('SIGKILL', true);
      }
    },
  };
}
