/**
 * The simulated model's answers to the two author prompts (src/author/prompts.ts), built by rule
 * from what the prompt carries, so `init` and `improve` run end to end offline:
 * - a draft: half positives built from the description's own words (so the text rule loads them),
 *   half near-misses that share one of its words with unrelated work;
 * - the contexts of the drafted positives that presuppose a session: two turns each, the user
 *   asking to look at the first two of the prompt's words that the description also holds (then
 *   its other words) in the file it names (else "the repository"), the assistant saying it did
 *   and changed the third;
 * - a rewrite: the current text, plus "Also use it for …" with the words of the failing positives it
 *   does not cover yet, plus "Not for …" with the words of the negatives that fired (8 words a
 *   side, 4 more per earlier attempt the prompt lists).
 * Deterministic: the same prompt gets the same answer.
 */

import { CONTEXTS_CLOSE, CONTEXTS_OPEN, type ContextsPromptInput } from '../author/contexts.js';
import {
  DESCRIPTION_LIMIT,
  DRAFT_CLOSE,
  DRAFT_OPEN,
  type DraftPromptInput,
  REWRITE_CLOSE,
  REWRITE_OPEN,
  type RewritePromptInput,
} from '../author/prompts.js';
import { contentWords, descriptionStems, stem } from './text-rule.js';

const FILES = ['notes.md', 'src/app.ts', 'README.md', 'docs/plan.md', 'main.py', 'report.csv', 'TODO.txt'];
const ELSEWHERE = [
  'database migration',
  'invoice totals',
  'flaky unit test',
  'docker image',
  'timezone bug',
  'regex for emails',
  'spreadsheet formula',
  'CSS grid layout',
  'kubernetes pod',
  'SQL index',
];

const POSITIVE_TEMPLATES: ((a: string, b: string, c: string, file: string) => string)[] = [
  (a, b, c, f) => `can you ${a} the ${b} for ${f}? it's about ${c}`,
  (a, b, c, f) => `I need ${a} ${b} ${c} — start from ${f}`,
  (a, b, c, f) => `please ${a} ${b} in ${f}, and keep the ${c} part short`,
  // Reads as if it presupposes an earlier session (a cue `check` knows): `init` drafts its context.
  (a, b, c, f) => `before I stop for today: ${a}, ${b} and ${c} from what we did so far, see ${f}`,
  (a, b, c, f) => `${f} needs ${a} ${b}; mind the ${c}`,
];

const NEGATIVE_TEMPLATES: ((a: string, elsewhere: string, file: string) => string)[] = [
  (a, e, f) => `what does the word "${a}" mean in the ${e} code in ${f}?`,
  (a, e, f) => `fix the ${e} in ${f}; it has nothing to do with ${a}`,
  (a, e, f) => `explain the ${e} in ${f} to me, with the ${a} column too`,
];

/** The description's distinct content words, skill name left out, in order of appearance. */
function vocabulary(input: DraftPromptInput): string[] {
  const name = input.skillName.toLowerCase();
  const seen = new Set<string>();
  const out: string[] = [];
  for (const w of contentWords(input.description)) {
    if (w === name || seen.has(stem(w))) continue;
    seen.add(stem(w));
    out.push(w);
  }
  return out.length > 0 ? out : ['task'];
}

/** The draft's items: ceil(count / 2) positives, then the near-misses. */
export function draftItems(input: DraftPromptInput): { query: string; should_trigger: boolean }[] {
  const words = vocabulary(input);
  const at = (i: number) => words[i % words.length] ?? 'task';
  const positives = Math.ceil(input.count / 2);
  const items: { query: string; should_trigger: boolean }[] = [];
  for (let i = 0; i < input.count; i++) {
    const file = FILES[i % FILES.length] ?? 'notes.md';
    if (i < positives) {
      const template = POSITIVE_TEMPLATES[i % POSITIVE_TEMPLATES.length];
      if (template)
        items.push({ query: template(at(3 * i), at(3 * i + 1), at(3 * i + 2), file), should_trigger: true });
    } else {
      const j = i - positives;
      const template = NEGATIVE_TEMPLATES[j % NEGATIVE_TEMPLATES.length];
      const elsewhere = ELSEWHERE[j % ELSEWHERE.length] ?? 'database migration';
      if (template) items.push({ query: template(at(j), elsewhere, file), should_trigger: false });
    }
  }
  return items;
}

/** The draft answer, the JSON array between the tags the prompt asked for. */
export function draftAnswer(input: DraftPromptInput): string {
  return `Here is a draft.\n${DRAFT_OPEN}\n${JSON.stringify(draftItems(input), null, 2)}\n${DRAFT_CLOSE}`;
}

/** The conversation a presupposing prompt continues, by the rule above. */
export function contextTurnsFor(
  query: string,
  skill: { skillName: string; description: string },
): { role: 'user' | 'assistant'; content: string }[] {
  const described = new Set(contentWords(skill.description).map(stem));
  const own = contentWords(query).filter((w) => w !== skill.skillName.toLowerCase());
  const shared = own.filter((w) => described.has(stem(w)));
  const words = [...shared, ...own.filter((w) => !shared.includes(w))];
  const at = (i: number) => words[i] ?? 'task';
  const file = query.split(/\s+/).find((w) => /^[\w./-]*\w\.\w+$/.test(w)) ?? 'the repository';
  return [
    {
      role: 'user',
      content: `We are working in ${file} today: first look at the ${at(0)} and the ${at(1)}.`,
    },
    {
      role: 'assistant',
      content: `Done: I looked at the ${at(0)} and the ${at(1)} in ${file}, and changed the ${at(2)} part. Nothing else is open.`,
    },
  ];
}

/** The contexts answer: one item per prompt, between the tags the prompt asked for. */
export function contextsAnswer(input: ContextsPromptInput): string {
  const items = input.queries.map((query) => ({ query, context: contextTurnsFor(query, input) }));
  return `Here they are.\n${CONTEXTS_OPEN}\n${JSON.stringify(items, null, 2)}\n${CONTEXTS_CLOSE}`;
}

/** Words of `queries` that `covered` does not hold yet, most frequent first (ties: first seen). */
function rankedWords(queries: string[], skip: Set<string>, limit: number): string[] {
  const counts = new Map<string, { word: string; n: number; first: number }>();
  let order = 0;
  for (const q of queries) {
    for (const w of contentWords(q)) {
      const s = stem(w);
      if (skip.has(s)) continue;
      const entry = counts.get(s);
      if (entry) entry.n++;
      else counts.set(s, { word: w, n: 1, first: order++ });
    }
  }
  return [...counts.values()]
    .sort((x, y) => y.n - x.n || x.first - y.first)
    .slice(0, limit)
    .map((e) => e.word);
}

/** The rule-built rewrite (without the tags). */
export function rewriteText(input: RewritePromptInput): string {
  const current = input.current.trim().replace(/([^.!?])$/, '$1.');
  const { included } = descriptionStems(current);
  const missed = input.failing.filter((q) => q.shouldTrigger).map((q) => q.query);
  const fired = input.failing.filter((q) => !q.shouldTrigger).map((q) => q.query);
  // Each earlier attempt widens the next one by 4 words a side, so a repeat is not proposed twice.
  const limit = 8 + 4 * input.attempts.length;
  const add = rankedWords(missed, included, limit);
  const positiveStems = new Set(missed.flatMap((q) => contentWords(q).map(stem)));
  const exclude = rankedWords(fired, new Set([...included, ...positiveStems]), limit);
  const parts = [current];
  if (add.length > 0) parts.push(`Also use it for requests about ${add.join(', ')}.`);
  if (exclude.length > 0) parts.push(`Not for ${exclude.join(', ')}.`);
  let text = parts.join(' ');
  while (text.length > DESCRIPTION_LIMIT && parts.length > 1) {
    parts.pop();
    text = parts.join(' ');
  }
  return text.slice(0, DESCRIPTION_LIMIT);
}

export function rewriteAnswer(input: RewritePromptInput): string {
  return `${REWRITE_OPEN}${rewriteText(input)}${REWRITE_CLOSE}`;
}
