import type { Usage } from '../outcome.js';
import { type PriceTable, priceFor } from './prices.js';

/** A run's cost: dollars, or why it has none. */
export type RunCost =
  | { kind: 'priced'; usd: number; priceId: string }
  | { kind: 'unknown'; model: string | null };

const PER_TOKEN = 1 / 1_000_000;

/**
 * What the usage costs at `model`'s rates. The usage is what the stream carried up to the
 * decision: for a run stopped at a Skill call that is the whole prompt (the bulk of the bill) and
 * the output streamed so far, which is what the API charges for a request cut off there.
 */
export function costOf(usage: Usage, model: string | null | undefined, table: PriceTable): RunCost {
  const found = model ? priceFor(model, table) : undefined;
  if (!found) return { kind: 'unknown', model: model ?? null };
  const { price } = found;
  const prompt = usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens;
  const rates = price.longPrompt && prompt > price.longPrompt.thresholdTokens ? price.longPrompt : price;
  const usd =
    (usage.inputTokens * rates.input +
      usage.outputTokens * rates.output +
      usage.cacheCreationInputTokens * rates.cacheWrite +
      usage.cacheReadInputTokens * rates.cacheRead) *
    PER_TOKEN;
  return { kind: 'priced', usd, priceId: found.id };
}

/** Dollars as people read them: four decimals under a dollar, two above. */
export function formatUsd(usd: number): string {
  return usd < 1 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}
