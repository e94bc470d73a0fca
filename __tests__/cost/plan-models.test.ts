import { describe, expect, it } from 'vitest';
import { estimatePlan } from '../../src/cost/estimate.js';
import { planModels, planRoundTrips } from '../../src/cost/plan-models.js';
import { DEFAULT_PRICE_TABLE } from '../../src/cost/price-table.js';
import type { Usage } from '../../src/outcome.js';

const usage = (inputTokens: number): Usage => ({
  inputTokens,
  outputTokens: 0,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 0,
});
/** Claude's gates: haiku's round trip for its default model. */
const claude = { usage: { default: usage(1_000_000) }, models: { default: 'claude-haiku-4-5' } };
/** Codex's round trip: its own tokens, and the default model its version sends. */
const codex = { usage: usage(2_000_000), defaultModel: 'gpt-5' };

describe('planModels', () => {
  it('keys Codex models apart from claude', () => {
    expect(planModels([{ agent: 'claude' }], [undefined, 'x'])).toEqual([undefined, 'x']);
    expect(planModels([{ agent: 'codex' }], [undefined, 'gpt-5'])).toEqual(['codex:default', 'codex:gpt-5']);
  });

  it('with several agents, one slot per agent and its own model (the models asked are not used)', () => {
    expect(planModels([{ agent: 'claude', model: 'm' }, { agent: 'codex' }], [undefined])).toEqual([
      'm',
      'codex:default',
    ]);
    expect(planModels([{ agent: 'codex', model: 'gpt-5' }, { agent: 'claude' }], ['ignored'])).toEqual([
      'codex:gpt-5',
      undefined,
    ]);
  });
});

describe('planRoundTrips', () => {
  it("gives every Codex slot Codex's round trip and prices it as its model, claude's left as they were", () => {
    const trips = planRoundTrips([undefined, 'codex:default', 'codex:gpt-5-mini'], claude, { codex });
    expect(trips.usage).toEqual({
      default: usage(1_000_000),
      'codex:default': usage(2_000_000),
      'codex:gpt-5-mini': usage(2_000_000),
    });
    expect(trips.models).toEqual({
      default: 'claude-haiku-4-5',
      'codex:default': 'gpt-5',
      'codex:gpt-5-mini': 'gpt-5-mini',
    });
  });

  it("prices a Codex run from Codex's tokens: two runs of its 2M-token round trip at gpt-5's $1.25", () => {
    const shape = { queries: 2, runsPerQuery: 1, sides: 1, models: ['codex:default'] };
    const estimate = estimatePlan(
      shape,
      planRoundTrips(shape.models, claude, { codex }),
      DEFAULT_PRICE_TABLE,
    );
    expect(estimate.usd).toBeCloseTo(2 * 2 * 1.25, 9);
  });

  it("leaves Codex's default model unpriced when its version's default is unknown, or without its gate", () => {
    const shape = { queries: 1, runsPerQuery: 1, sides: 1, models: ['codex:default'] };
    const unknownDefault = planRoundTrips(shape.models, {}, { codex: { usage: codex.usage } });
    expect(unknownDefault.models).toEqual({});
    expect(estimatePlan(shape, unknownDefault, DEFAULT_PRICE_TABLE).unknownModels).toEqual(['codex:default']);
    // No Codex round trip at all (claude alone): a stray Codex slot has no usage, so no price.
    expect(planRoundTrips(shape.models, claude, {}).usage).toEqual(claude.usage);
  });

  it('changes nothing for claude alone', () => {
    expect(planRoundTrips([undefined, 'claude-sonnet-4-5'], claude, { codex })).toEqual(claude);
  });
});
