import { describe, expect, it } from 'vitest';
import { type Comparison, compareMeasurements } from '../../src/compare/compare.js';
import {
  decideCandidate,
  figuresOf,
  holdsOnHoldout,
  proposalAlpha,
  SESSION_ALPHA,
  splitItems,
  stopReason,
} from '../../src/improve/decide.js';
import type { EvalItem } from '../../src/inputs/types.js';
import { buildMeasurement, type QuerySpec, queryResult, SHA_B } from '../fakes/measurement-builder.js';

// improve's rules one by one; calibration.test.ts simulates whole sessions to check the level.

type Label = Comparison['label'];
interface ClassSpec {
  label: Label;
  base: [number, number];
  cand: [number, number];
  pGood?: number;
  pBad?: number;
}

/** A comparison with just the fields the rules read, for exact wording. */
function comparison(
  label: Label,
  positives: ClassSpec,
  negatives: ClassSpec,
  alphaPerClass = 0.0125,
): Comparison {
  const side = ([hits, runs]: [number, number]) => ({ hits, runs, rate: runs === 0 ? null : hits / runs });
  const cls = (name: 'positives' | 'negatives', s: ClassSpec) => ({
    class: name,
    label: s.label,
    base: side(s.base),
    cand: side(s.cand),
    pGood: s.pGood ?? 1,
    pBad: s.pBad ?? 1,
  });
  return {
    label,
    method: { alphaPerClass },
    positives: cls('positives', positives),
    negatives: cls('negatives', negatives),
  } as unknown as Comparison;
}

const item = (id: string, extra: Record<string, unknown> = {}): EvalItem => ({
  id,
  query: `query ${id}`,
  shouldTrigger: true,
  extra,
});

describe('the session level', () => {
  it('5% over the session, split evenly over the iterations; never more than 5% per candidate', () => {
    expect(SESSION_ALPHA).toBe(0.05);
    expect(proposalAlpha(1)).toBe(0.05);
    expect(proposalAlpha(4)).toBe(0.0125);
    expect(proposalAlpha(0)).toBe(0.05);
    expect(proposalAlpha(-3)).toBe(0.05);
  });
});

describe('splitItems', () => {
  it('holds out split: holdout, test, validation, val and holdout: true, keeping the order', () => {
    const items = [
      item('a'),
      item('b', { split: 'holdout' }),
      item('c', { split: 'train' }),
      item('d', { split: 'Validation' }),
      item('e', { holdout: true }),
      item('f', { holdout: 'yes' }),
      item('g', { metadata: { split: 'test' } }),
      item('h', { split: 'val' }),
    ];
    const { train, holdout } = splitItems(items);
    expect(train.map((i) => i.id)).toEqual(['a', 'c']);
    expect(holdout.map((i) => i.id)).toEqual(['b', 'd', 'e', 'f', 'g', 'h']);
  });

  it('no annotations: everything trains', () => {
    expect(splitItems([item('a'), item('b')])).toEqual({ train: [item('a'), item('b')], holdout: [] });
  });
});

describe('figuresOf', () => {
  const queries = [
    queryResult({ query: 'p1', shouldTrigger: true, hits: 3, runs: 4, lost: 1, id: 'p1' }),
    queryResult({ query: 'p2', shouldTrigger: true, hits: 1, runs: 2, id: 'p2' }),
    queryResult({ query: 'n1', shouldTrigger: false, hits: 1, runs: 4, id: 'n1' }),
  ];

  it('adds hits and measured runs per class; lost runs are not runs', () => {
    expect(figuresOf(queries)).toEqual({ positives: { hits: 4, runs: 6 }, negatives: { hits: 1, runs: 4 } });
  });

  it('only over the ids given, when given', () => {
    expect(figuresOf(queries, new Set(['p2', 'n1']))).toEqual({
      positives: { hits: 1, runs: 2 },
      negatives: { hits: 1, runs: 4 },
    });
    expect(figuresOf(queries, new Set())).toEqual({
      positives: { hits: 0, runs: 0 },
      negatives: { hits: 0, runs: 0 },
    });
  });
});

describe('decideCandidate', () => {
  it('follows compare’s label on real measurements: only an improvement is accepted', () => {
    const set = (pos: number, neg: number): QuerySpec[] => [
      ...Array.from({ length: 8 }, (_, i) => ({ query: `p${i}`, shouldTrigger: true, hits: pos, runs: 10 })),
      ...Array.from({ length: 8 }, (_, i) => ({ query: `n${i}`, shouldTrigger: false, hits: neg, runs: 10 })),
    ];
    const judge = (base: QuerySpec[], cand: QuerySpec[]) =>
      decideCandidate(
        compareMeasurements(buildMeasurement(base), buildMeasurement(cand, { sha256: SHA_B }), {
          alpha: 0.0125,
        }),
      );
    expect(judge(set(3, 1), set(9, 1))).toMatchObject({ decision: 'accepted', label: 'improvement' });
    expect(judge(set(9, 1), set(3, 1))).toMatchObject({ decision: 'rejected', label: 'regression' });
    expect(judge(set(5, 1), set(5, 1))).toMatchObject({ decision: 'rejected', label: 'noise' });
  });

  it('an improvement names each improved class with its counts and p against the level', () => {
    const c = comparison(
      'improvement',
      { label: 'improvement', base: [30, 80], cand: [70, 80], pGood: 0.00003 },
      { label: 'improvement', base: [20, 80], cand: [5, 80], pGood: 0.0042 },
    );
    expect(decideCandidate(c)).toEqual({
      decision: 'accepted',
      label: 'improvement',
      pValue: 0.00003,
      reason:
        'improvement on train: positives triggered 30/80 → 70/80 (p < 0.0001 < 0.0125), negatives fired 20/80 → 5/80 (p = 0.0042 < 0.0125), no regression',
    });
  });

  it('an improvement in one class names only that class', () => {
    const c = comparison(
      'improvement',
      { label: 'noise', base: [30, 80], cand: [32, 80], pGood: 0.4 },
      { label: 'improvement', base: [20, 80], cand: [5, 80], pGood: 0.0042 },
    );
    expect(decideCandidate(c).reason).toBe(
      'improvement on train: negatives fired 20/80 → 5/80 (p = 0.0042 < 0.0125), no regression',
    );
    expect(decideCandidate(c).pValue).toBe(0.0042);
  });

  it('a p-value below 0.0001 reads p < 0.0001 in every reason, never p = < 0.0001', () => {
    const regression = comparison(
      'regression',
      { label: 'noise', base: [30, 80], cand: [30, 80] },
      { label: 'regression', base: [0, 80], cand: [40, 80], pBad: 1e-9 },
    );
    expect(decideCandidate(regression).reason).toBe(
      'regression on train: negatives fired 0/80 → 40/80 (p < 0.0001)',
    );
    const noise = comparison(
      'noise',
      { label: 'noise', base: [30, 80], cand: [36, 80], pGood: 0.00002 },
      { label: 'noise', base: [10, 80], cand: [9, 80], pGood: 0.41 },
    );
    expect(decideCandidate(noise).reason).toContain('(smallest p < 0.0001, needs < 0.0125)');
  });

  it('a regression names the class that regressed with its p in the bad direction', () => {
    const c = comparison(
      'regression',
      { label: 'improvement', base: [30, 80], cand: [70, 80], pGood: 0.001 },
      { label: 'regression', base: [5, 80], cand: [20, 80], pBad: 0.00123456 },
    );
    expect(decideCandidate(c)).toEqual({
      decision: 'rejected',
      label: 'regression',
      pValue: 0.001,
      reason: 'regression on train: negatives fired 5/80 → 20/80 (p = 0.0012)',
    });
  });

  it('noise gives the smallest good p against the level, and both classes', () => {
    const c = comparison(
      'noise',
      { label: 'noise', base: [30, 80], cand: [36, 80], pGood: 0.09 },
      { label: 'noise', base: [10, 80], cand: [9, 80], pGood: 0.41 },
    );
    expect(decideCandidate(c).reason).toBe(
      'no significant improvement on train (smallest p = 0.0900, needs < 0.0125): positives 30/80 → 36/80, negatives 10/80 → 9/80',
    );
  });

  it('no verdict is rejected and says nothing can be concluded', () => {
    const c = comparison(
      'no-verdict',
      { label: 'no-verdict', base: [0, 0], cand: [0, 0] },
      {
        label: 'no-verdict',
        base: [0, 0],
        cand: [0, 0],
      },
    );
    expect(decideCandidate(c)).toEqual({
      decision: 'rejected',
      label: 'no-verdict',
      pValue: 1,
      reason: 'the paired measurement has no verdict (too many runs lost), so nothing can be concluded',
    });
  });
});

describe('stopReason', () => {
  it('goes on until the iterations are used up', () => {
    expect(stopReason([], 3)).toBeUndefined();
    expect(stopReason(['accepted', 'rejected'], 3)).toBeUndefined();
    expect(stopReason(['accepted', 'rejected', 'accepted'], 3)).toBe('reached --iterations 3');
  });

  it('stops after two rejections in a row, not two apart', () => {
    expect(stopReason(['rejected', 'rejected'], 5)).toBe('two proposals in a row were rejected');
    expect(stopReason(['rejected', 'accepted', 'rejected'], 5)).toBeUndefined();
    expect(stopReason(['rejected'], 5)).toBeUndefined();
  });

  it('the iteration limit is said first when both apply', () => {
    expect(stopReason(['rejected', 'rejected'], 2)).toBe('reached --iterations 2');
  });
});

describe('holdsOnHoldout', () => {
  const noise = (pos: [[number, number], [number, number]], neg: [[number, number], [number, number]]) =>
    comparison(
      'noise',
      { label: 'noise', base: pos[0], cand: pos[1] },
      { label: 'noise', base: neg[0], cand: neg[1] },
    );

  it('no verdict does not hold', () => {
    const c = comparison(
      'no-verdict',
      { label: 'noise', base: [1, 2], cand: [1, 2] },
      {
        label: 'noise',
        base: [0, 2],
        cand: [0, 2],
      },
    );
    expect(holdsOnHoldout(c)).toEqual({ holds: false, reason: 'the holdout measurement has no verdict' });
  });

  it('a regression does not hold, naming the classes that regressed', () => {
    const both = comparison(
      'regression',
      { label: 'regression', base: [8, 8], cand: [1, 8] },
      {
        label: 'regression',
        base: [0, 8],
        cand: [7, 8],
      },
    );
    expect(holdsOnHoldout(both)).toEqual({
      holds: false,
      reason: 'it regressed on the holdout positives and negatives',
    });
  });

  it('holds when the pooled positives − negatives rate is at least the original’s', () => {
    expect(
      holdsOnHoldout(
        noise(
          [
            [6, 8],
            [7, 8],
          ],
          [
            [2, 8],
            [2, 8],
          ],
        ),
      ),
    ).toEqual({
      holds: true,
      reason:
        "on the holdout its positives − negatives rate is 0.63 against the original's 0.50, with no regression",
    });
    expect(
      holdsOnHoldout(
        noise(
          [
            [6, 8],
            [6, 8],
          ],
          [
            [2, 8],
            [2, 8],
          ],
        ),
      ).holds,
    ).toBe(true);
  });

  it('does not hold when the pooled rate fell, even without a significant regression', () => {
    expect(
      holdsOnHoldout(
        noise(
          [
            [6, 8],
            [5, 8],
          ],
          [
            [2, 8],
            [3, 8],
          ],
        ),
      ),
    ).toEqual({
      holds: false,
      reason: "on the holdout its positives − negatives rate is 0.25, below the original's 0.50",
    });
  });

  it('a class without measured runs counts as a rate of 0', () => {
    expect(
      holdsOnHoldout(
        noise(
          [
            [4, 8],
            [4, 8],
          ],
          [
            [0, 0],
            [0, 0],
          ],
        ),
      ),
    ).toMatchObject({ holds: true });
    expect(
      holdsOnHoldout(
        noise(
          [
            [4, 8],
            [0, 0],
          ],
          [
            [0, 8],
            [0, 8],
          ],
        ),
      ),
    ).toEqual({
      holds: false,
      reason: "on the holdout its positives − negatives rate is 0.00, below the original's 0.50",
    });
  });

  it('equal pooled rates hold whatever the float rounding: 7/10 − 1/10 against 9/10 − 3/10 (both 0.60) is not "below"', () => {
    // In floating point 0.9 − 0.3 is 0.6000000000000001 and 0.7 − 0.1 is 0.6.
    expect(
      holdsOnHoldout(
        noise(
          [
            [9, 10],
            [7, 10],
          ],
          [
            [3, 10],
            [1, 10],
          ],
        ),
      ),
    ).toEqual({
      holds: true,
      reason:
        "on the holdout its positives − negatives rate is 0.60 against the original's 0.60, with no regression",
    });
    // Equal over different run counts too: 6/8 − 2/8 against 5/10 − 0/10.
    expect(
      holdsOnHoldout(
        noise(
          [
            [5, 10],
            [6, 8],
          ],
          [
            [0, 10],
            [2, 8],
          ],
        ),
      ).holds,
    ).toBe(true);
  });

  it('a pooled rate below the original by less than any rounding shows still does not hold', () => {
    // 1000/1000 − 0 against 999/1000 − 0: both print near 1.00, the winner is lower.
    expect(
      holdsOnHoldout(
        noise(
          [
            [1000, 1000],
            [999, 1000],
          ],
          [
            [0, 1000],
            [0, 1000],
          ],
        ),
      ),
    ).toEqual({
      holds: false,
      reason: "on the holdout its positives − negatives rate is 1.00, below the original's 1.00",
    });
  });
});
