/**
 * The default price table: US dollars per million tokens, as Anthropic's pricing pages listed them
 * on 2026-10-24 (the model overview pages of platform.claude.com: "Pricing" of each model; Sonnet
 * 5.5's cache-read price as cut on 2026-10-07). The OpenAI models a Codex run may report come
 * from OpenAI's API pricing page as last read in 2025 and could not be re-checked offline; the
 * models Codex 0.169.0 itself knows (gpt-5.5, gpt-5.6, gpt-6-*) have no rate here (docs/cost.md
 * "OpenAI models"). The Gemini models a Gemini CLI run may report come from gemini-prices.ts, with its
 * own source. A run's cost is priced from the usage the stream
 * carried up to the decision (src/cost/cost.ts). Pass `--prices <file>` (the same shape, as JSON;
 * docs/cost.md) to price other models or other rates — a gateway's, a discount, a newer model.
 *
 * Keys are model ids; a reported model matches the longest key it starts with, so
 * `claude-haiku-4-5-20251001` and `claude-opus-5-5[1m]` are priced as their family. Cache writes
 * are priced at the 5-minute rate: the stream's usage does not say which lifetime the CLI asked for.
 */
import { GEMINI_PRICE_TABLE } from './gemini-prices.js';
import type { ModelPrice, PriceTable } from './prices.js';

/**
 * An OpenAI model's rates: no charge for writing the prompt cache (a write is priced as input);
 * cached input is read at the cache-read rate. Codex's usage splits them the same way
 * (src/agents/codex/events.ts).
 */
export function openAi(input: number, output: number, cacheRead: number): ModelPrice {
  return { input, output, cacheWrite: input, cacheRead };
}

export const DEFAULT_PRICE_TABLE: PriceTable = {
  source: `Anthropic's model pricing pages (platform.claude.com), as listed on 2026-10-24; OpenAI's API pricing page (openai.com/api/pricing) as last read in 2025, not re-checked offline; ${GEMINI_PRICE_TABLE.source}`,
  asOf: '2026-10-24',
  models: {
    'claude-fable-5-1': { input: 10, output: 50, cacheWrite: 12.5, cacheRead: 0.25 },
    'claude-opus-5-5': { input: 4, output: 20, cacheWrite: 5, cacheRead: 0.2 },
    'claude-opus-5': { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 },
    'claude-sonnet-5-5': { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.1 },
    'claude-sonnet-5': { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.2 },
    'claude-haiku-5-5': {
      input: 0.1,
      output: 0.5,
      cacheWrite: 0.125,
      cacheRead: 0.01,
      // A request whose prompt (input + cache reads + cache writes) passes 100,000 tokens pays
      // these rates on all of its tokens.
      longPrompt: { thresholdTokens: 100_000, input: 0.5, output: 2.5, cacheWrite: 0.625, cacheRead: 0.05 },
    },
    'claude-opus-4-5': { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 },
    'claude-sonnet-4-5': { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 },
    'claude-haiku-4-5': { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 },
    'claude-3-5-haiku': { input: 0.8, output: 4, cacheWrite: 1, cacheRead: 0.08 },
    'gpt-5': openAi(1.25, 10, 0.125),
    'gpt-5-codex': openAi(1.25, 10, 0.125),
    'gpt-5-mini': openAi(0.25, 2, 0.025),
    'gpt-5-nano': openAi(0.05, 0.4, 0.005),
    'gpt-5.1': openAi(1.25, 10, 0.125),
    'gpt-5.1-codex-mini': openAi(0.25, 2, 0.025),
    'gpt-4.1': openAi(2, 8, 0.5),
    'gpt-4.1-mini': openAi(0.4, 1.6, 0.1),
    o3: openAi(2, 8, 0.5),
    'o4-mini': openAi(1.1, 4.4, 0.275),
    ...GEMINI_PRICE_TABLE.models,
  },
};
