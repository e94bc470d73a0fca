/**
 * Rates for the Claude models a Claude Code run may report, in US dollars per million tokens, as
 * Anthropic's pricing pages listed them on 2026-10-24 (the model overview pages of
 * platform.claude.com: "Pricing" of each model; Sonnet 5.5's cache-read price as cut on
 * 2026-10-07), joined to the default table (src/cost/price-table.ts). Cache writes are priced at
 * the 5-minute rate: the stream's usage does not say which lifetime the CLI asked for.
 */
import type { AgentPriceTable } from '../facts.js';

export const CLAUDE_PRICE_TABLE: AgentPriceTable = {
  source: "Anthropic's model pricing pages (platform.claude.com), as listed on 2026-10-24",
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
  },
};
