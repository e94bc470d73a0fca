/**
 * The short texts of a measurement that the report's Markdown, the CLI's stdout and the Action's
 * tables share (pure): the outcome symbols and the one-line headline of a report.
 */

import { withoutContextClause } from '../compare/subsets-text.js';
import type { Measurement } from '../shapes/report.js';

/** One symbol per run, in the order the runs ran. */
export const OUTCOME_LEGEND = '● triggered · ○ not triggered · ◌ timeout · ✕ error';

export function outcomeSymbol(code: string): string {
  switch (code) {
    case 'triggered':
      return '●';
    case 'not-triggered':
      return '○';
    case 'timeout':
      return '◌';
    default:
      // `error:<cause>`; the schema admits no other code.
      return '✕';
  }
}

export function outcomeSymbols(codes: readonly string[]): string {
  return codes.map(outcomeSymbol).join('');
}

export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/**
 * `positives triggered a/b · negatives fired c/d · N timeouts, M errors counted apart`,
 * with `timeout`/`error` in the singular for exactly one. b and d count measured runs only: a lost
 * run is neither a hit nor a miss. Where queries are marked needs_context, a class's total is
 * followed by the same total without them (`14/20 · 11/14 without the 3 that presuppose a session`).
 */
export function headline(m: Measurement): string {
  const t = m.totals;
  return (
    `positives triggered ${t.positives.triggered}/${t.positives.runs}${withoutContextClause(m, 'positives')} · ` +
    `negatives fired ${t.negatives.fired}/${t.negatives.runs}${withoutContextClause(m, 'negatives')} · ` +
    `${counted(t.timeouts, 'timeout')}, ${counted(t.errors, 'error')} counted apart`
  );
}

/** `12/20 queries pass`: how many queries passed their threshold, of all the queries measured for. */
export function queriesPassText(m: Measurement): string {
  return `${m.totals.passed}/${m.totals.queries} ${m.totals.queries === 1 ? 'query passes' : 'queries pass'}`;
}
