import { contextsPrompt, presupposingQueries, readDraftedContexts } from '../author/contexts.js';
import type { DraftEntry } from '../author/draft.js';
import { ExitCode, SkilltriggerError } from '../errors.js';
import type { CliIo } from './output.js';

/**
 * `init`'s contexts (docs/author-loop.md): the drafted positives that read as if they presuppose an
 * earlier session are marked `needs_context: true`, and one more call drafts the conversation each
 * continues, written inline as its `context` and marked `context_drafted: true`. A call that fails,
 * or a context that fails the checks, leaves its prompt marked without one: the draft stands either
 * way. stderr says how many, never a context's text.
 */
/** The author call, as this step reads it: an answer, an interruption, or why there is none. */
export type ContextsAnswer =
  | { kind: 'answer'; text: string }
  | { kind: 'interrupted' }
  | { kind: 'failed'; why: string };

export async function withDraftedContexts(
  entries: DraftEntry[],
  skill: { skillName: string; description: string; body: string },
  ask: (prompt: string) => Promise<ContextsAnswer>,
  io: CliIo,
): Promise<DraftEntry[]> {
  const queries = presupposingQueries(entries);
  if (queries.length === 0) return entries;
  const n = queries.length;
  io.stderr.write(
    `init: ${n} positive prompt${n === 1 ? ' reads' : 's read'} as if ${n === 1 ? 'it presupposes' : 'they presuppose'} an earlier session; asking for the conversation ${n === 1 ? 'it continues' : 'each continues'}…\n`,
  );
  const answer = await ask(contextsPrompt({ ...skill, queries }));
  if (answer.kind === 'interrupted')
    throw new SkilltriggerError('init: interrupted; no draft was written', ExitCode.noVerdict);
  const drafted =
    answer.kind === 'answer'
      ? readDraftedContexts(answer.text, queries)
      : { turns: new Map(), problems: [answer.why] };
  const asked = new Set(queries);
  const out = entries.map((entry): DraftEntry => {
    if (!asked.has(entry.query)) return entry;
    const turns = drafted.turns.get(entry.query);
    return turns === undefined
      ? { ...entry, needs_context: true }
      : { ...entry, needs_context: true, context: turns, context_drafted: true };
  });
  const got = drafted.turns.size;
  const why = drafted.problems.length === 0 ? '' : ` (${drafted.problems[0]})`;
  io.stderr.write(
    got === n
      ? `init: drafted a context for each of the ${n}; marked needs_context and context_drafted\n`
      : `init: drafted a context for ${got} of the ${n}${why}; every one is marked needs_context, so a prompt without a context is counted apart\n`,
  );
  return out;
}
