import { describe, expect, it } from 'vitest';
import { budgetRefusal, estimateJob, JobBudget, jobShapes } from '../../src/action/job-cost.js';
import { conclude } from '../../src/action/results/conclusion.js';
import type { ActionRun } from '../../src/action/results/results.js';
import { readSettings } from '../../src/action/settings.js';
import { budgetFooterText, budgetRefusalBlock, lateLines } from '../../src/action/text/cost-lines.js';
import type { PriceTable } from '../../src/cost/prices.js';
import { loadPrices } from '../../src/cost/prices-file.js';
import type { Measurement, Report } from '../../src/schemas/report.js';
import { fixtureMeasurement, type QuerySpec, reportFixture } from '../fakes/report-fixture.js';

/**
 * The job's cost (pure parts): the estimate over every skill and side, max-cost-usd's refusal and
 * what it buys, the budget the skills share, and the lines the comment shows.
 */

const HAIKU = 'claude-haiku-4-5';
const SONNET = 'claude-sonnet-4-5';
/** $1 per million uncached input tokens, nothing else: a run of 10,000 input tokens costs $0.01. */
const table: PriceTable = {
  source: 'test',
  asOf: '2026-12-01',
  models: {
    [HAIKU]: { input: 1, output: 0, cacheWrite: 0, cacheRead: 0 },
    [SONNET]: { input: 3, output: 0, cacheWrite: 0, cacheRead: 0 },
  },
};
const prices = { table, identity: { source: 'file' as const, sha256: 'abc', asOf: table.asOf } };
const usage = (input: number) => ({
  inputTokens: input,
  outputTokens: 0,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 0,
});
const gates = {
  roundTripUsage: { [HAIKU]: usage(10_000), [SONNET]: usage(10_000) },
  roundTripModels: { [HAIKU]: HAIKU, [SONNET]: SONNET },
};
const reader = (values: Record<string, string>) => (name: string) => values[name] ?? '';

describe('the job estimate', () => {
  it('adds every skill, side and model: 2 skills (one paired) × 2 models', () => {
    const settings = readSettings(reader({ models: `${HAIKU},${SONNET}`, runs: '3' }));
    const shapes = jobShapes(
      [
        { queries: 4, paired: true },
        { queries: 2, paired: false },
      ],
      settings,
    );
    expect(shapes.map((s) => [s.queries, s.runsPerQuery, s.sides, s.models])).toEqual([
      [4, 3, 2, [HAIKU, SONNET]],
      [2, 3, 1, [HAIKU, SONNET]],
    ]);
    const estimate = estimateJob(shapes, gates, prices);
    // (4·3·2 + 2·3·1) = 30 runs per model; haiku $0.01 a run, sonnet $0.03.
    expect(estimate.runs).toBe(60);
    expect(estimate.usd).toBeCloseTo(30 * 0.01 + 30 * 0.03, 10);
    expect(budgetRefusal(estimate, 1.2)).toBeUndefined();
    // $0.60 buys 30 of the 60 runs at their average ($0.02).
    expect(budgetRefusal(estimate, 0.6)).toBe(
      "input max-cost-usd: the job's plan is estimated at $1.20 for 60 runs, more than max-cost-usd $0.6000, which buys about 30 of them; nothing was measured. Fix: raise max-cost-usd, or plan fewer runs (runs, fewer queries, models or skills)",
    );
  });

  it('prices each run’s context with it: a skill whose queries start with a fill costs more', () => {
    const settings = readSettings(reader({ model: HAIKU, runs: '2' }));
    const shapes = jobShapes([{ queries: 2, paired: false, contextChars: [30_000, 0] }], settings);
    expect(shapes[0]?.contextChars).toEqual([30_000, 0]);
    // The table's cache write is free here, so the context is read at the input rate: 10,000 tokens, $0.01.
    expect(estimateJob(shapes, gates, prices).usd).toBeCloseTo(4 * 0.01 + 2 * 0.01, 10);
    const fresh = jobShapes([{ queries: 2, paired: false, contextChars: [0, 0] }], settings);
    expect(fresh[0]?.contextChars).toBeUndefined();
    expect(estimateJob(fresh, gates, prices).usd).toBeCloseTo(4 * 0.01, 10);
  });

  it('an estimate equal to the budget but for float rounding fits (0.1 + 0.2 against 0.3)', () => {
    const estimate = { runs: 3, models: [], usd: 0.1 + 0.2, unknownModels: [] };
    expect(estimate.usd).toBeGreaterThan(0.3);
    expect(budgetRefusal(estimate, 0.3)).toBeUndefined();
    expect(budgetRefusal({ ...estimate, usd: 0.31 }, 0.3)).toMatch(/^input max-cost-usd: the job's plan/);
  });

  it('a model without a price refuses the budget, naming it and the prices input', async () => {
    const settings = readSettings(reader({ model: 'claude-nova-9' }));
    const estimate = estimateJob(
      jobShapes([{ queries: 2, paired: false }], settings),
      {
        roundTripUsage: { 'claude-nova-9': usage(100) },
        roundTripModels: { 'claude-nova-9': 'claude-nova-9' },
      },
      await loadPrices(undefined),
    );
    expect(estimate.usd).toBeNull();
    expect(budgetRefusal(estimate, 5)).toMatch(
      /^input max-cost-usd: needs a price for every model, and the price table has none for "claude-nova-9"; nothing was measured\. Fix: set prices to a table/,
    );
  });
});

function measurement(specs: QuerySpec[], runsCostUsd: number[]): Measurement {
  const m = fixtureMeasurement(specs);
  const usd = runsCostUsd.reduce((a, b) => a + b, 0);
  return {
    ...m,
    queries: m.queries.map((q, i) => (i === 0 ? { ...q, runsCostUsd } : q)),
    cost: {
      usd,
      pricedRuns: runsCostUsd.length,
      unpricedRuns: 0,
      unknownModels: [],
      byModel: { [HAIKU]: usd },
    },
  };
}

describe('the job estimate with Codex', () => {
  const GPT5 = 'gpt-5';
  const withGpt5 = {
    ...prices,
    table: {
      ...table,
      models: { ...table.models, [GPT5]: { input: 2, output: 0, cacheWrite: 0, cacheRead: 0 } },
    },
  };
  /** Codex 0.169.0's gates: its own round trip, 20,000 input tokens ($0.04 at gpt-5's $2 here). */
  const codexGates = {
    ...gates,
    agentGates: {
      codex: {
        gates: [],
        interrupted: false,
        conflictAllowed: false,
        version: '0.169.0',
        roundTripUsage: usage(20_000),
      },
    },
  };

  it("prices a Codex model from Codex's round trip, beside claude's own", () => {
    const settings = readSettings(
      reader({
        agents: 'claude,codex',
        models: `claude:${HAIKU}\ncodex:${GPT5}`,
        competition: 'isolated',
        runs: '1',
      }),
    );
    const shapes = jobShapes([{ queries: 2, paired: true }], settings);
    expect(shapes[0]?.models).toEqual([HAIKU, `codex:${GPT5}`]);
    const estimate = estimateJob(shapes, codexGates, withGpt5);
    // 4 runs each: haiku $0.01 a run, Codex's round trip $0.04 a run.
    expect(estimate.models.map((m) => [m.priced, m.usdPerRun])).toEqual([
      [HAIKU, 0.01],
      [GPT5, 0.04],
    ]);
    expect(estimate.usd).toBeCloseTo(4 * 0.01 + 4 * 0.04, 10);
    expect(budgetRefusal(estimate, 0.1)).toMatch(
      /estimated at \$0\.2000 for 8 runs, .* which buys about 4 of them/,
    );
  });

  it("refuses Codex's default model without a price, naming the model its version sends", () => {
    const settings = readSettings(reader({ agents: 'codex', competition: 'isolated', runs: '1' }));
    const estimate = estimateJob(jobShapes([{ queries: 2, paired: false }], settings), codexGates, withGpt5);
    expect(estimate.unknownModels).toEqual(['gpt-6.1-sol']);
    expect(budgetRefusal(estimate, 5)).toBe(
      'input max-cost-usd: needs a price for every model, and the price table has none for "gpt-6.1-sol"; nothing was measured. Fix: set prices to a table with its rates (docs/cost.md), or model (or models) to priced model ids',
    );
    // With a priced model asked for, Codex alone is priced from its round trip.
    const asked = readSettings(reader({ agents: 'codex', model: GPT5, competition: 'isolated', runs: '1' }));
    const priced = estimateJob(jobShapes([{ queries: 2, paired: false }], asked), codexGates, withGpt5);
    expect(priced.usd).toBeCloseTo(2 * 0.04, 10);
  });
});

describe('the budget the skills share', () => {
  const specs: QuerySpec[] = [{ query: 'q', shouldTrigger: true, outcomes: ['triggered', 'triggered'] }];

  it('hands each measurement what the earlier ones spent, and the dearest run so far as the next', () => {
    const budget = new JobBudget(1, 0.01);
    expect(budget.next()).toEqual({ maxUsd: 1, firstEstimateUsd: 0.01, spentUsd: 0, setBy: 'action' });
    const first: Report = reportFixture({
      candidate: measurement(specs, [0.02, 0.05]),
      baseline: measurement(specs, [0.03, 0.01]),
    });
    budget.record(first);
    expect(budget.spent).toBeCloseTo(0.11, 10);
    expect(budget.next()).toEqual({
      maxUsd: 1,
      firstEstimateUsd: 0.05,
      spentUsd: budget.spent,
      setBy: 'action',
    });
  });

  it('counts a run whose agent reported no tokens at the estimate, as the loop did', () => {
    const budget = new JobBudget(1, 0.04);
    // A Codex run killed at its decision: priced $0 in the report, its prompt billed all the same.
    budget.record(reportFixture({ candidate: measurement(specs, [0.02, 0]) }), 1);
    expect(budget.spent).toBeCloseTo(0.02 + 0.04, 10);
    expect(budget.next().firstEstimateUsd).toBeCloseTo(0.04, 10);
  });
});

describe('what the comment says', () => {
  const run = (budget?: ActionRun['budget']): ActionRun => ({
    event: 'pull_request',
    eventName: 'pull_request',
    fromFork: false,
    stage: 'input-error',
    skills: [],
    gates: [],
    notes: [],
    settings: { runs: 2, baseline: 'cache', failOnRegression: false },
    ...(budget ? { budget } : {}),
  });

  it('a refused estimate: exit 1 with the refusal, an alert in the comment, the budget in the footer', () => {
    const refused = 'input max-cost-usd: the job’s plan is estimated at $3.00 … nothing was measured';
    const r = run({ maxUsd: 2, refused });
    expect(conclude(r)).toEqual({ code: 1, message: refused });
    expect(budgetRefusalBlock(r)).toEqual([
      '> [!WARNING]',
      '> **Nothing was measured: the estimate passes max-cost-usd $2.00.**',
      expect.stringContaining('nothing was measured'),
    ]);
    expect(budgetFooterText(r)).toBe(' · max-cost-usd $2.00');
    expect(budgetRefusalBlock(run({ maxUsd: 2 }))).toEqual([]);
    expect(budgetFooterText(run())).toBe('');
    // Without a refusal, an input-error run still says what the inputs' problems are.
    expect(conclude(run()).message).toMatch(/^input error: 0 problems/);
  });

  it('the late line, per side that watched for late loads', () => {
    const misses: QuerySpec[] = [
      { query: 'a', shouldTrigger: true, outcomes: ['not-triggered', 'triggered'] },
      { query: 'b', shouldTrigger: false, outcomes: ['not-triggered', 'not-triggered'] },
    ];
    const m = fixtureMeasurement(misses);
    const watched: Measurement = { ...m, totals: { ...m.totals, late: 1 } };
    expect(lateLines([{ label: 'This PR', m: watched }])).toEqual([
      '1 of 3 misses loaded the skill later (counted apart: never a hit)',
    ]);
    expect(lateLines([{ label: 'This PR', m }])).toEqual([]);
    expect(
      lateLines([
        { label: 'Baseline', m: watched },
        { label: 'This PR', m: watched },
      ]),
    ).toEqual([
      'Baseline: 1 of 3 misses loaded the skill later (counted apart: never a hit)',
      'This PR: 1 of 3 misses loaded the skill later (counted apart: never a hit)',
    ]);
  });
});
