import { describe, expect, it } from 'vitest';
import { costOf, formatUsd } from '../../src/cost/cost.js';
import { DEFAULT_PRICE_TABLE } from '../../src/cost/price-table.js';
import { parsePriceTable, priceFor } from '../../src/cost/prices.js';
import { InputError } from '../../src/errors.js';
import { NO_USAGE } from '../../src/outcome.js';

const usage = (input: number, output: number, cacheRead = 0, cacheWrite = 0) => ({
  ...NO_USAGE,
  inputTokens: input,
  outputTokens: output,
  cacheReadInputTokens: cacheRead,
  cacheCreationInputTokens: cacheWrite,
});

describe('priceFor', () => {
  it('matches the exact id, a dated id and a context suffix to their family', () => {
    expect(priceFor('claude-sonnet-4-5', DEFAULT_PRICE_TABLE)?.id).toBe('claude-sonnet-4-5');
    expect(priceFor('claude-haiku-4-5-20251001', DEFAULT_PRICE_TABLE)?.id).toBe('claude-haiku-4-5');
    expect(priceFor('claude-opus-5-5[1m]', DEFAULT_PRICE_TABLE)?.id).toBe('claude-opus-5-5');
  });

  it('takes the longest key, so claude-opus-5-5 is not priced as claude-opus-5', () => {
    expect(priceFor('claude-opus-5-5', DEFAULT_PRICE_TABLE)?.price.input).toBe(4);
    expect(priceFor('claude-opus-5', DEFAULT_PRICE_TABLE)?.price.input).toBe(5);
  });

  it('prices no alias, no unknown id and no id that only shares a prefix without a separator', () => {
    expect(priceFor('sonnet', DEFAULT_PRICE_TABLE)).toBeUndefined();
    expect(priceFor('claude-fable-5-2', DEFAULT_PRICE_TABLE)).toBeUndefined();
    expect(priceFor('claude-opus-55', DEFAULT_PRICE_TABLE)).toBeUndefined();
  });
});

describe('costOf', () => {
  it('prices each kind of token at its own rate', () => {
    // sonnet-4-5: $3 in, $15 out, $3.75 cache write, $0.30 cache read per million.
    const cost = costOf(
      usage(1_000_000, 100_000, 2_000_000, 400_000),
      'claude-sonnet-4-5',
      DEFAULT_PRICE_TABLE,
    );
    expect(cost).toEqual({ kind: 'priced', usd: 3 + 1.5 + 0.6 + 1.5, priceId: 'claude-sonnet-4-5' });
  });

  it('uses the long-prompt rates on every token once the prompt passes the threshold', () => {
    const short = costOf(usage(100_000, 1_000), 'claude-haiku-5-5', DEFAULT_PRICE_TABLE);
    const long = costOf(usage(100_001, 1_000), 'claude-haiku-5-5', DEFAULT_PRICE_TABLE);
    expect(short.kind === 'priced' && short.usd).toBeCloseTo(0.01 + 0.0005, 10);
    expect(long.kind === 'priced' && long.usd).toBeCloseTo(100_001 * 0.5e-6 + 1_000 * 2.5e-6, 10);
  });

  it('says the price is unknown for a model the table lacks, and for a run with no model', () => {
    expect(costOf(usage(10, 1), 'claude-fable-5-2', DEFAULT_PRICE_TABLE)).toEqual({
      kind: 'unknown',
      model: 'claude-fable-5-2',
    });
    expect(costOf(usage(10, 1), undefined, DEFAULT_PRICE_TABLE)).toEqual({ kind: 'unknown', model: null });
  });
});

describe('parsePriceTable', () => {
  it('reads a valid table', () => {
    const table = parsePriceTable(
      JSON.stringify({
        source: 'our gateway',
        asOf: '2026-11-30',
        models: { 'claude-fable-5-2': { input: 10, output: 50, cacheWrite: 12.5, cacheRead: 0.25 } },
      }),
      'prices.json',
    );
    expect(costOf(usage(1_000_000, 0), 'claude-fable-5-2', table)).toMatchObject({ usd: 10 });
  });

  it.each([
    ['{', /prices\.json: not valid JSON/],
    ['[]', /prices\.json: not a valid price table: at the top level/],
    [
      JSON.stringify({
        source: 's',
        asOf: '2026-11-30',
        models: { m: { input: -1, output: 1, cacheWrite: 1, cacheRead: 1 } },
      }),
      /at models\.m\.input/,
    ],
    [
      JSON.stringify({
        source: 's',
        asOf: '2026-11-30',
        models: { m: { input: 1, output: 1, cacheRead: 1 } },
      }),
      /at models\.m\.cacheWrite/,
    ],
    [JSON.stringify({ source: 's', asOf: '30.11.2026', models: {} }), /at asOf/],
    [JSON.stringify({ source: 's', asOf: '2026-11-30', models: {} }), /at models: prices no model/],
  ])('refuses %s with the file and the place', (text, message) => {
    let error: unknown;
    try {
      parsePriceTable(text, 'prices.json');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toMatch(message);
    expect((error as InputError).message).toMatch(/Fix: /);
  });

  it.each([
    [{ source: 's', asOf: '30.11.2026', models: {} }, 'Fix: the table needs "source"'],
    [{ source: 's', asOf: '2026-11-30' }, 'Fix: the table needs "source"'],
    [{ source: 's', asOf: '2026-11-30', models: {}, extra: 1 }, 'Fix: the table needs "source"'],
    [
      {
        source: 's',
        asOf: '2026-11-30',
        models: { 'claude haiku': { input: 1, output: 1, cacheWrite: 1, cacheRead: 1 } },
      },
      'Fix: name each model by its id, in letters, digits and . _ : - only',
    ],
    [
      {
        source: 's',
        asOf: '2026-11-30',
        models: { m: { input: '1', output: 1, cacheWrite: 1, cacheRead: 1 } },
      },
      'Fix: each model needs input, output, cacheWrite and cacheRead',
    ],
  ])('gives the fix for where the defect is: %j', (table, fix) => {
    expect(() => parsePriceTable(JSON.stringify(table), 'prices.json')).toThrow(fix);
  });
});

describe('formatUsd', () => {
  it('shows cents of cents under a dollar and cents above', () => {
    expect(formatUsd(0.012345)).toBe('$0.0123');
    expect(formatUsd(12.345)).toBe('$12.35');
  });
});

describe('OpenAI models (a Codex run)', () => {
  it('a dated or suffixed id is priced as its family; a newer family has no built-in rate', () => {
    expect(priceFor('gpt-5-mini-2025-08-07', DEFAULT_PRICE_TABLE)?.id).toBe('gpt-5-mini');
    expect(priceFor('gpt-5.1-codex', DEFAULT_PRICE_TABLE)?.id).toBe('gpt-5.1');
    expect(priceFor('gpt-5.1-codex-mini', DEFAULT_PRICE_TABLE)?.id).toBe('gpt-5.1-codex-mini');
    expect(priceFor('gpt-5.5', DEFAULT_PRICE_TABLE)).toBeUndefined();
    expect(priceFor('gpt-6-astra', DEFAULT_PRICE_TABLE)).toBeUndefined();
  });

  it("prices Codex's usage: uncached input, cached input at the cache-read rate, output", () => {
    // gpt-5: $1.25 in, $0.125 cached, $10 out per million.
    const cost = costOf(usage(1_000_000, 100_000, 2_000_000), 'gpt-5', DEFAULT_PRICE_TABLE);
    expect(cost).toEqual({ kind: 'priced', usd: expect.closeTo(1.25 + 1 + 0.25, 10), priceId: 'gpt-5' });
  });

  it('--prices still overrides: a table without the model leaves it unpriced', () => {
    const table = parsePriceTable(
      JSON.stringify({
        source: 's',
        asOf: '2026-12-01',
        models: { 'gpt-6-astra': { input: 1, output: 2, cacheWrite: 1, cacheRead: 0.1 } },
      }),
      'p.json',
    );
    expect(priceFor('gpt-6-astra', table)?.price.output).toBe(2);
    expect(priceFor('gpt-5', table)).toBeUndefined();
  });
});
