/**
 * A run's session rollout read as Codex writes it: the file appears under
 * `CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl` once the session starts and
 * grows a line at a time (docs/codex.md "The session rollout"). This module only reads: it finds the
 * file, and hands out its complete lines in file order as they are appended. What the lines mean
 * is rollout.ts and decision.ts. Polling decides only how soon a line is seen, never what it says.
 */
import type { FileHandle } from 'node:fs/promises';
import { open, readdir } from 'node:fs/promises';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';

export interface RolloutTail {
  /** Complete lines in file order, until `end` was called and the file was read to its end once more. */
  lines: AsyncIterable<string>;
  /** The writer is gone (the process exited): read what is left, then stop. */
  end(): void;
}

/** How often the file is looked for and read again (ms). */
const POLL_MS = 10;

/**
 * The session's rollout: the first file by name. Names start with the session's start time and a
 * time-ordered id, so a sub-agent's session, started later in the same home, sorts after it.
 */
async function findRollout(sessions: string): Promise<string | undefined> {
  let entries: string[];
  try {
    entries = await readdir(sessions, { recursive: true });
  } catch {
    // Not there yet.
    return undefined;
  }
  const files = entries.filter((entry) => /^rollout-.*\.jsonl$/.test(path.basename(entry)));
  files.sort((a, b) => (path.basename(a) < path.basename(b) ? -1 : 1));
  return files[0] === undefined ? undefined : path.join(sessions, files[0]);
}

/**
 * A rollout placed before the run (a context, docs/context.md): Codex resumes its thread and appends
 * to that same file, so the run's own lines start after the `bytes` it was written with.
 */
export interface PlacedRollout {
  file: string;
  bytes: number;
}

export function tailRollout(sessions: string, pollMs = POLL_MS, placed?: PlacedRollout): RolloutTail {
  let ended = false;
  let wake: (() => void) | undefined;
  const pause = (): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, pollMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function* lines(): AsyncGenerator<string> {
    let handle: FileHandle | undefined;
    let offset = placed?.bytes ?? 0;
    let rest = '';
    const decoder = new StringDecoder('utf8');
    const buffer = Buffer.alloc(64 * 1024);
    try {
      for (;;) {
        // Taken before reading: a read that starts after `end` sees everything the writer wrote.
        const last = ended;
        if (handle === undefined) {
          const file = placed?.file ?? (await findRollout(sessions));
          if (file !== undefined) handle = await open(file, 'r');
        }
        if (handle !== undefined) {
          for (;;) {
            const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
            if (bytesRead === 0) break;
            offset += bytesRead;
            rest += decoder.write(buffer.subarray(0, bytesRead));
          }
          const complete = rest.split('\n');
          rest = complete.pop() ?? '';
          for (const line of complete) if (line.trim() !== '') yield line;
        }
        if (last) {
          // A line cut off by the writer's death is still handed on; its parser says unparseable.
          rest += decoder.end();
          if (rest.trim() !== '') yield rest;
          return;
        }
        await pause();
      }
    } finally {
      await handle?.close();
    }
  }

  return {
    lines: lines(),
    end() {
      ended = true;
      wake?.();
    },
  };
}
