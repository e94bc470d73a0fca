/**
 * A context as Claude Code resumes it (docs/context.md): a session transcript of only the
 * user/assistant chain, written where the CLI looks for the sessions of the run's working folder
 * (`<config>/projects/<slug>/<id>.jsonl`), and resumed with `--resume <id> --fork-session`. The
 * folder is the run's own project entry, which `removeSessionLeftovers` removes with the run.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ContextTurn } from '../transcript.js';
import { configFolder } from './leftovers.js';

/** The longest project folder name the CLI uses as it is; a longer one gets a hash of its own. */
const SLUG_LIMIT = 200;

/**
 * The transcript's lines: each turn one line, linked by `uuid`/`parentUuid`. A user turn's content
 * is its text as a string (what `-p <text>` records); an assistant turn's is one text block. No
 * `model` is written: the CLI resumes with the model of the last assistant message when it names
 * one, and a context must not change the model a run asks for.
 */
export function transcriptText(
  turns: readonly ContextTurn[],
  sessionId: string,
  cwd: string,
  at: Date = new Date(),
  uuid: () => string = randomUUID,
): string {
  let parentUuid: string | null = null;
  const lines: string[] = [];
  for (const [index, turn] of turns.entries()) {
    const id = uuid();
    const message =
      turn.role === 'user'
        ? { role: 'user', content: turn.content }
        : {
            id: `msg_context_${index}`,
            type: 'message',
            role: 'assistant',
            content: [{ type: 'text', text: turn.content }],
            stop_reason: 'end_turn',
            stop_sequence: null,
            usage: { input_tokens: 0, output_tokens: 0 },
          };
    const timestamp = new Date(at.getTime() + index).toISOString();
    lines.push(
      JSON.stringify({
        parentUuid,
        isSidechain: false,
        type: turn.role,
        uuid: id,
        sessionId,
        cwd,
        timestamp,
        message,
      }),
    );
    parentUuid = id;
  }
  return `${lines.join('\n')}\n`;
}

/** The argv a run resumes its context with: a fork, so every run is a session of its own. */
export function resumeArgs(sessionId: string): string[] {
  return ['--resume', sessionId, '--fork-session'];
}

/**
 * Writes the context as a transcript for a claude about to start in `projectDir` with `env`, and
 * returns the session id to resume. The slug is the CLI's: the folder's real path with every
 * character but ASCII letters and digits turned into `-`.
 */
export async function placeTranscript(
  turns: readonly ContextTurn[],
  env: Record<string, string | undefined>,
  projectDir: string,
): Promise<string> {
  const config = configFolder(env);
  if (!config) throw new Error('cannot place a context: neither HOME nor CLAUDE_CONFIG_DIR is set');
  const cwd = await realpath(projectDir);
  const slug = cwd.replace(/[^a-zA-Z0-9]/g, '-');
  if (slug.length > SLUG_LIMIT) {
    throw new Error(
      `cannot place a context: the temp project's path is over ${SLUG_LIMIT} characters (${cwd.length}); point TMPDIR at a shorter folder`,
    );
  }
  const sessionId = randomUUID();
  const folder = path.join(config, 'projects', slug);
  const made = await mkdir(folder, { recursive: true });
  try {
    await writeFile(path.join(folder, `${sessionId}.jsonl`), transcriptText(turns, sessionId, cwd), {
      mode: 0o600,
    });
  } catch (error) {
    // No claude has started yet to leave the entry behind: what was made here goes now.
    await rm(made ?? path.join(folder, `${sessionId}.jsonl`), { recursive: true, force: true });
    throw error;
  }
  return sessionId;
}
