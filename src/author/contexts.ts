/**
 * `init`'s contexts (docs/author-loop.md, docs/context.md): for the drafted positives that read as
 * if they presuppose an earlier session (the cues `check` warns about, src/inputs/weak-set.ts), one
 * more call asks for the short conversation each continues; its answer is read here and each
 * context checked as an eval-set entry's inline turns are. Pure. The prompt marks what it carries
 * with tags so that the simulated model can read it back (readContextsPrompt).
 */
import type { ContextTurn } from '../inputs/context.js';
import { readInlineTurns } from '../inputs/context.js';
import { Problems } from '../inputs/problems.js';
import { sessionCue } from '../inputs/weak-set.js';
import { agentWords, BODY_LIMIT, between } from './prompts.js';

export const CONTEXTS_OPEN = '<contexts>';
export const CONTEXTS_CLOSE = '</contexts>';

/** The longest drafted context, in characters: a short conversation, not a session's worth. */
export const DRAFTED_CONTEXT_MAX_CHARS = 2_000;

/** What the contexts prompt is built from. */
export interface ContextsPromptInput {
  skillName: string;
  description: string;
  body: string;
  /** The prompts that presuppose an earlier session, in the draft's order. */
  queries: string[];
  /** The agent the skill is tested on, by its label; absent: Claude Code. */
  agentLabel?: string;
}

/** The drafted positives that read as if they presuppose an earlier session, by the rule `check` warns with. */
export function presupposingQueries(
  entries: readonly { query: string; should_trigger: boolean }[],
): string[] {
  return entries.filter((e) => e.should_trigger && sessionCue(e.query) !== undefined).map((e) => e.query);
}

function tagged(tag: string, text: string): string {
  return `<${tag}>\n${text}\n</${tag}>`;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The contexts prompt: for each prompt, the short conversation it continues, as a JSON array. */
export function contextsPrompt(input: ContextsPromptInput): string {
  const body = input.body.trim();
  const { agent, loader } = agentWords(input.agentLabel);
  return [
    `You are helping the author of a ${agent} skill test when ${loader} loads it mid-session. Each prompt below reads as if the user and ${loader} had already been working together. For each, write the short conversation that came just before it, so that the prompt reads naturally as the next user message.`,
    tagged('skill_name', input.skillName),
    tagged('skill_description', oneLine(input.description)),
    tagged(
      'skill_body',
      body.length <= BODY_LIMIT ? body : `${body.slice(0, BODY_LIMIT)}\n[… cut at ${BODY_LIMIT} characters]`,
    ),
    tagged('prompts', input.queries.map((q) => `- ${oneLine(q)}`).join('\n')),
    [
      'Rules:',
      '- 2 or 4 turns: the user first, the roles alternating, the assistant last; plain text, no tool calls.',
      `- At most ${DRAFTED_CONTEXT_MAX_CHARS} characters in all: ordinary earlier work the prompt refers to (what was changed, decided or tried).`,
      '- Never name the skill, never ask for what the prompt asks, never answer it.',
      `Answer with only a JSON array between ${CONTEXTS_OPEN} and ${CONTEXTS_CLOSE}, one item per prompt: {"query": "<the prompt, as given>", "context": [{"role": "user", "content": "…"}, {"role": "assistant", "content": "…"}]}.`,
    ].join('\n'),
  ].join('\n\n');
}

/** What the simulated model reads back from a contexts prompt; undefined for any other text. */
export function readContextsPrompt(text: string): ContextsPromptInput | undefined {
  if (!text.includes(CONTEXTS_OPEN) || !text.includes(CONTEXTS_CLOSE)) return undefined;
  const tag = (name: string) => between(text, `<${name}>\n`, `\n</${name}>`);
  const skillName = tag('skill_name');
  const description = tag('skill_description');
  const prompts = tag('prompts');
  if (skillName === undefined || description === undefined || prompts === undefined) return undefined;
  const queries = prompts
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(2));
  return { skillName, description, body: tag('skill_body') ?? '', queries };
}

/** The contexts read from an answer: each asked prompt's turns, or why it has none. */
export interface DraftedContexts {
  /** By the prompt's text: a context that passed the checks of an entry's inline turns. */
  turns: Map<string, ContextTurn[]>;
  /** Why the whole answer, or a prompt's context, was not taken (no text of the answer). */
  problems: string[];
}

/**
 * Reads the answer: the JSON array between the tags, each item's context checked as an entry's
 * inline turns are (user first, alternating, assistant last) and held to the length limit. A prompt
 * the answer leaves out, or whose context fails a check, gets none.
 */
export function readDraftedContexts(answer: string, queries: readonly string[]): DraftedContexts {
  const turns = new Map<string, ContextTurn[]>();
  const inner = between(answer, CONTEXTS_OPEN, CONTEXTS_CLOSE);
  if (inner === undefined)
    return { turns, problems: [`no ${CONTEXTS_OPEN}…${CONTEXTS_CLOSE} in the answer`] };
  let json: unknown;
  try {
    json = JSON.parse(inner);
  } catch {
    return { turns, problems: ['the text between the tags is not JSON'] };
  }
  if (!Array.isArray(json)) return { turns, problems: ['the answer is not a JSON array'] };
  const asked = new Map(queries.map((q) => [oneLine(q), q]));
  const problems: string[] = [];
  json.forEach((item: unknown, index) => {
    const where = `item #${index + 1}`;
    const record = typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : {};
    const query = typeof record.query === 'string' ? asked.get(oneLine(record.query)) : undefined;
    if (query === undefined || turns.has(query)) return;
    if (!Array.isArray(record.context)) {
      problems.push(`${where}: its context is not a list of turns`);
      return;
    }
    const found = new Problems();
    const read = readInlineTurns(record.context, { file: 'the drafted contexts', entry: where }, found);
    if (read === undefined) {
      problems.push(`${where}: ${found.errors[0]?.problem ?? 'not a conversation'}`);
      return;
    }
    const chars = read.reduce((n, t) => n + t.content.length, 0);
    if (chars > DRAFTED_CONTEXT_MAX_CHARS) {
      problems.push(`${where}: ${chars} characters, more than ${DRAFTED_CONTEXT_MAX_CHARS}`);
      return;
    }
    turns.set(query, read);
  });
  const missing = queries.filter((q) => !turns.has(q)).length - problems.length;
  if (missing > 0) problems.push(`${missing} prompt${missing === 1 ? '' : 's'} left out of the answer`);
  return { turns, problems };
}
