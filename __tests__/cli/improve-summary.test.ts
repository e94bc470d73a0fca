import { describe, expect, it } from 'vitest';
import { improveSummary } from '../../src/cli/improve-summary.js';
import { renderImproveMarkdown } from '../../src/improve/markdown.js';
import type { ImproveReport } from '../../src/schemas/improve.js';
import { improveFixture } from '../fakes/improve-fixture.js';

/**
 * `improve`'s terminal summary says the session's cost in the improve Markdown's own line: the
 * spend (of the budget, when there was one), "price unknown" when a run or call had no price, and
 * nothing for a version 1 report, which records no cost.
 */
const withBudget = (report: ImproveReport, maxCostUsd: number): ImproveReport => ({
  ...report,
  settings: { ...report.settings, maxCostUsd },
});
const withoutCost = (report: ImproveReport): ImproveReport => {
  const { cost: _, ...rest } = report;
  return rest;
};
const HEAD = '4 candidate(s), 1 accepted; stopped: reached --iterations 4.';

describe('improveSummary: the cost line', () => {
  it.each([
    ['priced', improveFixture(), 'Cost: $0.4321 (measured runs $0.4000; 4 rewrite calls $0.0321).'],
    [
      'priced, of a budget',
      withBudget(improveFixture(), 2),
      'Cost: $0.4321 of --max-cost-usd $2.00 (measured runs $0.4000; 4 rewrite calls $0.0321).',
    ],
    [
      'unpriced',
      withoutCost(improveFixture()),
      "Cost: price unknown (a measured run or a rewrite call could not be priced; pass --prices with the model's rates to price it).",
    ],
    [
      'unpriced, of a budget',
      withBudget(withoutCost(improveFixture()), 2),
      "Budget: --max-cost-usd $2.00. Cost: price unknown (a measured run or a rewrite call could not be priced; pass --prices with the model's rates to price it).",
    ],
  ])('%s: the line after the head, word for word the Markdown’s', (_, report, line) => {
    const lines = improveSummary(report).split('\n');
    expect(lines.slice(0, 2)).toEqual([HEAD, line]);
    expect(renderImproveMarkdown(report).split('\n')).toContain(line);
  });

  it('says no cost for a version 1 report, which records none', () => {
    const report = { ...withoutCost(improveFixture()), schemaVersion: 1 };
    const lines = improveSummary(report).split('\n');
    expect(lines[0]).toBe(HEAD);
    expect(lines[1]).toMatch(/^A winner held on the holdout/);
    expect(improveSummary(report)).not.toMatch(/cost|price/i);
  });
});

describe('improveSummary: a session with no verdict says what stopped it', () => {
  const stopped = (how: Partial<ImproveReport>): ImproveReport => ({
    ...improveFixture(),
    final: { winner: 'A winner.', holdout: null, recommendation: 'no-verdict', written: false },
    ...how,
  });
  it('a signal, not the budget, when the session was interrupted', () => {
    const text = improveSummary(stopped({ interrupted: true }));
    expect(text).toContain(
      'No verdict: a signal stopped the session before the winner was checked on the holdout; nothing was written.',
    );
    expect(text).not.toContain('--max-cost-usd stopped');
  });
  it('the budget when --max-cost-usd ended it', () => {
    const budgetStop = {
      spentUsd: 1,
      nextEstimateUsd: 0.5,
      maxUsd: 1.2,
      before: 'run' as const,
      phase: 'holdout',
    };
    expect(improveSummary(stopped({ budgetStop }))).toContain(
      'No verdict: --max-cost-usd stopped the session before the winner was checked on the holdout',
    );
  });
});

describe('improveSummary: no winner', () => {
  it('says why --iterations was not enough: the last rejection and what more iterations would do', () => {
    const base = improveFixture();
    const [first] = base.candidates;
    if (!first) throw new Error('the fixture has a candidate');
    const report: ImproveReport = {
      ...base,
      candidates: [
        { ...first, iteration: 1, decision: 'rejected', reason: 'not a significant improvement (p = 0.21)' },
      ],
      stopReason: 'reached --iterations 1',
      final: { winner: null, holdout: null, recommendation: 'keep-original', written: false },
    };
    expect(improveSummary(report).split('\n').slice(-3)).toEqual([
      'Keep the original description: no rewrite was a significant improvement on train.',
      'The last rewrite (iteration 1) was rejected: not a significant improvement (p = 0.21).',
      'One iteration judges one rewrite; --iterations 5 lets improve propose again from the train failures that remain.',
    ]);
    const twoRejections = { ...report, stopReason: 'two proposals in a row were rejected' };
    expect(improveSummary(twoRejections).split('\n').at(-1)).toBe(
      'Keep the original description: no rewrite was a significant improvement on train.',
    );
  });
});
