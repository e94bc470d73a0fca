import { describe, expect, it } from 'vitest';
import {
  arrow,
  costLine,
  costWarnings,
  labelWords,
  lateAndCostLines,
  lateLine,
  modelLines,
  modelsTable,
  pairedModelsLines,
  pairedModelsMarkdown,
} from '../../src/report/models-text.js';
import type { Measurement, ModelSummaryReport, PairedByModel, ReportCost } from '../../src/schemas/report.js';
import { buildMeasurement } from '../fakes/measurement-builder.js';

// The lines of several models, the late loads and the cost, on hand-built measurements.
const base = buildMeasurement([
  { query: 'p1', shouldTrigger: true, hits: 1, runs: 2, id: 'p1' },
  { query: 'n1', shouldTrigger: false, hits: 0, runs: 1, lost: 1, id: 'n|1' },
]);
const esc = (t: string) => `«${t}»`;

function summary(
  totals: Partial<ModelSummaryReport['totals']>,
  verdict: 'ok' | 'no-verdict' = 'ok',
): ModelSummaryReport {
  return {
    verdict,
    noVerdictReasons: verdict === 'ok' ? [] : ['more than 10% of runs lost'],
    lostQueries: [],
    totals: { ...base.totals, ...totals },
  };
}
const withCost = (cost: Partial<ReportCost>): Measurement => ({
  ...base,
  totals: {
    ...base.totals,
    usage: {
      inputTokens: 1200,
      outputTokens: 45,
      cacheReadInputTokens: 30_000,
      cacheCreationInputTokens: 500,
    },
  },
  cost: {
    usd: 0.0123,
    pricedRuns: 3,
    unpricedRuns: 0,
    unknownModels: [],
    byModel: { 'claude-x': 0.0123 },
    ...cost,
  },
});

describe('modelLines', () => {
  it('none without several models', () => {
    expect(modelLines(base)).toEqual([]);
  });

  it('a line per model; lost runs, no verdict and late loads only when there are some', () => {
    const m: Measurement = {
      ...base,
      byModel: {
        haiku: summary({
          positives: { triggered: 3, runs: 4 },
          negatives: { fired: 0, runs: 3 },
          timeouts: 1,
          errors: 1,
          passed: 3,
          queries: 4,
          late: 2,
        }),
        sonnet: summary(
          {
            positives: { triggered: 0, runs: 4 },
            negatives: { fired: 1, runs: 4 },
            timeouts: 0,
            errors: 0,
            late: 0,
          },
          'no-verdict',
        ),
      },
    };
    expect(modelLines(m, esc)).toEqual([
      '«haiku»: positives triggered 3/4 · negatives fired 0/3 · 2 lost · 3/4 queries pass · 2 late',
      `«sonnet»: positives triggered 0/4 · negatives fired 1/4 · ${base.totals.passed}/${base.totals.queries} queries pass · no verdict`,
    ]);
  });
});

describe('lateLine', () => {
  it('absent without --late', () => {
    expect(lateLine(base)).toEqual([]);
  });

  it('counts the late loads of all the misses, in the singular for one miss', () => {
    expect(lateLine({ ...base, totals: { ...base.totals, late: 1 } })).toEqual([
      '1 of 2 misses loaded the skill later (counted apart: never a hit)',
    ]);
    const one = buildMeasurement([{ query: 'p', shouldTrigger: true, hits: 1, runs: 2 }]);
    expect(lateLine({ ...one, totals: { ...one.totals, late: 0 } })).toEqual([
      '0 of 1 miss loaded the skill later (counted apart: never a hit)',
    ]);
  });
});

describe('costLine', () => {
  it('absent without a cost', () => {
    expect(costLine(base)).toEqual([]);
  });

  it('one model: the cost from the table and the tokens, thousands separated', () => {
    expect(costLine(withCost({}))).toEqual([
      'cost: $0.0123 from the price table · 31,700 prompt tokens (30,000 cache read), 45 output',
    ]);
  });

  it('against the simulated model: says nothing was paid and the figure is what a real run would cost', () => {
    expect(costLine(withCost({}), undefined, true)).toEqual([
      'cost (SIMULATED, nothing was paid; what a real run would cost): $0.0123 from the price table · 31,700 prompt tokens (30,000 cache read), 45 output',
    ]);
  });

  it('several models: each model’s share after the total, names escaped', () => {
    expect(costLine(withCost({ usd: 1.5, byModel: { a: 0.5, b: 1 } }), esc)[0]).toMatch(
      /^cost: \$1\.50 \(«a» \$0\.5000, «b» \$1\.00\) from the price table · /,
    );
  });

  it('a check that agrees is said; one that differs is left to the warnings', () => {
    const model = { model: 'claude-x', runs: 2, tableUsd: 0.0123, cliUsd: 0.0123, differs: false };
    expect(costLine(withCost({ check: { runs: 2, models: [model] } }))[0]).toContain(
      "from the price table · checked against the CLI's own figure on 2 runs · ",
    );
    const differs = { runs: 2, models: [{ ...model, cliUsd: 0.05, differs: true }] };
    expect(costLine(withCost({ check: differs }))[0]).not.toContain('checked against');
    expect(costWarnings(withCost({ check: differs }), esc)).toEqual([
      expect.stringMatching(
        /^the price table and the CLI's own total_cost_usd differ for «claude-x»: \$0\.0123/,
      ),
    ]);
    expect(costWarnings(base)).toEqual([]);
  });

  it('unpriced runs: the priced part if any, and which models have no price', () => {
    expect(costLine(withCost({ unpricedRuns: 2, unknownModels: ['mystery-1', 'mystery-2'] }), esc)).toEqual([
      'cost: $0.0123 for 3 priced runs; price unknown for «mystery-1», «mystery-2» (2 runs) · 31,700 prompt tokens (30,000 cache read), 45 output',
    ]);
    expect(
      costLine(withCost({ usd: 0, pricedRuns: 0, unpricedRuns: 3, unknownModels: ['m'], byModel: {} }))[0],
    ).toMatch(/^cost: price unknown for m \(3 runs\) · /);
  });
});

it('lateAndCostLines: the late loads, then the cost', () => {
  const m = { ...withCost({}), totals: { ...withCost({}).totals, late: 1 } };
  const lines = lateAndCostLines(m);
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatch(/loaded the skill later/);
  expect(lines[1]).toMatch(/^cost: /);
});

describe('modelsTable', () => {
  const counts = (
    hits: number,
    runs: number,
    extra: Partial<{ late: number; timeouts: number; errors: number }> = {},
  ) => ({
    hits,
    runs,
    late: 0,
    timeouts: 0,
    errors: 0,
    ...extra,
  });

  it('none without several models', () => {
    expect(modelsTable(base)).toEqual([]);
  });

  it('a column per model, hits/runs per query with lost and late noted, — where a model did not run it', () => {
    const m: Measurement = {
      ...base,
      byModel: { 'claude|a': summary({}), b: summary({}) },
      queries: [
        {
          ...(base.queries[0] as Measurement['queries'][number]),
          byModel: { 'claude|a': counts(1, 2, { late: 1 }) },
        },
        {
          ...(base.queries[1] as Measurement['queries'][number]),
          byModel: { 'claude|a': counts(0, 1, { timeouts: 1 }), b: counts(0, 2) },
        },
      ],
    };
    expect(modelsTable(m, 'candidate')).toEqual([
      '## By model (candidate)',
      '',
      '| Id | Should trigger | claude\\|a | b |',
      '| --- | --- | --- | --- |',
      '| p1 | yes | 1/2, 1 late | — |',
      '| n\\|1 | no | 0/1, 1 lost | 0/2 |',
    ]);
  });

  it('with several agents, the same table by agent', () => {
    const m: Measurement = {
      ...base,
      byAgent: { claude: summary({}), codex: summary({}) },
      queries: base.queries.map((q) => ({ ...q, byAgent: { claude: counts(1, 1), codex: counts(0, 1) } })),
    };
    const table = modelsTable(m);
    expect(table[0]).toBe('## By agent');
    expect(table[2]).toBe('| Id | Should trigger | claude | codex |');
    expect(table[4]).toBe('| p1 | yes | 1/1 | 0/1 |');
  });
});

describe('the paired comparison by model', () => {
  const cls = (b: [number, number], c: [number, number], label: PairedByModel['label']) => ({
    base: { hits: b[0], runs: b[1] },
    cand: { hits: c[0], runs: c[1] },
    deltaRate: c[0] / c[1] - b[0] / b[1],
    label,
  });
  const paired: PairedByModel = {
    label: 'regression',
    models: {
      'claude|a': {
        label: 'regression',
        positives: cls([4, 4], [0, 4], 'regression'),
        negatives: cls([0, 4], [0, 4], 'noise'),
      },
      b: {
        label: 'no-verdict',
        positives: cls([2, 4], [3, 4], 'noise'),
        negatives: cls([1, 4], [1, 4], 'noise'),
      },
    },
    pooled: { label: 'noise', models: ['claude|a', 'b'] },
  };

  it('labelWords and arrow', () => {
    expect(labelWords('no-verdict')).toBe('no verdict');
    expect(labelWords('improvement')).toBe('improvement');
    expect(arrow(cls([3, 4], [0, 4], 'noise'))).toBe('3/4 → 0/4');
  });

  it('terminal lines: each model, the pooled label with what it pools, the standing', () => {
    expect(pairedModelsLines(paired, esc)).toEqual([
      "by model (each model's candidate against the same model's baseline, interleaved):",
      '  «claude|a»: positives triggered 4/4 → 0/4 (regression) · negatives fired 0/4 → 0/4 (noise) · regression',
      '  «b»: positives triggered 2/4 → 3/4 (noise) · negatives fired 1/4 → 1/4 (noise) · no verdict',
      "pooled over «claude|a» + «b» (their runs together, as many of each model on both sides): noise; a change on one model can offset another's, so the models' own labels decide",
      'overall: regression (a regression on any model is the skill’s regression)',
    ]);
  });

  it('without an honest pooled label, says why it is left out', () => {
    const { pooled: _, ...unpooled } = paired;
    expect(pairedModelsLines(unpooled)[3]).toMatch(
      /^pooled over the models: left out, as some query ran a model more often/,
    );
  });

  it('Markdown: nothing without the comparison; else a row per model, names escaped, then pooled and standing', () => {
    expect(pairedModelsMarkdown(undefined)).toEqual([]);
    const md = pairedModelsMarkdown(paired);
    expect(md[0]).toBe('## Baseline vs candidate, by model');
    expect(md).toContain('| claude\\|a | 4/4 → 0/4 | regression | 0/4 → 0/4 | noise | **regression** |');
    expect(md).toContain('| b | 2/4 → 3/4 | noise | 1/4 → 1/4 | noise | **no verdict** |');
    expect(md.at(-2)).toMatch(/^- pooled over claude\\\|a \+ b /);
    expect(md.at(-1)).toBe('- **Overall: regression** (a regression on any model is the skill’s regression)');
  });
});
