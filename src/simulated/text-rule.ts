/**
 * The simulated model's reading of a description: a documented, deterministic rule that turns how
 * well the listed description covers a query's words into the probability that the "model" loads
 * the stub. It is a toy, not a model of Claude; its only job is that the offline demo and the tests
 * see a description's wording matter (a limerick measures worse than a description of the task).
 *
 * The rule, per query (docs/cli.md, "The simulated model"):
 * 1. Words are runs of letters and digits, lowercased. Stop words and words under 3 characters are
 *    dropped; the rest are stemmed by stripping one common English ending (`ies`→`y`, `ing`, `ed`,
 *    `es`, `ly`, `s`) when at least 3 characters remain, else a final `e`, so "summarising" and
 *    "summarise" meet.
 * 2. The description's words split in two: words of a sentence that opens with "Not for", "Do not
 *    use" or "Don't use" are *excluded* words; every other word is an *included* word.
 * 3. coverage = (query words found among the included − query words found among the excluded)
 *    ÷ the query's distinct words, floored at 0 (a query with no words at all has coverage 0).
 * 4. probability = 0.05 + 0.90 × min(1, coverage ÷ 0.5): a query with no word in common loads the
 *    stub 5% of the time, one with half of its words covered 95% of the time, linearly between.
 *
 *
 * With several stubs listed (the tested skill and its siblings), the entry whose
 * description covers the query best is the one the "model" may load, with the probability of step 4
 * for that entry's coverage; a tie is broken by SHA-256 of (query, skill name), so it is fixed per
 * query and favours no name (see `bestEntry`).
 *
 * An entry the listing budget left bare (its name alone, `- name`, no text: docs/listing-budget.md)
 * is read by its name: the rule runs on the skill's name as if it were the description, and the
 * probability is multiplied by BARE_FACTOR, as a name says less than a sentence (`listedProbability`).
 * A cut entry is read as listed: the rule runs on the prefix the request holds, so it loads in
 * between. A toy number, not a measurement.
 *
 * Node built-ins only (it ships with the simulated model).
 */
import { createHash } from 'node:crypto';

/** The probability floor and ceiling of the rule, and the coverage at which it reaches the ceiling. */
export const RULE_FLOOR = 0.05;
export const RULE_CEILING = 0.95;
export const RULE_FULL_COVERAGE = 0.5;
/** What a bare entry's probability is multiplied by: its name read as a description, halved. */
export const BARE_FACTOR = 0.5;

/** Common English words that say nothing about a task. Words under 3 characters never count. */
const STOP_WORDS = new Set(
  `the and for are but not you your yours all any can has had have her his its our out was were
   what when where which while who whom why how with this that these those them then than there
   their they from into onto over under about above after again also just very more most some such
   only own same too can will would could should shall may might must does did doing done been being
   get gets got make makes made let lets use used uses using want wants need needs please thanks
   thank okay yes one two now here each every other another able like know something anything
   everything way ways thing things sure help me my mine i we us it is be do so if or as at by of on
   to up an a in no`
    .split(/\s+/)
    .filter(Boolean),
);

const ENDINGS: readonly [string, string][] = [
  ['ies', 'y'],
  ['ing', ''],
  ['ed', ''],
  ['es', ''],
  ['ly', ''],
  ['s', ''],
];

/** One word, stemmed: the first ending that leaves at least 3 characters is stripped. */
export function stem(word: string): string {
  for (const [ending, replacement] of ENDINGS) {
    if (word.endsWith(ending) && word.length - ending.length >= 3 && !word.endsWith('ss')) {
      return word.slice(0, word.length - ending.length) + replacement;
    }
  }
  // "summarise" and "summarising" must meet: without an ending, a final silent e goes.
  return word.length >= 4 && word.endsWith('e') ? word.slice(0, -1) : word;
}

/** The content words of a text, in order of appearance, with repeats (step 1 of the rule). */
export function contentWords(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((w) => w.length >= 3 && !STOP_WORDS.has(w));
}

/** The distinct stems of a text's content words. */
export function stems(text: string): Set<string> {
  return new Set(contentWords(text).map(stem));
}

const EXCLUDING_SENTENCE = /^(?:not for|do not use|don't use|never use)\b/i;

/** The description's included and excluded stems (step 2 of the rule). */
export function descriptionStems(description: string): { included: Set<string>; excluded: Set<string> } {
  const included = new Set<string>();
  const excluded = new Set<string>();
  for (const sentence of description.split(/(?<=[.!?;])\s+|\n+/)) {
    const target = EXCLUDING_SENTENCE.test(sentence.trim()) ? excluded : included;
    for (const s of stems(sentence)) target.add(s);
  }
  // A word in both is not excluded: the rule cannot tell which sentence the model would believe.
  for (const s of included) excluded.delete(s);
  return { included, excluded };
}

/** Step 3 of the rule: the share of the query's words the description covers, net of exclusions. */
export function coverage(query: string, description: string): number {
  const words = stems(query);
  if (words.size === 0) return 0;
  const { included, excluded } = descriptionStems(description);
  let net = 0;
  for (const w of words) {
    if (included.has(w)) net++;
    else if (excluded.has(w)) net--;
  }
  return Math.max(0, net / words.size);
}

/** Step 4 of the rule: coverage → the probability of loading the stub. */
export function triggerProbability(query: string, description: string): number {
  const c = coverage(query, description);
  return RULE_FLOOR + (RULE_CEILING - RULE_FLOOR) * Math.min(1, c / RULE_FULL_COVERAGE);
}

/** The order of two equally fitting entries for one query: arbitrary, but fixed and blind to the name's spelling. */
function tieKey(query: string, name: string): string {
  return createHash('sha256').update(`${query}\u0000${name}`).digest('hex');
}

/** A listed entry's text as the model reads it: its description, or its skill's name when listed bare. */
function readingOf(entry: { name: string; description: string }, skillName: (name: string) => string) {
  const bare = entry.description === '';
  return { text: bare ? skillName(entry.name) : entry.description, factor: bare ? BARE_FACTOR : 1 };
}

/**
 * The probability the model loads a listed entry for a query: the rule on its description, or, for
 * an entry listed bare, the rule on its skill's name times BARE_FACTOR.
 */
export function listedProbability(
  query: string,
  entry: { name: string; description: string },
  skillName: (name: string) => string = (name) => name,
): number {
  const { text, factor } = readingOf(entry, skillName);
  return factor * triggerProbability(query, text);
}

/**
 * The entry a query is routed to among several listed stubs, and the probability it is loaded: the
 * highest probability (`listedProbability`), then the higher coverage, then the tie key.
 */
export function bestEntry<T extends { name: string; description: string }>(
  query: string,
  entries: readonly T[],
  skillName: (name: string) => string = (name) => name,
): { entry: T; probability: number } | undefined {
  let best: { entry: T; coverage: number; probability: number } | undefined;
  for (const entry of entries) {
    const { text, factor } = readingOf(entry, skillName);
    const c = coverage(query, text);
    const p = factor * (RULE_FLOOR + (RULE_CEILING - RULE_FLOOR) * Math.min(1, c / RULE_FULL_COVERAGE));
    const better =
      best === undefined ||
      p > best.probability ||
      (p === best.probability &&
        (c > best.coverage ||
          (c === best.coverage &&
            tieKey(query, skillName(entry.name)) < tieKey(query, skillName(best.entry.name)))));
    if (better) best = { entry, coverage: c, probability: p };
  }
  return best === undefined ? undefined : { entry: best.entry, probability: best.probability };
}
