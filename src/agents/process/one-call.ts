/**
 * One agent process run to its end in its own group, for a call whose whole output is wanted (an
 * author call, src/agents/ask.ts): every stdout line handed to the caller's reader, the group killed
 * at the timeout or on abort, and gone before this resolves. Shared by the Codex and Gemini asks.
 */
import { type GroupExit, type GroupSpawnOptions, spawnInGroup } from './group.js';

export interface OneCallOptions extends Omit<GroupSpawnOptions, 'stdin'> {
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface OneCallEnd {
  exit: GroupExit;
  /** Why the process was killed before it ended by itself. */
  stopped?: 'timeout' | 'abort';
}

export async function runOneCall(
  options: OneCallOptions,
  onLine: (line: string) => void,
): Promise<OneCallEnd> {
  const { timeoutMs, signal, ...spawnOptions } = options;
  const child = spawnInGroup(spawnOptions);
  let stopped: OneCallEnd['stopped'];
  const halt = (why: 'timeout' | 'abort'): void => {
    stopped ??= why;
    void child.kill();
  };
  const timer = setTimeout(() => halt('timeout'), timeoutMs);
  const onAbort = (): void => halt('abort');
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const line of child.lines) onLine(line);
    const exit = await child.exited;
    // The process may have ended while members of its group (a command it started) live on.
    await child.kill();
    return { exit, ...(stopped === undefined ? {} : { stopped }) };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
