import { describe, expect, it } from 'vitest';
import { openAi } from '../../src/agents/codex/prices.js';
import { DEFAULT_PRICE_TABLE } from '../../src/cost/price-table.js';
import { priceTableSchema } from '../../src/cost/prices.js';

describe('openAi', () => {
  it('prices a cache write as input, and keeps the cache-read rate apart', () => {
    expect(openAi(1.25, 10, 0.125)).toStrictEqual({
      input: 1.25,
      output: 10,
      cacheWrite: 1.25,
      cacheRead: 0.125,
    });
  });
});

describe('DEFAULT_PRICE_TABLE', () => {
  it('is a valid price file', () => {
    expect(priceTableSchema.parse(DEFAULT_PRICE_TABLE)).toStrictEqual(DEFAULT_PRICE_TABLE);
  });

  it("an OpenAI model's cache write costs its input; a Claude model's costs more (the 5-minute rate)", () => {
    for (const [id, price] of Object.entries(DEFAULT_PRICE_TABLE.models)) {
      if (id.startsWith('claude-')) expect(price.cacheWrite, id).toBeGreaterThan(price.input);
      else expect(price.cacheWrite, id).toBe(price.input);
    }
  });
});
