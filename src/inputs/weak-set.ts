import { heldOut, needsContext } from './annotations.js';
import type { EvalItem, EvalSet } from './types.js';

/** What `skilltrigger check` says about an eval set that loads but measures poorly (docs/design.md). */
export type WeakSetCode =
  | 'few-positives'
  | 'few-negatives'
  | 'no-near-miss'
  | 'no-holdout'
  | 'one-sided-holdout'
  | 'small-holdout'
  | 'presupposes-session'
  | 'same-text-opposite-labels';

/** A coded finding: data, rendered by the caller. All are warnings; none stops a run. */
export interface Finding {
  code: WeakSetCode;
  level: 'warn';
  message: string;
  fix: string;
}

/** skill-creator's guidance: 8–10 prompts that should trigger and 8–10 that should not. */
export const MIN_PER_SIDE = 8;

/**
 * Words too common to make two prompts about the same thing. Only words of 4+ letters are
 * compared at all, so shorter stop words need no entry.
 */
const STOP_WORDS = new Set(
  `able about above after again against also always anything because been before being below
   between both could does doing done down during each else even every from further have having
   here into just know like make many more most much must need only other over please really
   same should some something such than that their them then there these they thing things this
   those through under until very want what when where which while will with would your yours
   help give show tell write using used sure thank okay`
    .split(/\s+/)
    .filter(Boolean),
);

/** Fewer held-out queries than this in a class, and its holdout rate moves by a third per query. */
export const MIN_HOLDOUT_PER_CLASS = 3;

/**
 * Phrases that read like a prompt presupposes an earlier session ("dump the state of this
 * refactor"). A hint for `check` only: word cues miss paraphrases and catch some innocent
 * prompts, so they never mark or refuse anything.
 */
const SESSION_CUES: readonly RegExp[] = [
  /\bthis (refactor(ing)?|session|conversation|chat|thread)\b/,
  /\bthe (session|conversation|chat)\b/,
  /\bwhat (we|i|you) (just )?(did|done|changed|discussed|decided|tried)\b/,
  // "we just", not "you just": "can you just write the notes" is an ordinary request.
  /\bwe(['’]ve| have)? just\b/,
  /\b(so far|earlier|previously|a moment ago)\b/,
  /\b(above|the last (change|step|attempt|message)s?)\b/,
  /\bwhere (we|i) (left off|are|were)\b/,
];

/** The first session cue a prompt matches, as it reads in the prompt; undefined when none does. */
export function sessionCue(query: string): string | undefined {
  const text = query.toLowerCase();
  for (const cue of SESSION_CUES) {
    const match = cue.exec(text);
    if (match) return match[0];
  }
  return undefined;
}

/**
 * Flags an eval set the guidance calls weak. Each rule is independent and reported once.
 *
 * Near-miss heuristic: a prompt's meaningful words are its words of 4 or more letters, lowercased,
 * with a trailing plural "s" dropped, minus STOP_WORDS. A negative that shares none of them with
 * any positive is "far" — it only checks that unrelated prompts stay quiet, which almost any
 * description passes. When every negative is far, the set cannot tell a sharp description from a
 * greedy one. Word overlap is a crude proxy (it misses synonyms), so this is a warning, never an error.
 */
export function weakSetFindings(set: EvalSet): Finding[] {
  const positives = set.items.filter((i) => i.shouldTrigger);
  const negatives = set.items.filter((i) => !i.shouldTrigger);
  return [
    ...sizeFindings(positives, negatives),
    ...nearMissFindings(positives, negatives),
    ...holdoutFindings(set.items.filter(isHoldout)),
    ...(set.items.some(isContextual) ? [] : sessionFindings(positives)),
    ...oppositeTwins(set),
  ];
}

/** Fewer prompts on a side than the guidance asks for. */
function sizeFindings(positives: readonly EvalItem[], negatives: readonly EvalItem[]): Finding[] {
  const findings: Finding[] = [];
  if (positives.length < MIN_PER_SIDE) {
    findings.push({
      code: 'few-positives',
      level: 'warn',
      message: `${positives.length} prompt(s) should trigger; the guidance asks for ${MIN_PER_SIDE}–10, and with fewer one flaky prompt moves the rate a lot`,
      fix: `add ${MIN_PER_SIDE - positives.length} or more realistic prompts that should load the skill`,
    });
  }
  if (negatives.length < MIN_PER_SIDE) {
    findings.push({
      code: 'few-negatives',
      level: 'warn',
      message: `${negatives.length} prompt(s) should not trigger; the guidance asks for ${MIN_PER_SIDE}–10`,
      fix: `add ${MIN_PER_SIDE - negatives.length} or more near-miss prompts that should not load the skill`,
    });
  }
  return findings;
}

/** Every negative far from the positives (no meaningful word shared). */
function nearMissFindings(positives: readonly EvalItem[], negatives: readonly EvalItem[]): Finding[] {
  if (positives.length === 0 || negatives.length === 0) return [];
  const positiveWords = new Set(positives.flatMap((i) => meaningfulWords(i.query)));
  const near = negatives.filter((i) => meaningfulWords(i.query).some((w) => positiveWords.has(w)));
  if (near.length > 0) return [];
  return [
    {
      code: 'no-near-miss',
      level: 'warn',
      message: `none of the ${negatives.length} negative prompt(s) shares a word with the positives, so they only test that unrelated requests stay quiet`,
      fix: 'add near misses: prompts in the skill\'s own vocabulary that need something else (for a PDF-form skill, "convert this PDF to a Word document")',
    },
  ];
}

/** No prompt held out, a holdout of one class only, or too few held out in a class. */
function holdoutFindings(held: readonly EvalItem[]): Finding[] {
  if (held.length === 0) {
    return [
      {
        code: 'no-holdout',
        level: 'warn',
        message:
          'no prompt is held out; a description tuned on every prompt fits those phrasings and the rates overstate how it does on new ones',
        fix: 'mark about 40% of the prompts, positives and negatives alike, with split: holdout (a "split" field or column) and judge rewrites on those',
      },
    ];
  }
  if (held.every((i) => i.shouldTrigger) || held.every((i) => !i.shouldTrigger)) {
    return [
      {
        code: 'one-sided-holdout',
        level: 'warn',
        message: `the ${held.length} held-out prompt(s) are all ${held[0]?.shouldTrigger ? 'positives' : 'negatives'}, so the holdout checks only one of the two rates`,
        fix: `hold out ${held[0]?.shouldTrigger ? 'negatives' : 'positives'} too`,
      },
    ];
  }
  const thin = (['positives', 'negatives'] as const)
    .map((cls) => ({ cls, n: held.filter((i) => i.shouldTrigger === (cls === 'positives')).length }))
    .filter((c) => c.n < MIN_HOLDOUT_PER_CLASS);
  if (thin.length === 0) return [];
  return [
    {
      code: 'small-holdout',
      level: 'warn',
      message: `only ${thin.map((c) => `${c.n} held-out ${c.n === 1 ? c.cls.slice(0, -1) : c.cls}`).join(' and ')}: with fewer than ${MIN_HOLDOUT_PER_CLASS} in a class, one query moves its holdout rate by a third or more, so the holdout cannot tell a rewrite that generalises from one that does not`,
      fix: `hold out at least ${MIN_HOLDOUT_PER_CLASS} ${thin.map((c) => c.cls).join(' and ')} (about 40% of each class)`,
    },
  ];
}

/** Positives that read like they presuppose an earlier session, in a set where none carries a context. */
function sessionFindings(positives: readonly EvalItem[]): Finding[] {
  // A prompt that carries its context is measured mid-session: it presupposes nothing missing.
  const cued = positives
    .filter((i) => i.context === undefined)
    .flatMap((i) => {
      const cue = sessionCue(i.query);
      return cue === undefined ? [] : [{ id: i.id, cue }];
    });
  if (cued.length === 0) return [];
  const shown = cued.slice(0, 3).map((c) => `${c.id} ("${c.cue}")`);
  return [
    {
      code: 'presupposes-session',
      level: 'warn',
      message: `${cued.length} positive prompt(s) read like they presuppose an earlier session: ${shown.join(', ')}${cued.length > 3 ? ', …' : ''}. claude -p starts every run from nothing, so such a prompt measures whether the model loads the skill before it goes looking for material a real session would already hold`,
      fix: 'if they do, give them the session they presuppose as a "context" (docs/context.md), or mark them needs_context: true (a JSON field, an EVAL.yaml test field or metadata, or a CSV column) rather than drop them: they are still measured, and the totals are also shown without them',
    },
  ];
}

/**
 * A prompt as a reader sees it: NFKC (full-width and compatibility forms folded), invisible
 * characters (zero-width spaces and joiners, soft hyphens, bidi marks: Unicode's format
 * characters) dropped, whitespace runs made one space, case folded.
 */
function readAs(query: string): string {
  return query
    .normalize('NFKC')
    .replace(/\p{Cf}/gu, '')
    .replace(/\s+/gu, ' ')
    .trim()
    .toLowerCase();
}

/**
 * Two prompts a reader cannot tell apart (they differ only in case, spacing or an invisible
 * character), one labelled to trigger and one not: whatever the model does, one of them counts
 * against the description. The loader refuses only byte-identical prompts.
 */
function oppositeTwins(set: EvalSet): Finding[] {
  const seen = new Map<string, EvalItem>();
  const pairs: string[] = [];
  for (const item of set.items) {
    const key = readAs(item.query);
    const twin = seen.get(key);
    if (twin === undefined) seen.set(key, item);
    else if (twin.shouldTrigger !== item.shouldTrigger) pairs.push(`${twin.id} and ${item.id}`);
  }
  if (pairs.length === 0) return [];
  return [
    {
      code: 'same-text-opposite-labels',
      level: 'warn',
      message: `${pairs.length} pair(s) of prompts differ only in case, spacing or an invisible character but carry opposite should_trigger labels: ${pairs.slice(0, 3).join('; ')}${pairs.length > 3 ? '; …' : ''}. The model reads them as one request, so one of each pair is scored against the description whatever it does`,
      fix: 'give each pair one label, or reword one prompt so the two really ask different things',
    },
  ];
}

/** `split: holdout|test|validation` or `holdout: true` (a CSV column says "true"/"yes"/"1"). */
export function isHoldout(item: Pick<EvalItem, 'extra'>): boolean {
  return heldOut(item.extra);
}

/** Marked `needs_context: true`: the prompt presupposes session history. */
export function isContextual(item: EvalItem): boolean {
  return needsContext(item.extra);
}

function meaningfulWords(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words
    .filter((w) => (w.match(/\p{L}/gu)?.length ?? 0) >= 4 && !STOP_WORDS.has(w))
    .map((w) => (w.length > 4 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w))
    .filter((w) => !STOP_WORDS.has(w));
}
