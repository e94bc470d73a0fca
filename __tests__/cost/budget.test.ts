import { describe, expect, it } from 'vitest';
import { budgetReason, fitsBudget, isBudgetReason, pricesIdentity } from '../../src/cost/budget.js';
import { DEFAULT_PRICE_TABLE } from '../../src/cost/price-table.js';

describe('fitsBudget', () => {
  it('a step that fits exactly fits, though the float sum passes the budget', () => {
    expect(0.2 + 0.1 <= 0.3).toBe(false);
    expect(fitsBudget(0.1 + 0.1, 0.1, 0.3)).toBe(true);
    expect(fitsBudget(0, 0.1, 1 - 0.9)).toBe(true);
    expect(fitsBudget(0.5, 0.5, 1)).toBe(true);
  });

  it('a step that passes the budget by a hundredth of a cent does not fit', () => {
    expect(fitsBudget(0.2, 0.1001, 0.3)).toBe(false);
    expect(fitsBudget(0.95, 0.1, 1)).toBe(false);
    expect(fitsBudget(1, 0.000001, 1)).toBe(false);
  });
});

describe('budgetReason', () => {
  const stop = { spentUsd: 0.4, nextEstimateUsd: 0.1, maxUsd: 0.45 };

  it('names what the user set, and opens with budget:', () => {
    const cli = budgetReason(stop, 'cli');
    expect(cli).toContain('--max-cost-usd');
    expect(isBudgetReason(cli)).toBe(true);
    const action = budgetReason(stop, 'action');
    expect(action).toContain('the max-cost-usd input');
    expect(action).not.toContain('--max-cost-usd');
    expect(isBudgetReason(action)).toBe(true);
    expect(isBudgetReason('too many runs lost')).toBe(false);
  });
});

describe('pricesIdentity', () => {
  it('the built-in table by its date, a file by the first 12 hex of its hash', () => {
    expect(pricesIdentity(DEFAULT_PRICE_TABLE)).toEqual({
      source: 'builtin',
      asOf: DEFAULT_PRICE_TABLE.asOf,
    });
    const file = pricesIdentity({ ...DEFAULT_PRICE_TABLE, asOf: '2026-01-01' }, '{}');
    expect(file).toMatchObject({ source: 'file', asOf: '2026-01-01' });
    expect(file.sha256).toMatch(/^[0-9a-f]{12}$/);
  });
});
