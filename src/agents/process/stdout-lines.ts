/**
 * An agent's stdout as trimmed, non-empty lines, shared by the spawners of `claude` (claude.ts) and
 * `codex` (codex.ts). The stream is drained by 'data' events for the whole life of the process,
 * not by iterating it: leaving a `for await` over the stream destroys it, and a claude whose stdout
 * pipe is closed ignores SIGTERM until the KILL 2 s later (measured: 2.1 s instead of ~0.16 s).
 */
import type { Readable } from 'node:stream';

export interface StdoutLines {
  /** The lines, until the stream ends (or `end` is called); leaving the iteration drops what is left. */
  lines: AsyncIterable<string>;
  /** Ends the lines now, with what was buffered: for a pipe held open by a process that escaped. */
  end(): void;
}

export function stdoutLines(stdout: Readable | null | undefined): StdoutLines {
  const queue: string[] = [];
  let ended = !stdout;
  let consumerGone = false;
  let wake: (() => void) | undefined;
  let buffer = '';
  const push = (line: string): void => {
    const trimmed = line.trim();
    if (trimmed && !consumerGone) queue.push(trimmed);
  };
  stdout?.setEncoding('utf8');
  stdout?.on('data', (chunk: string) => {
    buffer += chunk;
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      push(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf('\n');
    }
    wake?.();
  });
  const end = (): void => {
    if (ended) return;
    push(buffer);
    buffer = '';
    ended = true;
    wake?.();
  };
  stdout?.on('end', end);
  stdout?.on('close', end);
  stdout?.on('error', end);

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

  return { lines: lines(), end };
}
