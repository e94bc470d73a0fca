import { describe, expect, it } from 'vitest';
import { budgetReason, isBudgetReason, pricesIdentity } from '../../src/cost/budget.js';
import { costOf } from '../../src/cost/cost.js';
import {
  contextTokens,
  dearestRunUsd,
  estimatePlan,
  renderPlan,
  runsAffordable,
} from '../../src/cost/estimate.js';
import { DEFAULT_PRICE_TABLE } from '../../src/cost/price-table.js';

/** The plan's estimate from the round trips (`--dry-run`, `--max-cost-usd`). Pure. */
const usage = {
  inputTokens: 2000,
  outputTokens: 10,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 20_000,
};
const priced = (u: typeof usage, model: string) => {
  const c = costOf(u, model, DEFAULT_PRICE_TABLE);
  if (c.kind !== 'priced') throw new Error('unpriced');
  return c.usd;
};

describe('estimatePlan', () => {
  it('prices the first run as the round trip and every later one with its cache writes read', () => {
    const shape = {
      queries: 3,
      runsPerQuery: 2,
      sides: 2,
      models: ['claude-haiku-4-5', 'claude-sonnet-4-5'],
    };
    const estimate = estimatePlan(
      shape,
      { usage: { 'claude-haiku-4-5': usage, 'claude-sonnet-4-5': usage } },
      DEFAULT_PRICE_TABLE,
    );
    expect(estimate.runs).toBe(24);
    const warm = { ...usage, cacheReadInputTokens: 20_000, cacheCreationInputTokens: 0 };
    for (const m of estimate.models) {
      expect(m.runs).toBe(12);
      expect(m.usd).toBeCloseTo(priced(usage, m.model) + 11 * priced(warm, m.model), 12);
    }
    expect(estimate.usd).toBeCloseTo((estimate.models[0]?.usd ?? 0) + (estimate.models[1]?.usd ?? 0), 12);
    expect(dearestRunUsd(estimate)).toBeCloseTo(priced(usage, 'claude-sonnet-4-5'), 12);
    expect(renderPlan(shape, estimate, false)[0]).toBe(
      'plan: 3 queries × 2 runs × 2 models × 2 sides = 24 runs',
    );
  });

  it('prices claude’s default as the model its round trip reported; an unknown model has no estimate', () => {
    const known = estimatePlan(
      { queries: 1, runsPerQuery: 1, sides: 1, models: [undefined] },
      { usage: { default: usage }, models: { default: 'claude-sonnet-4-5-20250929' } },
      DEFAULT_PRICE_TABLE,
    );
    expect(known.usd).toBeCloseTo(priced(usage, 'claude-sonnet-4-5'), 12);
    const unknown = estimatePlan(
      { queries: 1, runsPerQuery: 1, sides: 1, models: ['claude-nova-9'] },
      { usage: { 'claude-nova-9': usage } },
      DEFAULT_PRICE_TABLE,
    );
    expect(unknown.usd).toBeNull();
    expect(unknown.unknownModels).toEqual(['claude-nova-9']);
    expect(runsAffordable(unknown, 10)).toBe(0);
  });

  it('says how many runs a budget buys, at the plan’s average run', () => {
    const estimate = estimatePlan(
      { queries: 10, runsPerQuery: 1, sides: 1, models: ['claude-haiku-4-5'] },
      { usage: { 'claude-haiku-4-5': { ...usage, cacheCreationInputTokens: 0 } } },
      DEFAULT_PRICE_TABLE,
    );
    const perRun = (estimate.usd ?? 0) / 10;
    expect(runsAffordable(estimate, perRun * 4.5)).toBe(4);
    expect(runsAffordable(estimate, perRun * 100)).toBe(10);
  });
});

describe('estimatePlan with contexts', () => {
  const haiku = { usage: { 'claude-haiku-4-5': usage } };
  const warm = { ...usage, cacheReadInputTokens: 20_000, cacheCreationInputTokens: 0 };
  const plus = (u: typeof usage, tokens: number) => ({
    ...u,
    cacheCreationInputTokens: u.cacheCreationInputTokens + tokens,
  });

  it('turns a context’s characters into tokens at three characters a token, rounded up', () => {
    expect(contextTokens(20_000)).toBe(6667);
    expect(contextTokens(3)).toBe(1);
    expect(contextTokens(0)).toBe(0);
  });

  it('adds each run’s context to its prompt, read on every run, at the cache-write rate when it is the dearer', () => {
    // Two queries with a 20,000-character fill and two fresh, two runs each.
    const shape = {
      queries: 4,
      runsPerQuery: 2,
      sides: 1,
      models: ['claude-haiku-4-5'],
      contextChars: [20_000, 0, 20_000, 0],
    };
    const estimate = estimatePlan(shape, haiku, DEFAULT_PRICE_TABLE);
    const m = estimate.models[0];
    const expected =
      priced(plus(usage, 6667), 'claude-haiku-4-5') +
      3 * priced(plus(warm, 6667), 'claude-haiku-4-5') +
      4 * priced(warm, 'claude-haiku-4-5');
    expect(m?.usd).toBeCloseTo(expected, 12);
    // Four runs carry 6,667 tokens each at haiku 4.5's $1.25 cache write (its input is $1).
    expect(m?.contextUsd).toBeCloseTo((4 * 6667 * 1.25) / 1e6, 12);
    // The first run and the later ones without a context are as before; the dearest run carries the largest context.
    expect(m?.usdPerRun).toBeCloseTo(priced(usage, 'claude-haiku-4-5'), 12);
    expect(dearestRunUsd(estimate)).toBeCloseTo(priced(plus(usage, 6667), 'claude-haiku-4-5'), 12);
    const fresh = estimatePlan({ ...shape, contextChars: undefined }, haiku, DEFAULT_PRICE_TABLE);
    expect(estimate.usd).toBeGreaterThan(fresh.usd ?? Number.POSITIVE_INFINITY);
    expect(fresh.models[0]?.contextUsd).toBeUndefined();
    expect(dearestRunUsd(fresh)).toBeCloseTo(priced(usage, 'claude-haiku-4-5'), 12);
  });

  it('counts a query measured both ways (--versus-fresh) as two: one fresh, one with its context', () => {
    const shape = (contextChars: number[]) => ({
      queries: contextChars.length,
      runsPerQuery: 1,
      sides: 1,
      models: ['claude-haiku-4-5'],
      contextChars,
    });
    const once = estimatePlan(shape([20_000]), haiku, DEFAULT_PRICE_TABLE);
    const twice = estimatePlan(shape([0, 20_000]), haiku, DEFAULT_PRICE_TABLE);
    expect(twice.runs).toBe(2);
    expect((twice.usd ?? 0) - (once.usd ?? 0)).toBeCloseTo(priced(warm, 'claude-haiku-4-5'), 12);
    expect(twice.models[0]?.contextUsd).toBeCloseTo(once.models[0]?.contextUsd ?? -1, 12);
  });

  it('prices at the input rate when a table makes it the dearer, and lets a context pass a long-prompt threshold', () => {
    const table = {
      ...DEFAULT_PRICE_TABLE,
      models: { gateway: { input: 2, output: 10, cacheWrite: 1, cacheRead: 0.1 } },
    };
    const bare = { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
    const estimate = estimatePlan(
      { queries: 1, runsPerQuery: 1, sides: 1, models: ['gateway'], contextChars: [3000] },
      { usage: { gateway: bare } },
      table,
    );
    expect(estimate.usd).toBeCloseTo((1000 * 2) / 1e6, 12);
    // haiku 5.5 pays its long-prompt rates on every token once the prompt passes 100,000 tokens.
    const near = { ...bare, inputTokens: 99_000 };
    const long = estimatePlan(
      { queries: 1, runsPerQuery: 1, sides: 1, models: ['claude-haiku-5-5'], contextChars: [6000] },
      { usage: { 'claude-haiku-5-5': near } },
      DEFAULT_PRICE_TABLE,
    );
    expect(long.usd).toBeCloseTo((99_000 * 0.5 + 2000 * 0.625) / 1e6, 12);
  });

  it('says the contexts in the plan and in each model’s line', () => {
    const shape = {
      queries: 2,
      runsPerQuery: 3,
      sides: 1,
      models: ['claude-haiku-4-5'],
      contextChars: [0, 20_000],
    };
    const lines = renderPlan(shape, estimatePlan(shape, haiku, DEFAULT_PRICE_TABLE), false);
    expect(lines[1]).toBe(
      'contexts: 3 of the runs start with a context, 20,001 tokens of earlier turns in all (3 characters a token), each read at the dearer of the input and cache-write rates',
    );
    expect(lines[2]).toMatch(
      /^estimate claude-haiku-4-5: 6 runs, the first \$[\d.]+, then \$[\d.]+ each \(the prompt cache warm\), plus \$0\.0250 for the contexts = \$[\d.]+$/,
    );
  });
});

describe('the budget reason and the price table identity', () => {
  it('says what the user set: the CLI flag and its spend, or the Action input and the job’s spend', () => {
    const stop = { spentUsd: 0.5, nextEstimateUsd: 0.2, maxUsd: 0.6 };
    expect(budgetReason(stop, 'cli')).toBe(
      'budget: stopped before a run that could take the spend past --max-cost-usd $0.6000 ($0.5000 spent, the next run estimated at $0.2000); the runs so far are in the report',
    );
    const action = budgetReason(stop, 'action');
    expect(action).toBe(
      "budget: stopped before a run that could take the job's spend past the max-cost-usd input, $0.6000 ($0.5000 spent by the job so far, the next run estimated at $0.2000); the runs so far are in the report",
    );
    // An Action report or comment never names the CLI's flag; the cause stays machine-readable.
    expect(action).not.toContain('--');
    expect(isBudgetReason(action)).toBe(true);
  });

  it('opens the reason with budget: and names the table by hash, never by path', () => {
    const reason = budgetReason({ spentUsd: 0.5, nextEstimateUsd: 0.2, maxUsd: 0.6 }, 'cli');
    expect(isBudgetReason(reason)).toBe(true);
    expect(reason).toContain('--max-cost-usd $0.6000');
    expect(pricesIdentity(DEFAULT_PRICE_TABLE)).toEqual({
      source: 'builtin',
      asOf: DEFAULT_PRICE_TABLE.asOf,
    });
    const file = pricesIdentity({ ...DEFAULT_PRICE_TABLE }, '{"x":1}');
    expect(file.source).toBe('file');
    expect(file.sha256).toMatch(/^[0-9a-f]{12}$/);
  });
});
