import { describe, expect, it } from 'vitest';
import { isBudgetStopped, SessionSpend, sessionBudgetReason } from '../../src/improve/budget.js';
import type { Usage } from '../../src/outcome.js';
import type { ImproveReport } from '../../src/schemas/improve.js';
import type { Measurement, Report } from '../../src/schemas/report.js';
import { buildMeasurement, buildReport } from '../fakes/measurement-builder.js';

// The session's spend and its --max-cost-usd (docs/cost.md), step by step.
const BUDGET = { maxUsd: 1, firstRunUsd: 0.1, rewriteUsd: 0.05 };
const USAGE: Usage = {
  inputTokens: 1000,
  outputTokens: 100,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 0,
};
const perToken = (usage: Usage) => usage.inputTokens / 10_000;

/** A measurement that cost `usd`, or had runs without a price, or no cost at all (`undefined`). */
function measured(usd: number | undefined, extra: Partial<Measurement> = {}): Measurement {
  const m = buildMeasurement([{ query: 'q', shouldTrigger: true, hits: 1, runs: 2 }]);
  const cost =
    usd === undefined
      ? {}
      : { cost: { usd, pricedRuns: 2, unpricedRuns: 0, unknownModels: [], byModel: { 'claude-test': usd } } };
  return { ...m, ...cost, ...extra };
}
const report = (candidate: Measurement, baseline?: Measurement): Report =>
  buildReport(candidate, baseline === undefined ? {} : { baseline });

describe('SessionSpend without --max-cost-usd', () => {
  it('never stops, and gives no measurement budget', () => {
    const spend = new SessionSpend(undefined, perToken);
    expect(spend.beforeMeasure('original')).toBeUndefined();
    expect(spend.beforeRewrite('rewrite 1')).toBe(true);
    spend.afterMeasure(
      report(measured(5, { budgetStop: { spentUsd: 5, nextEstimateUsd: 1, maxUsd: 5 } })),
      'x',
    );
    expect(spend.stop).toBeUndefined();
  });

  it('still adds up the cost of the runs and the rewrite calls', () => {
    const spend = new SessionSpend(undefined, perToken);
    spend.afterMeasure(report(measured(0.25), measured(0.5)), 'candidate 1');
    spend.afterRewrite(USAGE);
    expect(spend.spentUsd).toBe(0.85);
    expect(spend.cost()).toEqual({ usd: 0.85, measuredUsd: 0.75, rewriteUsd: 0.1, rewriteCalls: 1 });
  });
});

describe('the cost of the session', () => {
  it('is unknown when a measurement had no cost or an unpriced run', () => {
    const noCost = new SessionSpend(BUDGET, perToken);
    noCost.afterMeasure(report(measured(undefined)), 'original');
    expect(noCost.cost()).toBeUndefined();
    const unpriced = new SessionSpend(BUDGET, perToken);
    const m = measured(0.2);
    unpriced.afterMeasure(
      report({ ...m, cost: { ...(m.cost ?? ({} as never)), unpricedRuns: 1 } }),
      'original',
    );
    expect(unpriced.cost()).toBeUndefined();
    expect(unpriced.spentUsd).toBe(0.2);
  });

  it('is unknown when a rewrite call had no usage or no price, which then counts at its estimate', () => {
    const noUsage = new SessionSpend(BUDGET, perToken);
    noUsage.afterRewrite(undefined);
    expect(noUsage.spentUsd).toBe(0.05);
    expect(noUsage.cost()).toBeUndefined();
    const noPrice = new SessionSpend(BUDGET, () => null);
    noPrice.afterRewrite(USAGE);
    expect(noPrice.spentUsd).toBe(0.05);
    expect(noPrice.cost()).toBeUndefined();
  });

  it('is unknown when nothing can be priced at all', () => {
    const spend = new SessionSpend(BUDGET, undefined);
    spend.afterMeasure(report(measured(0.1)), 'original');
    expect(spend.cost()).toBeUndefined();
  });

  it('an unpriced rewrite call without a budget counts as nothing', () => {
    const spend = new SessionSpend(undefined, undefined);
    spend.afterRewrite(USAGE);
    expect(spend.spentUsd).toBe(0);
  });
});

describe('beforeMeasure', () => {
  it('gives what is left and the first run’s estimate', () => {
    const spend = new SessionSpend(BUDGET, perToken);
    spend.afterMeasure(report(measured(0.3)), 'original');
    expect(spend.beforeMeasure('candidate 1')).toEqual({ maxUsd: 0.7, firstEstimateUsd: 0.1 });
    expect(spend.stop).toBeUndefined();
  });

  it('stops when the first run could pass the budget, recording where', () => {
    const spend = new SessionSpend(BUDGET, perToken);
    spend.afterMeasure(report(measured(0.95)), 'original');
    expect(spend.beforeMeasure('candidate 2')).toBe(false);
    expect(spend.stop).toEqual({
      spentUsd: 0.95,
      nextEstimateUsd: 0.1,
      maxUsd: 1,
      before: 'run',
      phase: 'candidate 2',
    });
  });

  it('a first run that exactly fits goes ahead; nothing left stops', () => {
    // Amounts exact in binary: 1 − 0.875 leaves 0.125, the first run's estimate.
    const fits = new SessionSpend({ ...BUDGET, firstRunUsd: 0.125 }, perToken);
    fits.afterMeasure(report(measured(0.5), measured(0.375)), 'original');
    expect(fits.beforeMeasure('holdout')).toEqual({ maxUsd: 0.125, firstEstimateUsd: 0.125 });
    const spent = new SessionSpend({ ...BUDGET, firstRunUsd: 0 }, perToken);
    spent.afterMeasure(report(measured(1)), 'original');
    expect(spent.beforeMeasure('holdout')).toBe(false);
  });
});

describe('a step that fits exactly, whatever the float rounding', () => {
  // $0.10 + $0.10 spent of $0.30: in floating point 0.3 − 0.2 is 0.09999999999999998 and
  // 0.2 + 0.1 is 0.30000000000000004, yet a $0.10 step fits exactly.
  const spentTwice = (budget: typeof BUDGET) => {
    const spend = new SessionSpend(budget, perToken);
    spend.afterMeasure(report(measured(0.1), measured(0.1)), 'original');
    return spend;
  };

  it('beforeMeasure lets the first run go ahead', () => {
    const spend = spentTwice({ ...BUDGET, maxUsd: 0.3, firstRunUsd: 0.1 });
    expect(spend.beforeMeasure('candidate 1')).toMatchObject({ firstEstimateUsd: 0.1 });
    expect(spend.stop).toBeUndefined();
  });

  it('beforeRewrite lets the call go ahead', () => {
    const spend = spentTwice({ ...BUDGET, maxUsd: 0.3, rewriteUsd: 0.1 });
    expect(spend.beforeRewrite('rewrite 1')).toBe(true);
    expect(spend.stop).toBeUndefined();
  });

  it('a cent more stops both', () => {
    const measure = spentTwice({ ...BUDGET, maxUsd: 0.3, firstRunUsd: 0.11 });
    expect(measure.beforeMeasure('candidate 1')).toBe(false);
    const rewrite = spentTwice({ ...BUDGET, maxUsd: 0.3, rewriteUsd: 0.11 });
    expect(rewrite.beforeRewrite('rewrite 1')).toBe(false);
  });
});

describe('afterMeasure', () => {
  it('a measurement the budget stopped ends the session at its next estimate', () => {
    const spend = new SessionSpend(BUDGET, perToken);
    const stopped = measured(0.9, { budgetStop: { spentUsd: 0.9, nextEstimateUsd: 0.2, maxUsd: 1 } });
    spend.afterMeasure(report(stopped), 'candidate 1');
    expect(spend.stop).toEqual({
      spentUsd: 0.9,
      nextEstimateUsd: 0.2,
      maxUsd: 1,
      before: 'run',
      phase: 'candidate 1',
    });
  });

  it('the baseline side’s stop counts too', () => {
    const spend = new SessionSpend(BUDGET, perToken);
    const stopped = measured(0.4, { budgetStop: { spentUsd: 0.8, nextEstimateUsd: 0.3, maxUsd: 1 } });
    spend.afterMeasure(report(measured(0.4), stopped), 'candidate 1');
    expect(spend.stop).toMatchObject({ spentUsd: 0.8, nextEstimateUsd: 0.3, phase: 'candidate 1' });
  });

  it('only the first stop is kept', () => {
    const spend = new SessionSpend(BUDGET, perToken);
    spend.afterMeasure(report(measured(0.95)), 'original');
    spend.beforeMeasure('candidate 1');
    spend.beforeRewrite('rewrite 2');
    expect(spend.stop?.phase).toBe('candidate 1');
  });
});

describe('beforeRewrite', () => {
  it('goes ahead while the estimate fits, exactly fitting included', () => {
    const spend = new SessionSpend(BUDGET, perToken);
    spend.afterMeasure(report(measured(0.95)), 'original');
    expect(spend.beforeRewrite('rewrite 1')).toBe(true);
  });

  it('stops when the next call could pass the budget', () => {
    const spend = new SessionSpend(BUDGET, perToken);
    spend.afterMeasure(report(measured(0.96)), 'original');
    expect(spend.beforeRewrite('rewrite 1')).toBe(false);
    expect(spend.stop).toEqual({
      spentUsd: 0.96,
      nextEstimateUsd: 0.05,
      maxUsd: 1,
      before: 'rewrite',
      phase: 'rewrite 1',
    });
  });

  it('expects the next call to cost as much as the dearest so far, when that is more than the estimate', () => {
    const spend = new SessionSpend(BUDGET, perToken);
    spend.afterRewrite({ ...USAGE, inputTokens: 3000 }); // 0.3
    spend.afterMeasure(report(measured(0.5)), 'candidate 1');
    expect(spend.beforeRewrite('rewrite 2')).toBe(false);
    expect(spend.stop).toMatchObject({ spentUsd: 0.8, nextEstimateUsd: 0.3, before: 'rewrite' });
  });
});

describe('sessionBudgetReason', () => {
  it('opens with budget:, names the step and phase, and writes dollars as the report does', () => {
    expect(
      sessionBudgetReason({
        spentUsd: 0.9512,
        nextEstimateUsd: 0.0731,
        maxUsd: 1,
        before: 'run',
        phase: 'candidate 2',
      }),
    ).toBe(
      'budget: stopped before a measured run (candidate 2) that could take the spend past --max-cost-usd $1.00 ($0.9512 spent, the next estimated at $0.0731); what was measured is in the report',
    );
    expect(
      sessionBudgetReason({
        spentUsd: 4.5,
        nextEstimateUsd: 0.6,
        maxUsd: 5,
        before: 'rewrite',
        phase: 'rewrite 3',
      }),
    ).toContain(
      'stopped before a rewrite call (rewrite 3) that could take the spend past --max-cost-usd $5.00 ($4.50 spent',
    );
  });
});

describe('isBudgetStopped', () => {
  it('is whether the improve report carries a budget stop', () => {
    const stop = { spentUsd: 1, nextEstimateUsd: 0.1, maxUsd: 1, before: 'run' as const, phase: 'original' };
    expect(isBudgetStopped({ budgetStop: stop } as ImproveReport)).toBe(true);
    expect(isBudgetStopped({} as ImproveReport)).toBe(false);
  });
});
