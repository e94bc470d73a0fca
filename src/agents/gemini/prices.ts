/**
 * Rates for the Gemini models a Gemini CLI run may report, in US dollars per million tokens, as a
 * price table of their own, joined to the default table (src/cost/price-table.ts). Google's Gemini Developer API pricing page (ai.google.dev/gemini-api/docs/pricing) was not
 * reachable from the machines that build this table: the rates are the page's as third-party
 * summaries quoted it in January 2026 (docs/gemini.md "Prices"). Check them against the page before
 * relying on a Gemini cost, and pass `--prices` with your own rates when they differ.
 *
 * - Gemini's usage counts cached prompt tokens inside the prompt (`cached` in stream-json's stats),
 *   priced at `cacheRead`; implicit caching has no write charge, so `cacheWrite` equals `input`.
 * - The Pro models charge more for a request whose prompt passes 200,000 tokens (`longPrompt`).
 * - Gemini CLI 0.61.0 reports tokens only in its final `result` event: a run killed at its decision
 *   carries none, as with Codex.
 */
import type { AgentPriceTable, ModelRates } from '../facts.js';

export function google(input: number, output: number, cacheRead: number): ModelRates {
  return { input, output, cacheWrite: input, cacheRead };
}

function longPrompt(short: ModelRates, long: ModelRates): ModelRates {
  return { ...short, longPrompt: { thresholdTokens: 200_000, ...long } };
}

export const GEMINI_PRICE_TABLE: AgentPriceTable = {
  source:
    "Google's Gemini Developer API pricing page (ai.google.dev/gemini-api/docs/pricing) as third-party summaries quoted it in January 2026, not re-checked offline",
  asOf: '2026-01-08',
  models: {
    'gemini-3-pro-preview': longPrompt(google(2, 12, 0.2), google(4, 18, 0.4)),
    'gemini-2.5-pro': longPrompt(google(1.25, 10, 0.125), google(2.5, 15, 0.25)),
    'gemini-2.5-flash': google(0.3, 2.5, 0.03),
    'gemini-2.5-flash-lite': google(0.1, 0.4, 0.01),
    'gemini-2.0-flash': google(0.1, 0.4, 0.025),
  },
};
