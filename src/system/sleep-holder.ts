import { spawn } from 'node:child_process';
import { firstLine } from '../program-output.js';

/** How starting a sleep holder went: still running after the probe, missing, or exited at once. */
export type HolderStart =
  | { kind: 'running'; pid: number; release(): void }
  | { kind: 'missing' }
  /** Spawned, but no pid came back. */
  | { kind: 'not-started' }
  | { kind: 'exited'; code: number | null; said: string };

/**
 * Starts a sleep holder (`caffeinate`, `systemd-inhibit`) and waits `probeMs` to see that it stays
 * up (a refused inhibitor exits at once). A running holder is in its own process group, unref'd so
 * it never keeps skilltrigger alive, and killed when skilltrigger exits or `release()` is called.
 */
export async function startSleepHolder(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  probeMs: number,
): Promise<HolderStart> {
  const child = spawn(command, args, {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    if (stderr.length < 4096) stderr += d;
  });
  const probe = await new Promise<HolderStart | 'running'>((resolve) => {
    const timer = setTimeout(() => resolve('running'), probeMs);
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(
        error.code === 'ENOENT' ? { kind: 'missing' } : { kind: 'exited', code: null, said: error.message },
      );
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      // Let the last stderr bytes arrive before quoting them.
      setImmediate(() => resolve({ kind: 'exited', code, said: firstLine(stderr) }));
    });
  });
  if (probe !== 'running') return probe;
  const pid = child.pid;
  if (pid === undefined) return { kind: 'not-started' };
  child.stderr?.destroy();
  child.unref();
  const kill = () => {
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
  };
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', kill);
    kill();
  };
  process.on('exit', kill);
  return { kind: 'running', pid, release };
}
