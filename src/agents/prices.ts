/**
 * Each agent's price table, in registry order: the rates of the models its runs may report, each
 * table with its own source (src/cost/price-table.ts joins them into the default table).
 */
import { CLAUDE_PRICE_TABLE } from './claude/prices.js';
import { CODEX_PRICE_TABLE } from './codex/prices.js';
import type { AgentPriceTable } from './facts.js';
import { GEMINI_PRICE_TABLE } from './gemini/prices.js';
import type { AgentId } from './ids.js';

export const AGENT_PRICE_TABLES: Readonly<Record<AgentId, AgentPriceTable>> = {
  claude: CLAUDE_PRICE_TABLE,
  codex: CODEX_PRICE_TABLE,
  gemini: GEMINI_PRICE_TABLE,
};
