import { describe, expect, it } from 'vitest';
import {
  contextualCount,
  INTERVAL_NOTE,
  intervalText,
  SPLIT_HEADER,
  SPLITS,
  splitCells,
  splitClassText,
  splitInterval,
  splitLines,
  splitsOf,
  withoutContext,
  withoutContextClause,
  withoutText,
} from '../../src/compare/subsets-text.js';
import type { Measurement, SubsetTotals } from '../../src/schemas/report.js';
import { buildMeasurement, type QuerySpec } from '../fakes/measurement-builder.js';

/** Subset totals from [queries, passed, hits, runs] of each class. */
function totals(pos: [number, number, number, number], neg: [number, number, number, number]): SubsetTotals {
  return {
    queries: pos[0] + neg[0],
    positives: { queries: pos[0], passed: pos[1], triggered: pos[2], runs: pos[3] },
    negatives: { queries: neg[0], passed: neg[1], fired: neg[2], runs: neg[3] },
    passed: pos[1] + neg[1],
    failed: pos[0] - pos[1] + (neg[0] - neg[1]),
  };
}

/** 10 positives and 6 negatives, at 2 runs each; the subsets are given as the report holds them. */
function measurement(subsets?: Measurement['subsets']): Measurement {
  const specs: QuerySpec[] = [
    ...Array.from({ length: 10 }, (_, i) => ({ query: `p${i}`, shouldTrigger: true, hits: 1, runs: 2 })),
    ...Array.from({ length: 6 }, (_, i) => ({ query: `n${i}`, shouldTrigger: false, hits: 0, runs: 2 })),
  ];
  const m = buildMeasurement(specs);
  return subsets === undefined ? m : { ...m, subsets };
}

describe('the needs_context clause', () => {
  it('withoutText agrees in number', () => {
    expect(withoutText(1)).toBe('without the 1 that presupposes a session');
    expect(withoutText(3)).toBe('without the 3 that presuppose a session');
  });

  it('a report without subsets, or without the needs_context subset, marks none', () => {
    expect(contextualCount(measurement(), 'positives')).toBe(0);
    const splitOnly = measurement({ train: totals([8, 4, 8, 16], [4, 4, 0, 8]) });
    expect(contextualCount(splitOnly, 'negatives')).toBe(0);
    expect(withoutContext(splitOnly, 'positives')).toBeUndefined();
    expect(withoutContextClause(splitOnly, 'positives')).toBe('');
  });

  it('counts the marked queries of each class as the class minus the subset', () => {
    const m = measurement({ withoutContext: totals([7, 5, 11, 14], [6, 6, 0, 12]) });
    expect(contextualCount(m, 'positives')).toBe(3);
    expect(contextualCount(m, 'negatives')).toBe(0);
    expect(withoutContext(m, 'positives')).toEqual({ hits: 11, runs: 14, marked: 3 });
    expect(withoutContext(m, 'negatives')).toBeUndefined();
  });

  it('the clause follows a class total, and is empty for a class with none marked', () => {
    const m = measurement({ withoutContext: totals([9, 5, 11, 18], [5, 5, 1, 10]) });
    expect(withoutContextClause(m, 'positives')).toBe(' · 11/18 without the 1 that presupposes a session');
    expect(withoutContextClause(m, 'negatives')).toBe(' · 1/10 without the 1 that presupposes a session');
    const none = measurement({ withoutContext: totals([10, 5, 10, 20], [6, 6, 0, 12]) });
    expect(withoutContextClause(none, 'positives')).toBe('');
  });
});

describe('intervalText', () => {
  it('writes the bounds as whole percents with one sign, or – without a run', () => {
    expect(intervalText(null)).toBe('–');
    expect(intervalText({ lower: 0.514, upper: 0.904, confidence: 0.95 })).toBe('51–90%');
    expect(intervalText({ lower: 0, upper: 1, confidence: 0.95 })).toBe('0–100%');
  });

  it('rounds halves up, as every percent is written', () => {
    expect(intervalText({ lower: 0.505, upper: 0.995, confidence: 0.95 })).toBe('51–100%');
    expect(intervalText({ lower: 0.145, upper: 0.155, confidence: 0.95 })).toBe('15–16%');
  });
});

describe('a split of a class', () => {
  const holdout = totals([4, 3, 5, 8], [4, 2, 2, 8]);

  it('the Wilson interval at 95%, null without a run', () => {
    const interval = splitInterval(holdout, 'positives');
    expect(interval?.confidence).toBe(0.95);
    expect(intervalText(interval)).toBe('31–86%');
    expect(splitInterval(totals([2, 0, 0, 0], [0, 0, 0, 0]), 'positives')).toBeNull();
  });

  it('rate, interval and passes; none for a class without queries; no measured run said so', () => {
    expect(splitClassText(holdout, 'positives')).toBe('5/8 (63%, 95% interval 31–86%), 3/4 pass');
    expect(splitClassText(totals([4, 3, 9, 12], [0, 0, 0, 0]), 'positives')).toBe(
      '9/12 (75%, 95% interval 47–91%), 3/4 pass',
    );
    expect(splitClassText(totals([4, 3, 9, 12], [0, 0, 0, 0]), 'negatives')).toBe('none');
    expect(splitClassText(totals([2, 0, 0, 0], [1, 0, 0, 0]), 'positives')).toBe(
      '0/0 (no measured run), 0/2 pass',
    );
  });

  it('the table cells, one per header column after the caller’s own', () => {
    expect(splitCells(holdout)).toEqual(['8', '5/8 (63%)', '31–86%', '3/4', '2/8 (25%)', '7–59%', '2/4']);
    expect(splitCells(holdout)).toHaveLength(SPLIT_HEADER.length);
    expect(splitCells(totals([3, 3, 6, 6], [0, 0, 0, 0]))).toEqual([
      '3',
      '6/6 (100%)',
      '61–100%',
      '3/3',
      'none',
      '–',
      '–',
    ]);
    expect(splitCells(totals([2, 0, 0, 0], [1, 1, 0, 2]))).toEqual([
      '3',
      '0/0',
      '–',
      '0/2',
      '0/2 (0%)',
      '0–66%',
      '1/1',
    ]);
  });
});

describe('the splits of a measurement', () => {
  it('train first, then holdout; only those present; none when nothing is held out', () => {
    const train = totals([6, 3, 6, 12], [4, 4, 0, 8]);
    const holdout = totals([4, 2, 4, 8], [2, 2, 0, 4]);
    expect(SPLITS).toEqual(['train', 'holdout']);
    expect(splitsOf(measurement({ holdout, train })).map((s) => s.split)).toEqual(['train', 'holdout']);
    expect(splitsOf(measurement({ holdout }))).toEqual([{ split: 'holdout', totals: holdout }]);
    expect(splitsOf(measurement({ withoutContext: train }))).toEqual([]);
    expect(splitsOf(measurement())).toEqual([]);
  });

  it('one terminal line per split, with the query count in the singular for one', () => {
    const m = measurement({
      train: totals([6, 3, 9, 12], [4, 4, 0, 8]),
      holdout: totals([1, 1, 2, 2], [0, 0, 0, 0]),
    });
    expect(splitLines(m)).toEqual([
      'train (10 queries): positives triggered 9/12 (75%, 95% interval 47–91%), 3/6 pass · negatives fired 0/8 (0%, 95% interval 0–32%), 4/4 pass',
      'holdout (1 query): positives triggered 2/2 (100%, 95% interval 34–100%), 1/1 pass · negatives fired none',
    ]);
  });
});

it('the note under a split table says the intervals are Wilson and too narrow', () => {
  expect(INTERVAL_NOTE).toContain('Wilson score intervals');
  expect(INTERVAL_NOTE).toContain('the true uncertainty is wider');
});
