import { describe, expect, it } from 'vitest';
import {
  planSessionCost,
  REWRITE_OUTPUT_TOKENS,
  type SessionShapeInput,
} from '../../src/cli/improve-cost.js';
import { costOf } from '../../src/cost/cost.js';
import { DEFAULT_PRICE_TABLE } from '../../src/cost/price-table.js';
import { loadPrices } from '../../src/cost/prices-file.js';
import { UsageError } from '../../src/errors.js';
import type { EvalItem } from '../../src/inputs/types.js';
import type { PreflightResult } from '../../src/preflight/preflight.js';

/** `improve --max-cost-usd`: the whole session estimated (runs and rewrite calls), refused with what it buys. */
const HAIKU = 'claude-haiku-4-5';
const usage = { inputTokens: 10_000, outputTokens: 5, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
const preflight: PreflightResult = {
  gates: [],
  passed: true,
  interrupted: false,
  conflictAllowed: false,
  reminders: [],
  release: () => {},
  roundTripUsage: { [HAIKU]: usage },
  roundTripModels: { [HAIKU]: HAIKU },
};
const item = (id: string, shouldTrigger: boolean, holdout = false): EvalItem => ({
  id,
  query: `query ${id}`,
  shouldTrigger,
  extra: holdout ? { split: 'holdout' } : {},
});
const shape: SessionShapeInput = {
  skillName: 'handoff',
  body: '# handoff\n\nBody.',
  train: [item('a', true), item('b', false)],
  holdout: [item('c', true, true), item('d', false, true)],
  iterations: 4,
  runsPerQuery: 2,
  model: HAIKU,
};
const usd = (u: typeof usage) => {
  const c = costOf(u, HAIKU, DEFAULT_PRICE_TABLE);
  return c.kind === 'priced' ? c.usd : Number.NaN;
};

describe('planSessionCost', () => {
  it('prices each measured run’s context: an entry’s own, else --context’s, in every phase', async () => {
    const prices = await loadPrices(undefined);
    const fresh = planSessionCost(shape, false, preflight, prices, undefined).plan;
    // 3,000 characters: 1,000 tokens at haiku 4.5's cache write ($1.25 a million) on every run.
    const turns = [
      { role: 'user' as const, content: 'x'.repeat(1500) },
      { role: 'assistant' as const, content: 'y'.repeat(1500) },
    ];
    const perRun = (1000 * 1.25) / 1e6;
    const all = planSessionCost({ ...shape, context: turns }, false, preflight, prices, undefined).plan;
    expect((all?.measuredUsd ?? 0) - (fresh?.measuredUsd ?? 0)).toBeCloseTo(48 * perRun, 12);
    // One train entry with its own context (a, in the original and in every iteration's pair).
    const own = {
      ...shape,
      train: [{ ...item('a', true), context: { turns } }, item('b', false)],
    };
    const one = planSessionCost(own, false, preflight, prices, undefined).plan;
    expect((one?.measuredUsd ?? 0) - (fresh?.measuredUsd ?? 0)).toBeCloseTo((1 + 4 * 2) * 2 * perRun, 12);
  });

  it('counts the original, every paired candidate, the holdout check and the rewrite calls', async () => {
    const prices = await loadPrices(undefined);
    const { plan } = planSessionCost(shape, false, preflight, prices, undefined);
    // (4 + 4 × 2×2 + 2×2) queries × 2 runs.
    expect(plan?.runs).toBe((4 + 16 + 4) * 2);
    expect(plan?.rewriteCalls).toBe(4);
    // A rewrite call: the round trip, plus the prompt and an answer of REWRITE_OUTPUT_TOKENS.
    expect(plan?.rewriteUsd).toBeGreaterThan(
      usd(usage) + usd({ ...usage, inputTokens: 0, outputTokens: REWRITE_OUTPUT_TOKENS }),
    );
    expect(plan?.usd).toBeCloseTo((plan?.measuredUsd ?? 0) + 4 * (plan?.rewriteUsd ?? 0), 12);
  });

  it('refuses a budget the session passes, saying how many iterations it buys, and the fix', async () => {
    const prices = await loadPrices(undefined);
    const { plan } = planSessionCost(shape, false, preflight, prices, undefined);
    const perRun = (plan?.measuredUsd ?? 0) / (plan?.runs ?? 1);
    // The original (8 runs) and the holdout check (8), and two iterations (8 runs and a call each), with a little over.
    const two = 16 * perRun + 2 * (8 * perRun + (plan?.rewriteUsd ?? 0)) + perRun / 2;
    expect(() => planSessionCost(shape, false, preflight, prices, two)).toThrow(UsageError);
    expect(() => planSessionCost(shape, false, preflight, prices, two)).toThrow(
      /which buys the original's measurement, 2 of the 4 iterations and the holdout check; nothing was measured\. Fix: raise --max-cost-usd, or plan less \(--iterations 2, /,
    );
    const within = planSessionCost(shape, false, preflight, prices, (plan?.usd ?? 0) + 0.01);
    expect(within.budget).toMatchObject({ rewriteUsd: plan?.rewriteUsd });
    expect(within.budget?.firstRunUsd).toBeCloseTo(usd(usage), 12);
  });

  it('refuses a model without a price, naming it', async () => {
    const prices = await loadPrices(undefined);
    const unknown = { ...preflight, roundTripModels: { [HAIKU]: 'claude-nova-9' } };
    expect(() => planSessionCost(shape, false, unknown, prices, 5)).toThrow(/none for "claude-nova-9"/);
    expect(planSessionCost(shape, false, unknown, prices, undefined).plan).toBeUndefined();
  });
});
