import { percent as pct } from '../format.js';
import type { Measurement, SubsetTotals } from '../schemas/report.js';
import { type Interval, wilsonInterval } from '../verdict/statistics.js';

/**
 * How the annotated subsets read (pure): the "without the N that presuppose a session" clause of
 * the headline, and the train/holdout lines and table. Shared by `run`, the Markdown report and
 * the Action, so all three say the same thing in the same words.
 */

/** The two splits, in the order they are shown. */
export const SPLITS = ['train', 'holdout'] as const;
export type Split = (typeof SPLITS)[number];

/** The interval level the split lines use. */
export const SPLIT_CONFIDENCE = 0.95;

/** Said under every split table: what the intervals are, and why they flatter. */
export const INTERVAL_NOTE =
  '95% intervals are Wilson score intervals over the pooled runs of a class; runs of one query are not independent, so the true uncertainty is wider.';

type Class = 'positives' | 'negatives';

function classCounts(
  t: SubsetTotals,
  cls: Class,
): { hits: number; runs: number; queries: number; passed: number } {
  return cls === 'positives'
    ? {
        hits: t.positives.triggered,
        runs: t.positives.runs,
        queries: t.positives.queries,
        passed: t.positives.passed,
      }
    : {
        hits: t.negatives.fired,
        runs: t.negatives.runs,
        queries: t.negatives.queries,
        passed: t.negatives.passed,
      };
}

/** How many queries of a class are marked needs_context (0 when none is, or the report predates subsets). */
export function contextualCount(m: Measurement, cls: Class): number {
  const without = m.subsets?.withoutContext;
  if (without === undefined) return 0;
  const all = m.queries.filter((q) => q.shouldTrigger === (cls === 'positives')).length;
  return all - classCounts(without, cls).queries;
}

/** `without the 3 that presuppose a session`. */
export function withoutText(marked: number): string {
  return `without the ${marked} that presuppose${marked === 1 ? 's' : ''} a session`;
}

/** A class's total without its needs_context queries; undefined when none of the class is marked. */
export function withoutContext(
  m: Measurement,
  cls: Class,
): { hits: number; runs: number; marked: number } | undefined {
  const marked = contextualCount(m, cls);
  const without = m.subsets?.withoutContext;
  if (marked === 0 || without === undefined) return undefined;
  const c = classCounts(without, cls);
  return { hits: c.hits, runs: c.runs, marked };
}

/**
 * ` · 11/14 without the 3 that presuppose a session` after a class's total, or nothing when no
 * query of that class is marked needs_context.
 */
export function withoutContextClause(m: Measurement, cls: Class): string {
  const w = withoutContext(m, cls);
  return w === undefined ? '' : ` · ${w.hits}/${w.runs} ${withoutText(w.marked)}`;
}

/** `51–90%`, or `–` without a measured run. */
export function intervalText(interval: Interval | null): string {
  if (interval === null) return '–';
  return `${pct(interval.lower).slice(0, -1)}–${pct(interval.upper)}`;
}

/** A class's rate within a split, its interval, and its pass count: `9/12 (75%, 95% interval 51–90%), 5/6 pass`. */
export function splitClassText(t: SubsetTotals, cls: Class): string {
  const c = classCounts(t, cls);
  if (c.queries === 0) return 'none';
  const rate =
    c.runs === 0
      ? 'no measured run'
      : `${pct(c.hits / c.runs)}, 95% interval ${intervalText(splitInterval(t, cls))}`;
  return `${c.hits}/${c.runs} (${rate}), ${c.passed}/${c.queries} pass`;
}

/** The Wilson interval of a class's rate within a split; null without a measured run. */
export function splitInterval(t: SubsetTotals, cls: Class): Interval | null {
  const c = classCounts(t, cls);
  return wilsonInterval({ hits: c.hits, runs: c.runs }, SPLIT_CONFIDENCE);
}

/** The splits a measurement holds, train first; empty when nothing is held out. */
export function splitsOf(m: Measurement): { split: Split; totals: SubsetTotals }[] {
  return SPLITS.flatMap((split) => {
    const totals = m.subsets?.[split];
    return totals === undefined ? [] : [{ split, totals }];
  });
}

/**
 * One line per split for a terminal:
 * `holdout (8 queries): positives triggered 5/8 (63%, 95% interval 31–86%), 3/4 pass · negatives fired …`.
 */
export function splitLines(m: Measurement): string[] {
  return splitsOf(m).map(
    ({ split, totals }) =>
      `${split} (${totals.queries} ${totals.queries === 1 ? 'query' : 'queries'}): ` +
      `positives triggered ${splitClassText(totals, 'positives')} · negatives fired ${splitClassText(totals, 'negatives')}`,
  );
}

/** The cells of one split's table row: rates, intervals and pass counts of both classes. */
export function splitCells(t: SubsetTotals): string[] {
  const cells = (cls: Class) => {
    const c = classCounts(t, cls);
    if (c.queries === 0) return ['none', '–', '–'];
    const rate = c.runs === 0 ? `${c.hits}/${c.runs}` : `${c.hits}/${c.runs} (${pct(c.hits / c.runs)})`;
    return [rate, intervalText(splitInterval(t, cls)), `${c.passed}/${c.queries}`];
  };
  return [String(t.queries), ...cells('positives'), ...cells('negatives')];
}

/** The header matching `splitCells`, after the caller's own leading columns. */
export const SPLIT_HEADER = [
  'Queries',
  'Positives triggered',
  '95% interval',
  'Positives pass',
  'Negatives fired',
  '95% interval',
  'Negatives pass',
] as const;
