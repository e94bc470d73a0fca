/**
 * An agent CLI run as a child in its own process group, shared by the Codex and Gemini adapters:
 * stdin on /dev/null (an open stdin makes `codex exec` wait for more prompt, and `gemini -p` append
 * it to the query) unless the caller writes the prompt there itself (a warm standby), stdout read line by line, stderr dropped, and a kill that reaches the whole group
 * (an npm launcher, a native binary, a relaunched node, the commands the model started), waiting
 * until none of it is left. docs/codex.md "Launch", docs/gemini.md "Launch".
 */
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { stdoutLines } from './stdout-lines.js';

export interface GroupExit {
  /** The executable could not be started (missing, not executable). */
  spawnFailed: boolean;
  exitCode?: number;
  signal?: string;
}

export interface GroupProcess {
  pid: number | undefined;
  /** stdout, one trimmed non-empty line at a time, until the pipe closes. */
  lines: AsyncIterable<string>;
  exited: Promise<GroupExit>;
  /** KILL the whole process group; resolves once the process is gone. */
  kill(): Promise<void>;
  /**
   * With `stdin: 'pipe'`: writes `text` to stdin and closes it, resolving once it is handed to the
   * pipe (a process that is gone rejects).
   */
  prompt(text: string): Promise<void>;
}

export interface GroupSpawnOptions {
  bin: string;
  args: string[];
  cwd: string;
  /** The complete environment: nothing is inherited that is not listed here. */
  env: Record<string, string>;
  /** `pipe`: stdin stays open for `prompt` (a standby waiting for its prompt); default /dev/null. */
  stdin?: 'ignore' | 'pipe';
}

/** A path with a separator is made absolute against where the user stands; a bare name is looked up on PATH. */
export function resolveAgentBin(bin: string, cwd: string = process.cwd()): string {
  return bin.includes('/') || bin.includes(path.sep) ? path.resolve(cwd, bin) : bin;
}

/** Process groups of live runs, so an interrupt can end them all (see `killAllAgentGroups`). */
const groups = new Set<number>();

export function killAllAgentGroups(): void {
  for (const pid of groups) signalGroup(pid, 'SIGKILL');
  groups.clear();
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a process of the group still runs. A killed member whose parent died first is a zombie
 * until PID 1 reaps it, and some inits reap on a timer: under this machine's init every Codex and
 * Gemini run's group stayed "alive" to `kill(-pgid, 0)` for 1.2–1.5 s after the KILL, only zombies
 * left (docs/speed.md, "Per agent"). A zombie holds no file, folder or socket, so it counts as gone.
 * Linux reads /proc for the members' states; elsewhere any member counts, as `kill(-pgid, 0)` says.
 */
async function groupRunning(pid: number): Promise<boolean> {
  if (!groupAlive(pid)) return false;
  let names: string[];
  try {
    names = await readdir('/proc');
  } catch {
    return true;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => undefined);
    if (stat === undefined) continue;
    // "pid (comm) state ppid pgrp …"; comm may hold spaces and parentheses, so read after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pid && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}

/** Resolves once no process of the group runs any more (KILL again meanwhile), or after ~3 s. */
async function groupGone(pid: number): Promise<void> {
  for (let i = 0; i < 150 && (await groupRunning(pid)); i++) {
    signalGroup(pid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function spawnInGroup(options: GroupSpawnOptions): GroupProcess {
  const child = spawn(resolveAgentBin(options.bin), options.args, {
    cwd: options.cwd,
    env: options.env,
    stdio: [options.stdin ?? 'ignore', 'pipe', 'ignore'],
    detached: true,
    windowsHide: true,
  });
  const pid = child.pid;
  if (pid !== undefined) groups.add(pid);

  const exited = new Promise<GroupExit>((resolve) => {
    // Without a pid nothing was started (ENOENT, EACCES): no exit event will follow.
    child.once('error', () => {
      if (pid === undefined) resolve({ spawnFailed: true });
    });
    child.once('exit', (code, signal) => {
      resolve({
        spawnFailed: false,
        ...(code === null ? {} : { exitCode: code }),
        ...(signal === null ? {} : { signal }),
      });
    });
  });

  const stdout = stdoutLines(child.stdout);
  // A process that escaped the group could hold stdout open after the agent exits: stop reading
  // a moment after the exit even then.
  void exited.then(() => setTimeout(stdout.end, 1000).unref());

  // A standby killed before its prompt closes the pipe under a pending write: not an error here.
  child.stdin?.on('error', () => undefined);

  return {
    pid,
    lines: stdout.lines,
    exited,
    prompt(text) {
      const stdin = child.stdin;
      if (!stdin || stdin.destroyed) return Promise.reject(new Error('the process takes no prompt on stdin'));
      return new Promise<void>((resolve, reject) => {
        stdin.once('error', reject);
        stdin.end(text, () => {
          stdin.off('error', reject);
          resolve();
        });
      });
    },
    async kill() {
      if (pid !== undefined) signalGroup(pid, 'SIGKILL');
      await exited;
      if (pid === undefined) return;
      // The npm launcher exits first; the native binary and the commands it started die a moment
      // later. Their files are removed next, so wait until the whole group is gone.
      await groupGone(pid);
      groups.delete(pid);
    },
  };
}
