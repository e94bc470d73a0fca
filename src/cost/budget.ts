import { createHash } from 'node:crypto';
import { formatUsd } from './cost.js';
import { DEFAULT_PRICE_TABLE } from './price-table.js';
import type { PriceTable } from './prices.js';

/** Why the loop stopped for the budget: what was spent and what the next run was expected to cost. */
export interface BudgetStop {
  spentUsd: number;
  nextEstimateUsd: number;
  maxUsd: number;
}

/**
 * How far a sum of dollar amounts may pass the budget and still fit: a billionth of a dollar, far
 * above the rounding of adding binary floats ($0.20 + $0.10 is $0.30000000000000004) at any budget,
 * far below the price of any run.
 */
const ROUNDING_USD = 1e-9;

/**
 * True when spending `nextUsd` more after `spentUsd` stays within `maxUsd`: the one comparison of
 * every budget check during a run or session (docs/cost.md), so an amount that fits exactly fits.
 */
export function fitsBudget(spentUsd: number, nextUsd: number, maxUsd: number): boolean {
  return spentUsd + nextUsd <= maxUsd + ROUNDING_USD;
}

/** Which price table priced a report: the built-in one, or a `--prices` file (by hash, never by path). */
export interface PricesIdentity {
  source: 'builtin' | 'file';
  /** First 12 hex of the file's SHA-256 (a file only). */
  sha256?: string;
  asOf: string;
}

/** The table in use and its identity: `file` is the `--prices` file's text, absent for the built-in table. */
export function pricesIdentity(table: PriceTable, fileText?: string): PricesIdentity {
  if (fileText === undefined || table === DEFAULT_PRICE_TABLE) return { source: 'builtin', asOf: table.asOf };
  const sha256 = createHash('sha256').update(fileText).digest('hex').slice(0, 12);
  return { source: 'file', sha256, asOf: table.asOf };
}

/**
 * Who set the budget, so a stop names what the user set: `cli`, the `--max-cost-usd` flag (the
 * spend is this measurement's, or its improve session's); `action`, the Action's `max-cost-usd`
 * input (the spend is the job's: every skill measured before this one counts).
 */
export type BudgetSetter = 'cli' | 'action';

/**
 * The no-verdict reason of a budget stop. It opens with `budget:` — the machine-readable cause, as
 * `errorCauses` keys open with theirs — and says what was spent against what, in the words of the
 * face that set the budget (an Action report and comment never name the CLI's flag).
 */
export function budgetReason(stop: BudgetStop, setBy: BudgetSetter): string {
  const max = formatUsd(stop.maxUsd);
  const next = `the next run estimated at ${formatUsd(stop.nextEstimateUsd)}`;
  const tail = 'the runs so far are in the report';
  switch (setBy) {
    case 'cli':
      return `budget: stopped before a run that could take the spend past --max-cost-usd ${max} (${formatUsd(stop.spentUsd)} spent, ${next}); ${tail}`;
    case 'action':
      return `budget: stopped before a run that could take the job's spend past the max-cost-usd input, ${max} (${formatUsd(stop.spentUsd)} spent by the job so far, ${next}); ${tail}`;
  }
}

/** True for the reason `budgetReason` writes. */
export function isBudgetReason(reason: string): boolean {
  return reason.startsWith('budget:');
}
