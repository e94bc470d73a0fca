import { describe, expect, it } from 'vitest';
import { GEMINI_PRICE_TABLE } from '../../../src/agents/gemini/prices.js';
import { priceTableSchema } from '../../../src/cost/prices.js';

describe('GEMINI_PRICE_TABLE', () => {
  it('is a valid price file', () => {
    expect(priceTableSchema.parse(GEMINI_PRICE_TABLE)).toStrictEqual(GEMINI_PRICE_TABLE);
  });

  it('prices a cache write as input, a cache read below it, and a long Pro prompt higher', () => {
    for (const [id, price] of Object.entries(GEMINI_PRICE_TABLE.models)) {
      expect(price.cacheWrite, id).toBe(price.input);
      expect(price.cacheRead, id).toBeLessThan(price.input);
      if (price.longPrompt) expect(price.longPrompt.input, id).toBeGreaterThan(price.input);
    }
  });
});
