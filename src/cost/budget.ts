import { createHash } from 'node:crypto';
import type { BudgetStop } from '../measure/loop.js';
import { formatUsd } from './cost.js';
import { DEFAULT_PRICE_TABLE } from './price-table.js';
import type { PriceTable } from './prices.js';

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
 * The no-verdict reason of a budget stop. It opens with `budget:` — the machine-readable cause, as
 * `errorCauses` keys open with theirs — and says what was spent against what.
 */
export function budgetReason(stop: BudgetStop): string {
  return `budget: stopped before a run that could take the spend past --max-cost-usd ${formatUsd(stop.maxUsd)} (${formatUsd(stop.spentUsd)} spent, the next run estimated at ${formatUsd(stop.nextEstimateUsd)}); the runs so far are in the report`;
}

/** True for the reason `budgetReason` writes. */
export function isBudgetReason(reason: string): boolean {
  return reason.startsWith('budget:');
}
