import { describe, expect, it } from 'vitest';
import { type CostSample, checkCost, costCheckNote, costCheckWarnings } from '../../src/cost/cost-check.js';
import type { PriceTable } from '../../src/cost/prices.js';
import { NO_USAGE, type Usage } from '../../src/outcome.js';

// The table under test: haiku at 1/5/1.25/0.1, sonnet at 3/15/3.75/0.3 per million tokens.
const TABLE: PriceTable = {
  source: 'test',
  asOf: '2026-10-24',
  models: {
    'claude-haiku-4-5': { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 },
    'claude-sonnet-4-5': { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 },
  },
};

type Rates = { input: number; output: number; cacheWrite: number; cacheRead: number };

/** A run whose CLI priced it at `cli` rates (its own price list), so its total_cost_usd follows them. */
function run(
  model: string,
  cli: Rates | undefined,
  input: number,
  output: number,
  cacheRead: number,
  cacheWrite: number,
): CostSample {
  const usage: Usage = {
    ...NO_USAGE,
    inputTokens: input,
    outputTokens: output,
    cacheReadInputTokens: cacheRead,
    cacheCreationInputTokens: cacheWrite,
  };
  if (cli) {
    usage.costUsd =
      (input * cli.input + output * cli.output + cacheRead * cli.cacheRead + cacheWrite * cli.cacheWrite) /
      1e6;
  }
  return { model, usage };
}

const HAIKU: Rates = { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 };
const SONNET: Rates = { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 };
/** Three runs of different token mixes, so a single rate's change shows in how the difference scales. */
const mixes = (model: string, cli: Rates) => [
  run(model, cli, 3, 40, 12_000, 2_000),
  run(model, cli, 5, 400, 2_000, 20_000),
  run(model, cli, 800, 90, 30_000, 500),
];

describe('checkCost', () => {
  it('agrees when the CLI priced the runs as the table does, and says on how many runs', () => {
    const check = checkCost(mixes('claude-haiku-4-5-20251001', HAIKU), TABLE);
    expect(check.runs).toBe(3);
    expect(check.models).toHaveLength(1);
    expect(check.models[0]?.differs).toBe(false);
    expect(check.models[0]?.tableUsd).toBeCloseTo(check.models[0]?.cliUsd ?? -1, 12);
    expect(costCheckWarnings(check)).toEqual([]);
    expect(costCheckNote(check)).toBe(" · checked against the CLI's own figure on 3 runs");
  });

  it('names the output rate, and the rate the CLI implies, when only the output rate differs', () => {
    const check = checkCost(mixes('claude-haiku-4-5', { ...HAIKU, output: 4 }), TABLE);
    const m = check.models[0];
    expect(m?.differs).toBe(true);
    expect(m?.suspect?.rate).toBe('output');
    expect(m?.suspect?.tableRate).toBeCloseTo(5, 9);
    expect(m?.suspect?.impliedRate).toBeCloseTo(4, 6);
    expect(m?.suspect?.alsoFits).toEqual([]);
    const [warning, ...more] = costCheckWarnings(check);
    expect(more).toEqual([]);
    expect(warning).toContain('claude-haiku-4-5');
    expect(warning).toContain(`$${m?.tableUsd.toFixed(4)} from the table`);
    expect(warning).toContain(`$${m?.cliUsd.toFixed(4)} from the CLI`);
    expect(warning).toContain(
      "the output rate most likely differs: the table has $5/M, the CLI's figure implies $4/M",
    );
    expect(costCheckNote(check)).toBe('');
  });

  it('names the input rate when only the input rate differs', () => {
    const check = checkCost(mixes('claude-sonnet-4-5', { ...SONNET, input: 6 }), TABLE);
    expect(check.models[0]?.differs).toBe(true);
    expect(check.models[0]?.suspect).toMatchObject({ rate: 'input', tableRate: 3, alsoFits: [] });
    expect(check.models[0]?.suspect?.impliedRate).toBeCloseTo(6, 6);
    expect(costCheckWarnings(check)[0]).toContain('the input rate most likely differs: the table has $3/M');
  });

  it('says which other rates fit as well when one run cannot tell them apart', () => {
    const check = checkCost([run('claude-haiku-4-5', { ...HAIKU, output: 4 }, 3, 40, 12_000, 2_000)], TABLE);
    expect(check.models[0]?.differs).toBe(true);
    expect(check.models[0]?.suspect?.alsoFits.length).toBeGreaterThan(0);
  });

  it('leaves out runs without a reported cost, or without a price, and says nothing of them', () => {
    const check = checkCost(
      [
        run('claude-haiku-4-5', undefined, 3, 40, 12_000, 2_000),
        run('claude-unknown-1', HAIKU, 3, 40, 12_000, 2_000),
        { model: undefined, usage: { ...NO_USAGE, costUsd: 0.5 } },
      ],
      TABLE,
    );
    expect(check).toEqual({ runs: 0, models: [] });
    expect(costCheckWarnings(check)).toEqual([]);
    expect(costCheckNote(check)).toBe('');
  });

  it('checks each model on its own: one agrees, the other warns, naming only that model', () => {
    const check = checkCost(
      [...mixes('claude-haiku-4-5', HAIKU), ...mixes('claude-sonnet-4-5', { ...SONNET, cacheRead: 0.6 })],
      TABLE,
    );
    expect(check.runs).toBe(6);
    expect(check.models.map((m) => [m.model, m.differs])).toEqual([
      ['claude-haiku-4-5', false],
      ['claude-sonnet-4-5', true],
    ]);
    expect(check.models[1]?.suspect?.rate).toBe('cacheRead');
    const warnings = costCheckWarnings(check);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('differ for claude-sonnet-4-5');
    expect(warnings[0]).toContain(
      "the cache read rate most likely differs: the table has $0.3/M, the CLI's figure implies $0.6/M",
    );
    expect(costCheckNote(check)).toBe('');
  });

  it('treats a difference within 1% as agreement', () => {
    const check = checkCost(
      mixes('claude-haiku-4-5', { input: 1.005, output: 5.02, cacheWrite: 1.255, cacheRead: 0.1005 }),
      TABLE,
    );
    expect(check.models[0]?.differs).toBe(false);
  });
});
