import { describe, expect, it } from 'vitest';
import { PRICE_UNKNOWN_TEXT, sessionCostText } from '../../src/improve/cost-text.js';
import type { ImproveReport } from '../../src/schemas/improve.js';
import { improveFixture } from '../fakes/improve-fixture.js';

const report = (over: { maxCostUsd?: number; cost?: ImproveReport['cost']; schemaVersion?: number }) => {
  const base = improveFixture();
  const { maxCostUsd: _max, ...settings } = base.settings;
  const { cost: _cost, ...rest } = base;
  return {
    ...rest,
    schemaVersion: over.schemaVersion ?? base.schemaVersion,
    settings: { ...settings, ...(over.maxCostUsd === undefined ? {} : { maxCostUsd: over.maxCostUsd }) },
    ...(over.cost === undefined ? {} : { cost: over.cost }),
  } as ImproveReport;
};
const cost = { usd: 1.5, measuredUsd: 1.25, rewriteUsd: 0.25, rewriteCalls: 4 };

describe('sessionCostText', () => {
  it('a known cost: the total, the budget when there is one, runs and rewrite calls apart', () => {
    expect(sessionCostText(report({ cost, maxCostUsd: 2 }))).toBe(
      'Cost: $1.50 of --max-cost-usd $2.00 (measured runs $1.25; 4 rewrite calls $0.2500).',
    );
    expect(sessionCostText(report({ cost: { ...cost, rewriteCalls: 1 } }))).toBe(
      'Cost: $1.50 (measured runs $1.25; 1 rewrite call $0.2500).',
    );
  });

  it('a current report without a cost had an unpriced step: price unknown, after the budget if any', () => {
    expect(sessionCostText(report({}))).toBe(PRICE_UNKNOWN_TEXT);
    expect(sessionCostText(report({ maxCostUsd: 0.5 }))).toBe(
      `Budget: --max-cost-usd $0.5000. ${PRICE_UNKNOWN_TEXT}`,
    );
    expect(PRICE_UNKNOWN_TEXT).toContain('pass --prices');
  });

  it('a version 1 report records no cost: nothing said, or only its budget', () => {
    expect(sessionCostText(report({ schemaVersion: 1 }))).toBeNull();
    expect(sessionCostText(report({ schemaVersion: 1, maxCostUsd: 3 }))).toBe(
      'Budget: --max-cost-usd $3.00.',
    );
  });
});
