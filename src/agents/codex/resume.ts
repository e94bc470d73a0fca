/**
 * A context as Codex resumes it (docs/context.md): a rollout of only the session's meta line and
 * the user/assistant message items, written into the run's throwaway CODEX_HOME
 * (`sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`) and resumed with `codex exec resume <id>`.
 * It is written in the paginated history a fresh session writes, so the resumed session records
 * each command's completion as a fresh one does: the Codex decision reads it.
 * The CODEX_HOME is removed with the run's temp folder, so the rollout goes with it.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ContextTurn } from '../transcript.js';
import { CODEX_PROVIDER_ID } from './launch.js';
import type { PlacedRollout } from './rollout-tail.js';

/**
 * The rollout's lines: a `session_meta` (id, time, cwd, the provider the runs use), then one
 * `response_item` message a turn, the user's text as `input_text` and the assistant's as
 * `output_text`, as the binary writes them. Every line carries its `ordinal` and the meta line
 * says `history_mode: "paginated"`: a resumed legacy session (no mode, no ordinals) records no
 * command's completion, and a paginated meta line over lines without ordinals makes the resume
 * end without a turn (both seen on 0.169.0, docs/context.md).
 */
export function rolloutText(turns: readonly ContextTurn[], threadId: string, cwd: string, at: Date): string {
  const timestamp = at.toISOString();
  const meta = {
    timestamp,
    ordinal: 0,
    type: 'session_meta',
    payload: {
      id: threadId,
      timestamp,
      cwd,
      originator: 'codex_exec',
      // Required: 0.169.0 refuses a meta line without it, and resumes whatever version it names.
      cli_version: '0.0.0',
      source: 'exec',
      model_provider: CODEX_PROVIDER_ID,
      history_mode: 'paginated',
    },
  };
  const items = turns.map((turn, index) => ({
    timestamp,
    ordinal: index + 1,
    type: 'response_item',
    payload: {
      type: 'message',
      role: turn.role,
      content: [{ type: turn.role === 'user' ? 'input_text' : 'output_text', text: turn.content }],
    },
  }));
  return `${[meta, ...items].map((line) => JSON.stringify(line)).join('\n')}\n`;
}

/**
 * Writes the context into `codexHome` for a run in `cwd`; returns the thread id to resume, and the
 * file with its length, after which the resumed run's own lines are appended.
 */
export async function placeRollout(
  turns: readonly ContextTurn[],
  codexHome: string,
  cwd: string,
  at: Date = new Date(),
): Promise<{ threadId: string } & PlacedRollout> {
  const threadId = randomUUID();
  const stamp = at.toISOString();
  const folder = path.join(codexHome, 'sessions', stamp.slice(0, 4), stamp.slice(5, 7), stamp.slice(8, 10));
  await mkdir(folder, { recursive: true });
  const name = `rollout-${stamp.slice(0, 19).replace(/:/g, '-')}-${threadId}.jsonl`;
  const real = await realpath(cwd);
  const file = path.join(folder, name);
  const text = rolloutText(turns, threadId, real, at);
  await writeFile(file, text, { mode: 0o600 });
  return { threadId, file, bytes: Buffer.byteLength(text) };
}
