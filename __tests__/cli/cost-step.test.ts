import { describe, expect, it } from 'vitest';
import { planCost } from '../../src/cli/cost-step.js';
import { DEFAULT_PRICE_TABLE } from '../../src/cost/price-table.js';
import type { Prices } from '../../src/cost/prices-file.js';
import type { Usage } from '../../src/outcome.js';
import type { PreflightResult } from '../../src/preflight/preflight.js';

const usage = (inputTokens: number): Usage => ({
  inputTokens,
  outputTokens: 0,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 0,
});
const prices: Prices = {
  table: DEFAULT_PRICE_TABLE,
  identity: { source: 'builtin', asOf: DEFAULT_PRICE_TABLE.asOf },
};
/** Gates that ran claude (haiku's round trip) and Codex 0.169.0 (its own round trip). */
const preflight = {
  roundTripUsage: { default: usage(1_000_000) },
  roundTripModels: { default: 'claude-haiku-4-5' },
  agentGates: {
    codex: {
      gates: [],
      interrupted: false,
      conflictAllowed: false,
      version: '0.169.0',
      roundTripUsage: usage(2_000_000),
    },
  },
} as unknown as PreflightResult;
const shape = (models: (string | undefined)[]) => ({ queries: 2, runsPerQuery: 1, sides: 1, models });

describe('planCost with Codex', () => {
  it("prices a Codex model from Codex's round trip, not claude's", () => {
    const plan = planCost(shape(['codex:gpt-5']), false, preflight, prices, 100);
    // gpt-5's input rate is $1.25 per million: two runs of Codex's 2M-token round trip.
    expect(plan.estimate.usd).toBeCloseTo(2 * 2 * 1.25, 9);
    expect(plan.budget?.firstEstimateUsd).toBeCloseTo(2.5, 9);
  });

  it("names Codex's default model when it has no price, with --prices as the fix", () => {
    const refuse = () => planCost(shape(['codex:default']), false, preflight, prices, 5);
    expect(refuse).toThrow('the price table has none for "gpt-6.1-sol"');
    expect(refuse).toThrow('--prices <file>');
    const unknownVersion = {
      ...preflight,
      agentGates: { codex: { ...preflight.agentGates?.codex, version: '9.9.9' } },
    } as PreflightResult;
    expect(() => planCost(shape(['codex:default']), false, unknownVersion, prices, 5)).toThrow(
      '--prices <file>',
    );
  });

  it('with claude and Codex, each slot takes its own agent', () => {
    const plan = planCost(shape([undefined, 'codex:gpt-5']), false, preflight, prices, undefined);
    expect(plan.estimate.models.map((m) => [m.priced, m.usdPerRun])).toEqual([
      ['claude-haiku-4-5', 1],
      ['gpt-5', 2.5],
    ]);
  });
});
