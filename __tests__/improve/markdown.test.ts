import { describe, expect, it } from 'vitest';
import { proposalAlpha } from '../../src/improve/decide.js';
import { renderImproveMarkdown } from '../../src/improve/markdown.js';
import { improveFixture } from '../fakes/improve-fixture.js';

/** The improve report's Markdown: the proposal level rounded, the budget stop and the spend said. */
describe('renderImproveMarkdown', () => {
  it('prints proposalAlpha to three significant digits, as the page does', () => {
    const alpha = proposalAlpha(3);
    expect(String(alpha).length).toBeGreaterThan(8);
    const base = improveFixture();
    const md = renderImproveMarkdown({
      ...base,
      settings: { ...base.settings, iterations: 3, proposalAlpha: alpha },
    });
    expect(md).toContain(`at α = ${Number(alpha.toPrecision(3))} (the session's 0.05 over 3 rewrites)`);
    expect(md).not.toContain(String(alpha));
  });

  it('says a budget stop is no verdict, and what the session spent', () => {
    const base = improveFixture();
    const md = renderImproveMarkdown({
      ...base,
      settings: { ...base.settings, maxCostUsd: 2 },
      stopReason: 'budget: stopped before a measured run (holdout)',
      final: { ...base.final, recommendation: 'no-verdict', written: false },
      cost: { usd: 1.5, measuredUsd: 1.25, rewriteUsd: 0.25, rewriteCalls: 4 },
      budgetStop: { spentUsd: 1.5, nextEstimateUsd: 0.6, maxUsd: 2, before: 'run', phase: 'holdout' },
    });
    expect(md).toContain('No verdict: --max-cost-usd stopped the session before it could judge');
    expect(md).toContain(
      'Cost: $1.50 of --max-cost-usd $2.00 (measured runs $1.25; 4 rewrite calls $0.2500).',
    );
  });
});
