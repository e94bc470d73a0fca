/**
 * Rates for the OpenAI models a Codex run may report, in US dollars per million tokens, from
 * OpenAI's API pricing page as last read in 2025: they could not be re-checked offline, and the
 * models Codex 0.169.0 itself knows (gpt-5.5, gpt-5.6, gpt-6-*) have no rate here (docs/cost.md
 * "OpenAI models"). Joined to the default table (src/cost/price-table.ts).
 */
import type { AgentPriceTable, ModelRates } from '../facts.js';

/**
 * An OpenAI model's rates: no charge for writing the prompt cache (a write is priced as input);
 * cached input is read at the cache-read rate. Codex's usage splits them the same way
 * (src/agents/codex/events.ts).
 */
export function openAi(input: number, output: number, cacheRead: number): ModelRates {
  return { input, output, cacheWrite: input, cacheRead };
}

export const CODEX_PRICE_TABLE: AgentPriceTable = {
  source: "OpenAI's API pricing page (openai.com/api/pricing) as last read in 2025, not re-checked offline",
  models: {
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
  },
};
