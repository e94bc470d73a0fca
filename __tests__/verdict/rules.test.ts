import { describe, expect, it } from 'vitest';
import type { EvalItem } from '../../src/inputs/types.js';
import { NO_USAGE, type Outcome } from '../../src/outcome.js';
import {
  DEFAULT_RULES,
  lossBudget,
  noVerdictReasons,
  queryPasses,
  type RunRecord,
  shouldStop,
  summarizeMeasurement,
} from '../../src/verdict/rules.js';

const rec = (outcome: Outcome): RunRecord => ({ outcome, durationMs: 1000, usage: NO_USAGE, model: 'm' });
const T = rec({ kind: 'triggered' });
const N = rec({ kind: 'not-triggered' });
const TO = rec({ kind: 'timeout' });
const E = rec({ kind: 'error', cause: 'rate-limit' });
const item = (id: string, shouldTrigger: boolean): EvalItem => ({
  id,
  query: `query ${id}`,
  shouldTrigger,
  extra: {},
});
const description = { bytes: 10, sha256: 'a'.repeat(64), overridden: false };
const state = { aborted: false, interrupted: false, description };

describe('pass/fail per query', () => {
  it('a positive passes strictly above the threshold, a negative strictly below', () => {
    expect(queryPasses(true, 1, 0.5)).toBe(true);
    expect(queryPasses(true, 0.5, 0.5)).toBe(false);
    expect(queryPasses(false, 0.5, 0.5)).toBe(false);
    expect(queryPasses(false, 0, 0.5)).toBe(true);
    expect(queryPasses(true, null, 0.5)).toBeNull();
  });
});

describe('the no-verdict rule', () => {
  it('allows exactly 10% of planned runs to be lost', () => {
    expect(lossBudget(20, 0.1)).toBe(2);
    expect(lossBudget(40, 0.1)).toBe(4);
    expect(lossBudget(9, 0.1)).toBe(0);
    expect(lossBudget(30, 0.1)).toBe(3);
    expect(noVerdictReasons({ planned: 20, lost: 2, lostQueries: [], share: 0.1 })).toEqual([]);
    expect(noVerdictReasons({ planned: 20, lost: 3, lostQueries: [], share: 0.1 })[0]).toMatch(
      /3 of 20 planned runs/,
    );
  });

  it('a query that lost every run is no verdict even under the 10% share', () => {
    const items = Array.from({ length: 20 }, (_, i) => item(`q${i + 1}`, i < 10));
    const records = items.map(() => [T, T]);
    records[3] = [TO, E];
    const m = summarizeMeasurement(items, records, DEFAULT_RULES, state);
    expect(m.totals.timeouts + m.totals.errors).toBe(2); // 5% of 40
    expect(m.verdict).toBe('no-verdict');
    expect(m.lostQueries).toEqual(['q4']);
    expect(m.partialQueries).toEqual([]);
    expect(m.noVerdictReasons.join(' ')).toMatch(/1 query lost every run/);
  });

  it('a query that lost some runs keeps the verdict and is flagged partial; totals count measured runs only', () => {
    const items = [
      item('p1', true),
      item('p2', true),
      item('n1', false),
      item('n2', false),
      item('n3', false),
    ];
    const records = [
      [T, TO],
      [T, T],
      [N, N],
      [N, rec({ kind: 'triggered' })],
      [N, N],
    ];
    const m = summarizeMeasurement(items, records, DEFAULT_RULES, state);
    // 1 lost of 10 planned is within 10%.
    expect(m.verdict).toBe('ok');
    expect(m.partialQueries).toEqual(['p1']);
    expect(m.totals.positives).toEqual({ triggered: 3, runs: 3 });
    expect(m.totals.negatives).toEqual({ fired: 1, runs: 6 });
    expect(m.totals.timeouts).toBe(1);
    expect(m.totals.errors).toBe(0);
    expect(m.queries[0]).toMatchObject({
      hits: 1,
      runs: 1,
      rate: 1,
      pass: true,
      partial: true,
      outcomes: ['triggered', 'timeout'],
    });
    expect(m.queries[3]).toMatchObject({ hits: 1, runs: 2, rate: 0.5, pass: false });
  });

  it('errors are never counted as not-triggered', () => {
    const items = [item('p1', true), item('n1', false)];
    const m = summarizeMeasurement(
      items,
      [
        [E, T],
        [E, N],
      ],
      { ...DEFAULT_RULES, noVerdictShare: 0.5 },
      state,
    );
    expect(m.totals.positives).toEqual({ triggered: 1, runs: 1 });
    expect(m.totals.negatives).toEqual({ fired: 0, runs: 1 });
    expect(m.totals.errorCauses).toEqual({ 'rate-limit': 2 });
  });

  it('an interrupted or aborted run is no verdict and says why first', () => {
    const items = [item('p1', true), item('n1', false)];
    const m = summarizeMeasurement(items, [[T], []], DEFAULT_RULES, {
      ...state,
      aborted: true,
      interrupted: true,
    });
    expect(m.verdict).toBe('no-verdict');
    expect(m.noVerdictReasons[0]).toMatch(/interrupted/);
    expect(m.partialQueries).toEqual(['p1', 'n1']);
    expect(m.lostQueries).toEqual([]); // n1 never ran: unmeasured, not lost
  });

  it('stops as soon as the share can no longer be met', () => {
    expect(shouldStop({ planned: 40, lost: 4, anyQueryLostAll: false, share: 0.1 })).toBe(false);
    expect(shouldStop({ planned: 40, lost: 5, anyQueryLostAll: false, share: 0.1 })).toBe(true);
    expect(shouldStop({ planned: 40, lost: 1, anyQueryLostAll: true, share: 0.1 })).toBe(true);
  });
});

describe('--runs auto in the summary', () => {
  const auto = { ...DEFAULT_RULES, runsPerQuery: 6, autoRuns: true };
  it('a query settled early is planned at the runs it took, not partial', () => {
    const m = summarizeMeasurement(
      [item('p1', true), item('n1', false)],
      [
        [T, T, T],
        [N, N, N, N],
      ],
      auto,
      state,
    );
    expect(m.queries.map((q) => [q.planned, q.partial])).toEqual([
      [3, false],
      [4, false],
    ]);
    expect(m.totals.planned).toBe(7);
    expect(m.verdict).toBe('ok');
  });

  it('an unsettled query stopped early stays partial against the maximum', () => {
    const m = summarizeMeasurement(
      [item('p1', true), item('n1', false)],
      [
        [T, N],
        [N, N, N, N],
      ],
      { ...auto },
      { ...state, interrupted: true, aborted: true },
    );
    expect(m.queries[0]).toMatchObject({ planned: 6, partial: true });
  });
});

describe('subset totals (needs_context, split)', () => {
  const annotated = (id: string, shouldTrigger: boolean, extra: Record<string, unknown>): EvalItem => ({
    ...item(id, shouldTrigger),
    extra,
  });
  // 4 positives (p3 presupposes a session; p4 held out), 3 negatives (n3 held out, lost one run).
  const items = [
    annotated('p1', true, {}),
    annotated('p2', true, {}),
    annotated('p3', true, { needs_context: true }),
    annotated('p4', true, { split: 'holdout' }),
    annotated('n1', false, {}),
    annotated('n2', false, { needs_context: false }),
    annotated('n3', false, { split: 'holdout' }),
  ];
  const records = [
    [T, T],
    [T, N],
    [N, N],
    [T, T],
    [N, N],
    [T, T],
    [N, TO],
  ];

  it('totals the whole set and each subset apart, pass/fail per query unchanged', () => {
    const m = summarizeMeasurement(items, records, DEFAULT_RULES, state);
    expect(m.totals.positives).toEqual({ triggered: 5, runs: 8 });
    expect(m.queries.map((q) => q.pass)).toEqual([true, false, false, true, true, false, true]);
    expect(m.subsets).toEqual({
      withoutContext: {
        queries: 6,
        positives: { queries: 3, passed: 2, triggered: 5, runs: 6 },
        negatives: { queries: 3, passed: 2, fired: 2, runs: 5 },
        passed: 4,
        failed: 2,
      },
      train: {
        queries: 5,
        positives: { queries: 3, passed: 1, triggered: 3, runs: 6 },
        negatives: { queries: 2, passed: 1, fired: 2, runs: 4 },
        passed: 2,
        failed: 3,
      },
      holdout: {
        queries: 2,
        positives: { queries: 1, passed: 1, triggered: 2, runs: 2 },
        negatives: { queries: 1, passed: 1, fired: 0, runs: 1 },
        passed: 2,
        failed: 0,
      },
    });
  });

  it('gives a subset only for an annotation in use, and none for an unannotated set', () => {
    const plain = summarizeMeasurement(
      items.slice(0, 2).concat(items[4] as EvalItem),
      [
        [T, T],
        [T, N],
        [N, N],
      ],
      DEFAULT_RULES,
      state,
    );
    expect(plain.subsets).toBeUndefined();
    expect('subsets' in plain).toBe(false);
    const contextOnly = summarizeMeasurement(
      items.slice(0, 3).concat(items[4] as EvalItem),
      records.slice(0, 3).concat([[N, N]]),
      DEFAULT_RULES,
      state,
    );
    expect(Object.keys(contextOnly.subsets ?? {})).toEqual(['withoutContext']);
    const splitOnly = summarizeMeasurement(
      [items[0], items[3], items[4]] as EvalItem[],
      [
        [T, T],
        [T, T],
        [N, N],
      ],
      DEFAULT_RULES,
      state,
    );
    expect(Object.keys(splitOnly.subsets ?? {})).toEqual(['train', 'holdout']);
  });

  it('leaves the no-verdict rule to the whole set', () => {
    // Three of 14 planned runs lost (> 10%): no verdict, though the holdout lost only one.
    const lossy = records.map((r, i) => (i < 2 ? [TO, r[1] as RunRecord] : r));
    const m = summarizeMeasurement(items, lossy, DEFAULT_RULES, state);
    expect(m.verdict).toBe('no-verdict');
    expect(m.subsets?.holdout?.negatives.runs).toBe(1);
  });
});
