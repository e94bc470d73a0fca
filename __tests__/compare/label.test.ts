import { describe, expect, it } from 'vitest';
import { compareClass, compareRows, matchQueries, overallLabel } from '../../src/compare/label.js';
import type { QueryPair } from '../../src/compare/subsets.js';
import { type QuerySpec, queryResult } from '../fakes/measurement-builder.js';

const q = (spec: QuerySpec) => queryResult(spec);
const pair = (base: Omit<QuerySpec, 'query'>, cand: Omit<QuerySpec, 'query'>, query = 'x'): QueryPair => [
  q({ query, ...base }),
  q({ query, ...cand }),
];

describe('matchQueries', () => {
  it('pairs by query text in the baseline order and counts what only one side has', () => {
    const base = [
      q({ query: 'a', shouldTrigger: true, hits: 1, runs: 2, id: 'b1' }),
      q({ query: 'b', shouldTrigger: true, hits: 1, runs: 2 }),
      q({ query: 'gone', shouldTrigger: false, hits: 0, runs: 2 }),
    ];
    const cand = [
      q({ query: 'b', shouldTrigger: true, hits: 2, runs: 2 }),
      q({ query: 'a', shouldTrigger: true, hits: 2, runs: 2, id: 'c9' }),
      q({ query: 'new', shouldTrigger: false, hits: 0, runs: 2 }),
    ];
    const m = matchQueries(base, cand);
    expect(m.pairs.map(([b, c]) => [b.query, c.id])).toEqual([
      ['a', 'c9'],
      ['b', 'q1'],
    ]);
    expect(m).toMatchObject({ baseOnly: 1, candOnly: 1, shouldTriggerChanged: 0 });
  });

  it('leaves out a query whose expectation flipped, and counts it', () => {
    const m = matchQueries(
      [q({ query: 'a', shouldTrigger: true, hits: 1, runs: 2 })],
      [q({ query: 'a', shouldTrigger: false, hits: 1, runs: 2 })],
    );
    expect(m).toEqual({ pairs: [], baseOnly: 0, candOnly: 0, shouldTriggerChanged: 1 });
  });

  it('counts a duplicate text on either side as unmatched', () => {
    const a = q({ query: 'a', shouldTrigger: true, hits: 1, runs: 2 });
    const m = matchQueries([a, a], [a, a]);
    expect(m.pairs).toHaveLength(1);
    expect(m).toMatchObject({ baseOnly: 1, candOnly: 1 });
  });
});

describe('compareRows', () => {
  it('labels a large drop on a positive a regression and a large rise an improvement', () => {
    const rows = compareRows(
      [
        pair({ shouldTrigger: true, hits: 10, runs: 10 }, { shouldTrigger: true, hits: 0, runs: 10 }, 'down'),
        pair(
          { shouldTrigger: false, hits: 10, runs: 10 },
          { shouldTrigger: false, hits: 0, runs: 10 },
          'neg',
        ),
      ],
      0.05,
    );
    expect(rows.map((r) => [r.query, r.label, r.deltaHits, r.noiseBand])).toEqual([
      ['down', 'regression', -10, null],
      ['neg', 'improvement', -10, null],
    ]);
    expect(rows[0]?.pBadAdjusted).toBeLessThan(0.05);
  });

  it('keeps a change within the two-run noise band as noise', () => {
    const [row] = compareRows(
      [pair({ shouldTrigger: true, hits: 2, runs: 2 }, { shouldTrigger: true, hits: 1, runs: 2 })],
      0.05,
    );
    expect(row).toMatchObject({ noiseBand: 1, deltaHits: -1, deltaRate: -0.5, label: 'noise' });
  });

  it('gives a query without runs on one side no verdict, and leaves it out of the Holm correction', () => {
    const rows = compareRows(
      [
        pair(
          { shouldTrigger: true, hits: 0, runs: 0, lost: 3 },
          { shouldTrigger: true, hits: 3, runs: 3 },
          'lost',
        ),
        pair({ shouldTrigger: true, hits: 10, runs: 10 }, { shouldTrigger: true, hits: 0, runs: 10 }, 'down'),
      ],
      0.05,
    );
    expect(rows[0]).toMatchObject({ label: 'no-verdict', deltaRate: null, pBadAdjusted: 1, partial: true });
    // One test alone: Holm leaves its p-value as it is.
    expect(rows[1]?.pBadAdjusted).toBe(rows[1]?.pBad);
  });
});

describe('compareClass', () => {
  const pairs = [
    pair({ shouldTrigger: true, hits: 10, runs: 10 }, { shouldTrigger: true, hits: 2, runs: 10 }, 'p1'),
    pair({ shouldTrigger: true, hits: 10, runs: 10 }, { shouldTrigger: true, hits: 3, runs: 10 }, 'p2'),
    pair({ shouldTrigger: false, hits: 0, runs: 10 }, { shouldTrigger: false, hits: 0, runs: 10 }, 'n1'),
  ];

  it('pools the class, with its interval, and labels the drop', () => {
    const c = compareClass('positives', pairs, 0.05, 0.95, false);
    expect(c).toMatchObject({
      queries: 2,
      base: { hits: 20, runs: 20, rate: 1 },
      cand: { hits: 5, runs: 20, rate: 0.25 },
      deltaHits: -15,
      noiseBand: null,
      label: 'regression',
    });
    expect(c.interval?.upper).toBeLessThan(0);
    expect(compareClass('negatives', pairs, 0.05, 0.95, false)).toMatchObject({ queries: 1, label: 'noise' });
  });

  it('says no verdict when told so, whatever the counts', () => {
    expect(compareClass('positives', pairs, 0.05, 0.95, true).label).toBe('no-verdict');
  });
});

describe('overallLabel', () => {
  it('ranks no verdict, then regression, then improvement, then noise', () => {
    expect(overallLabel(true, ['regression'])).toBe('no-verdict');
    expect(overallLabel(false, ['improvement', 'regression', 'noise'])).toBe('regression');
    expect(overallLabel(false, ['noise', 'improvement'])).toBe('improvement');
    expect(overallLabel(false, [])).toBe('noise');
  });
});
