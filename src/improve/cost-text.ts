import { formatUsd } from '../cost/cost.js';
import type { ImproveReport } from '../schemas/improve.js';

/**
 * What an improve session spent and its budget, in words: the improve Markdown's line and the
 * improve page's (one text, so the two never say it differently). Pure; the text holds numbers
 * only, no user text, and no character Markdown or HTML would read as markup.
 */

/** Said when the session's cost is not known: why, and what prices a model. */
export const PRICE_UNKNOWN_TEXT =
  "Cost: price unknown (a measured run or a rewrite call could not be priced; pass --prices with the model's rates to price it).";

/**
 * The cost line: `Cost: $1.50 of --max-cost-usd $2.00 (measured runs $1.25; 4 rewrite calls
 * $0.2500).`, or the budget and "price unknown" when some run or call had no price. A version 1
 * report records no cost, so its missing cost says nothing (null); a version 2 report without
 * `cost` had an unpriced step (src/improve/budget.ts leaves the cost out then).
 */
export function sessionCostText(report: ImproveReport): string | null {
  const max = report.settings.maxCostUsd;
  const c = report.cost;
  if (c) {
    const budget = max === undefined ? '' : ` of --max-cost-usd ${formatUsd(max)}`;
    return `Cost: ${formatUsd(c.usd)}${budget} (measured runs ${formatUsd(c.measuredUsd)}; ${c.rewriteCalls} rewrite call${c.rewriteCalls === 1 ? '' : 's'} ${formatUsd(c.rewriteUsd)}).`;
  }
  if (report.schemaVersion < 2) return max === undefined ? null : `Budget: --max-cost-usd ${formatUsd(max)}.`;
  return max === undefined
    ? PRICE_UNKNOWN_TEXT
    : `Budget: --max-cost-usd ${formatUsd(max)}. ${PRICE_UNKNOWN_TEXT}`;
}
