import { z } from 'zod';
import type { ContextTurn } from '../inputs/context.js';
import { between, DRAFT_CLOSE, DRAFT_OPEN } from './prompts.js';

/**
 * `init`'s pure rules: read the model's draft (schema-checked), and mark a stratified holdout.
 * The split is assigned here, not by the model: about 40% of each class, spread evenly through the
 * class, so the holdout is stratified by label whatever the model wrote.
 */

/** The share of each class held out. */
export const HOLDOUT_SHARE = 0.4;

const draftItemSchema = z.object({
  query: z.string().trim().min(1),
  should_trigger: z.boolean(),
});
const draftSchema = z.array(draftItemSchema).min(2);

export type DraftItem = z.infer<typeof draftItemSchema>;

/** One item of the eval set `init` writes (skill-creator's format plus `split`, and the context fields). */
export interface DraftEntry {
  query: string;
  should_trigger: boolean;
  split: 'train' | 'holdout';
  /** The prompt reads as if it presupposes an earlier session (the cues `check` warns about). */
  needs_context?: true;
  /** The conversation it continues, as inline turns, drafted by `init` (src/author/contexts.ts). */
  context?: ContextTurn[];
  /** Marks `context` as drafted by the model, not written by the author: read it as the prompts. */
  context_drafted?: true;
}

/** The draft, or why the answer is not one (with the answer's first line, for the message). */
export type DraftReading = { kind: 'draft'; items: DraftItem[] } | { kind: 'malformed'; problem: string };

export function readDraft(answer: string): DraftReading {
  const inner = between(answer, DRAFT_OPEN, DRAFT_CLOSE);
  if (inner === undefined) {
    return {
      kind: 'malformed',
      problem: `no ${DRAFT_OPEN}…${DRAFT_CLOSE} in the answer`,
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(inner);
  } catch {
    return {
      kind: 'malformed',
      problem: 'the text between the tags is not JSON',
    };
  }
  const parsed = draftSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at [${issue.path.join('][')}]` : '';
    return {
      kind: 'malformed',
      problem: `the JSON is not an array of {"query", "should_trigger"} items${where}: ${issue?.message ?? 'invalid'}`,
    };
  }
  const items = dedupe(parsed.data);
  if (!items.some((i) => i.should_trigger) || !items.some((i) => !i.should_trigger)) {
    return {
      kind: 'malformed',
      problem: 'the draft holds only one class (every item should trigger, or none)',
    };
  }
  return { kind: 'draft', items };
}

/** The first of each repeated query text stays (an eval set with repeats is refused by the loader). */
function dedupe(items: DraftItem[]): DraftItem[] {
  const seen = new Set<string>();
  return items.filter((i) => {
    const key = i.query.trim();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Marks round(40%) of each class as holdout, at evenly spread positions within the class (the
 * k-th of n is held out when ⌊(k+1)·h/n⌋ > ⌊k·h/n⌋), so a class of 10 gets 4 held out.
 * Deterministic; the order of the items is kept.
 */
export function assignSplits(items: DraftItem[]): DraftEntry[] {
  const holdoutOf = (cls: boolean): Set<number> => {
    const members = items.flatMap((item, i) => (item.should_trigger === cls ? [i] : []));
    const n = members.length;
    const h = Math.round(n * HOLDOUT_SHARE);
    const out = new Set<number>();
    members.forEach((index, k) => {
      if (Math.floor(((k + 1) * h) / n) > Math.floor((k * h) / n)) out.add(index);
    });
    return out;
  };
  const held = new Set([...holdoutOf(true), ...holdoutOf(false)]);
  return items.map((item, i) => ({
    query: item.query.trim(),
    should_trigger: item.should_trigger,
    split: held.has(i) ? 'holdout' : 'train',
  }));
}

/** The file's text: a JSON array, one item per line group, as skill-creator writes it. */
export function renderDraft(entries: DraftEntry[]): string {
  return `${JSON.stringify(entries, null, 2)}\n`;
}
