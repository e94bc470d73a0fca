import { describe, expect, it } from 'vitest';
import type { PriceTable } from '../../../src/cost/prices.js';
import type { EvalItem } from '../../../src/inputs/types.js';
import { NO_USAGE, type Outcome } from '../../../src/outcome.js';
import { type ModelsCostInput, withModelsAndCost } from '../../../src/report/build/models-cost.js';
import { DEFAULT_RULES, type RunRecord } from '../../../src/verdict/rules.js';
import { buildMeasurement } from '../../fakes/measurement-builder.js';

const items: EvalItem[] = [
  { id: 'q1', query: 'p1', shouldTrigger: true, extra: {} },
  { id: 'q2', query: 'n1', shouldTrigger: false, extra: {} },
];
/** Two queries, two runs each; the counts themselves are the verdict rules' (tested there). */
const base = () =>
  buildMeasurement([
    { query: 'p1', shouldTrigger: true, hits: 2, runs: 2 },
    { query: 'n1', shouldTrigger: false, hits: 0, runs: 2 },
  ]);
const hit: Outcome = { kind: 'triggered' };
const miss: Outcome = { kind: 'not-triggered' };
const lost: Outcome = { kind: 'error', cause: 'overloaded', status: 529 };
/** A run of a million input tokens: $1 under the table below, whatever its model. */
const run = (over: Partial<RunRecord> = {}): RunRecord => ({
  outcome: hit,
  durationMs: 1,
  usage: { ...NO_USAGE, inputTokens: 1_000_000 },
  ...over,
});
const table: PriceTable = {
  source: 'test',
  asOf: '2026-01-01',
  models: {
    haiku: { input: 1, output: 1, cacheWrite: 1, cacheRead: 1 },
    sonnet: { input: 3, output: 3, cacheWrite: 3, cacheRead: 3 },
  },
};
const input = (over: Partial<ModelsCostInput> = {}): ModelsCostInput => ({
  items,
  rules: DEFAULT_RULES,
  lateTurns: 0,
  state: {
    aborted: false,
    interrupted: false,
    description: { bytes: 120, sha256: 'a'.repeat(64), overridden: false },
  },
  ...over,
});

describe('withModelsAndCost', () => {
  it('adds nothing without --late, prices, models or agents, and leaves its input unchanged', () => {
    const m = base();
    const before = structuredClone(m);
    const out = withModelsAndCost(
      m,
      [
        [run(), run()],
        [run({ outcome: miss }), run({ outcome: miss })],
      ],
      input(),
    );
    expect(out).toEqual(before);
    expect(m).toEqual(before);
    expect(out.queries[0]).not.toBe(m.queries[0]);
  });

  it('with --late counts the late loads per query and in the totals', () => {
    const records = [
      [run({ outcome: miss, late: true }), run()],
      [run({ outcome: miss, late: true }), run({ outcome: miss, late: true })],
    ];
    const out = withModelsAndCost(base(), records, input({ lateTurns: 2 }));
    expect(out.queries.map((q) => q.late)).toEqual([1, 2]);
    expect(out.totals.late).toBe(3);
  });

  it('prices each run by its reported model, else the requested one; an unpriced run is null and not summed', () => {
    const records = [
      [run({ model: 'haiku' }), run({ model: 'sonnet' })],
      [run({ outcome: miss, model: 'opus' }), run({ outcome: miss })],
    ];
    const out = withModelsAndCost(base(), records, input({ prices: table, requestedModel: 'haiku' }));
    expect(out.queries[0]?.runsCostUsd).toEqual([1, 3]);
    expect(out.queries[0]?.costUsd).toBe(4);
    expect(out.queries[1]?.runsCostUsd).toEqual([null, 1]);
    expect(out.queries[1]?.costUsd).toBe(1);
    expect(out.cost).toMatchObject({ usd: 5, pricedRuns: 3, unpricedRuns: 1, unknownModels: ['opus'] });
  });

  it('a query none of whose runs is priced gets no costUsd (unknown, not $0)', () => {
    const records = [[run({ model: 'opus' })], [run({ outcome: miss, model: 'opus' })]];
    const out = withModelsAndCost(base(), records, input({ prices: table }));
    expect(out.queries[0]?.runsCostUsd).toEqual([null]);
    expect(out.queries[0]?.costUsd).toBeUndefined();
  });

  it('one model is no split; two split the counts per query and judge each model on its own runs', () => {
    const records = [
      [run({ requestedModel: 'haiku' }), run({ requestedModel: 'sonnet', outcome: lost })],
      [run({ requestedModel: 'haiku', outcome: miss }), run({ requestedModel: 'sonnet', outcome: lost })],
    ];
    expect(withModelsAndCost(base(), records, input({ models: ['haiku'] })).byModel).toBeUndefined();
    const out = withModelsAndCost(base(), records, input({ models: ['haiku', 'sonnet'], prices: table }));
    expect(out.queries[0]?.byModel).toEqual({
      haiku: { hits: 1, runs: 1, late: 0, timeouts: 0, errors: 0 },
      sonnet: { hits: 0, runs: 0, late: 0, timeouts: 0, errors: 1 },
    });
    expect(out.byModel?.haiku?.verdict).toBe('ok');
    expect(out.byModel?.haiku?.costUsd).toBe(2);
    // sonnet lost every run: the whole measurement has no verdict, the reason named after it.
    expect(out.byModel?.sonnet?.verdict).toBe('no-verdict');
    expect(out.verdict).toBe('no-verdict');
    expect(out.noVerdictReasons.length).toBeGreaterThan(0);
    expect(out.noVerdictReasons.every((r) => r.startsWith('sonnet: '))).toBe(true);
  });

  it('two agents split by agent (a run without one is claude), each run listed with its agent', () => {
    const records = [
      [run({ agent: 'codex' }), run()],
      [run({ outcome: miss, agent: 'codex' }), run({ outcome: miss })],
    ];
    const out = withModelsAndCost(base(), records, input({ agents: ['claude', 'codex'] }));
    expect(out.queries[0]?.agents).toEqual(['codex', 'claude']);
    expect(out.queries[0]?.byAgent).toEqual({
      claude: { hits: 1, runs: 1, late: 0, timeouts: 0, errors: 0 },
      codex: { hits: 1, runs: 1, late: 0, timeouts: 0, errors: 0 },
    });
    expect(Object.keys(out.byAgent ?? {})).toEqual(['claude', 'codex']);
    expect(out.verdict).toBe('ok');
    expect(out.byModel).toBeUndefined();
  });
});
