/**
 * The default price table: US dollars per million tokens, every agent's own table joined in
 * registry order, each from its own source (src/agents/<id>/prices.ts). A run's cost is priced
 * from the usage the stream carried up to the decision (src/cost/cost.ts). Pass `--prices <file>` (the same shape, as JSON;
 * docs/cost.md) to price other models or other rates — a gateway's, a discount, a newer model.
 *
 * Keys are model ids; a reported model matches the longest key it starts with, so
 * a dated or bracketed spelling of a model (`…-20251001`, `…[1m]`) is priced as its family.
 */
import { AGENT_PRICE_TABLES } from '../agents/prices.js';
import type { PriceTable } from './prices.js';

const tables = Object.values(AGENT_PRICE_TABLES);

export const DEFAULT_PRICE_TABLE: PriceTable = {
  source: tables.map((t) => t.source).join('; '),
  // The newest day an agent's table gives.
  asOf:
    tables
      .flatMap((t) => (t.asOf ? [t.asOf] : []))
      .sort()
      .at(-1) ?? '',
  models: Object.assign({}, ...tables.map((t) => t.models)),
};
