import { describe, expect, it } from 'vitest';
import { pairedByModel, standingLabel } from '../../src/compare/by-model.js';
import type { EvalItem } from '../../src/inputs/types.js';
import type { RunResult } from '../../src/measure/loop-spec.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { pairedModelsLines } from '../../src/report/models-text.js';
import { modelRun, modelsReport } from '../fakes/models-report.js';

/** A paired report of two models, judged model by model (`run --baseline-description --model a,b`). */
const HAIKU = 'claude-haiku-4-5';
const SONNET = 'claude-sonnet-4-5';
const items: EvalItem[] = [
  ...[1, 2, 3, 4].map((i) => ({
    id: `p${i}`,
    query: `write the handoff ${i}`,
    shouldTrigger: true,
    extra: {},
  })),
  { id: 'n1', query: 'rename a variable', shouldTrigger: false, extra: {} },
];
type Kind = 'triggered' | 'not-triggered' | 'timeout';
const runOf = (model: string, kind: Kind): RunResult => modelRun(model, kind);

/** Each query's runs on one side: `haiku` and `sonnet` outcomes for every positive, misses for the negative. */
function side(haiku: Kind[], sonnet: Kind[]): RunResult[][] {
  return items.map((item) =>
    item.shouldTrigger
      ? [...haiku.map((k) => runOf(HAIKU, k)), ...sonnet.map((k) => runOf(SONNET, k))]
      : [runOf(HAIKU, 'not-triggered'), runOf(SONNET, 'not-triggered')],
  );
}

function paired(base: RunResult[][], cand: RunResult[][], models = [HAIKU, SONNET]) {
  return modelsReport({ items, models, records: cand, baseline: base, runsPerQuery: 2 });
}

const hit: Kind[] = ['triggered', 'triggered'];
const miss: Kind[] = ['not-triggered', 'not-triggered'];

describe('pairedByModel', () => {
  it('labels each model on its own runs; a regression on one is the skill’s, whatever the pool says', () => {
    const report = paired(side(miss, hit), side(hit, miss));
    const p = pairedByModel(report);
    expect(p?.models[HAIKU]?.label).toBe('improvement');
    expect(p?.models[SONNET]?.label).toBe('regression');
    expect(p?.models[SONNET]?.positives).toMatchObject({
      base: { hits: 8, runs: 8 },
      cand: { hits: 0, runs: 8 },
    });
    expect(p?.label).toBe('regression');
    expect(p?.pooled).toEqual({ label: 'noise', models: [HAIKU, SONNET] });
    const lines = pairedModelsLines(p ?? { label: 'noise', models: {} });
    expect(lines.at(-1)).toBe('overall: regression (a regression on any model is the skill’s regression)');
  });

  it('leaves the pooled label out when a model ran more often on one side', () => {
    // One Sonnet run of each positive timed out on the baseline only: 8 Sonnet runs against 4.
    const report = paired(side(miss, ['triggered', 'timeout']), side(miss, miss));
    const p = pairedByModel(report);
    expect(p?.pooled).toBeUndefined();
    expect(pairedModelsLines(p ?? { label: 'noise', models: {} }).join('\n')).toContain(
      'pooled over the models: left out, as some query ran a model more often on one side than the other',
    );
    const markdown = renderMarkdown({ ...report, ...(p ? { pairedByModel: p } : {}) });
    expect(markdown).toContain('## Baseline vs candidate, by model');
    expect(markdown).toContain('pooled over the models: left out');
  });

  it('is absent for one model or no baseline', () => {
    const one = paired(side(miss, miss), side(hit, hit), [HAIKU]);
    expect(pairedByModel(one)).toBeUndefined();
    const single = { ...paired(side(miss, miss), side(hit, hit)) };
    delete single.baseline;
    expect(pairedByModel(single)).toBeUndefined();
  });
});

describe('standingLabel', () => {
  it('regression wins; then no verdict; then improvement; else noise', () => {
    expect(standingLabel(['improvement', 'regression', 'no-verdict'])).toBe('regression');
    expect(standingLabel(['improvement', 'no-verdict'])).toBe('no-verdict');
    expect(standingLabel(['improvement', 'noise'])).toBe('improvement');
    expect(standingLabel(['noise', 'noise'])).toBe('noise');
  });
});
