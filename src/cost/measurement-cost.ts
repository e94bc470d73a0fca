import type { RunRecord } from '../verdict/rules.js';
import { costOf, type RunCost } from './cost.js';
import { type CostCheck, checkCost } from './cost-check.js';
import type { PriceTable } from './prices.js';

/** The cost of one query's runs, and of a whole measurement, as the report carries them. */
export interface QueryCost {
  /** Each run's cost in dollars, in run order; null where the model's price is unknown. */
  runsUsd: (number | null)[];
  /** The sum of the priced runs. */
  usd: number;
}

export interface MeasurementCost {
  /** The sum over every priced run. */
  usd: number;
  pricedRuns: number;
  /** Runs whose model has no price in the table (their tokens are still in `usage`). */
  unpricedRuns: number;
  /** The models without a price, for the "price unknown" note. */
  unknownModels: string[];
  /** Dollars per model, keyed by the model the run reported (else the one it asked for). */
  byModel: Record<string, number>;
  /** The table checked against the CLI's own figure, on the runs that reached their result event; absent when none did. */
  check?: CostCheck;
}

/** The model a run is priced as: what its init event reported, else what it asked for. */
export function pricedModel(run: RunRecord, requested: string | undefined): string | undefined {
  return run.model ?? run.requestedModel ?? requested;
}

/** Prices every run of every query (`records[i]` = query i's runs). Pure. */
export function costOfMeasurement(
  records: RunRecord[][],
  table: PriceTable,
  requestedModel?: string,
): { queries: QueryCost[]; total: MeasurementCost } {
  const total: MeasurementCost = { usd: 0, pricedRuns: 0, unpricedRuns: 0, unknownModels: [], byModel: {} };
  const unknown = new Set<string>();
  const queries = records.map((runs) => {
    const runsUsd = runs.map((run) => {
      const model = pricedModel(run, requestedModel);
      const cost: RunCost = costOf(run.usage, model, table);
      if (cost.kind === 'unknown') {
        total.unpricedRuns++;
        unknown.add(model ?? 'unreported');
        return null;
      }
      total.pricedRuns++;
      total.usd += cost.usd;
      const key = model ?? cost.priceId;
      total.byModel[key] = (total.byModel[key] ?? 0) + cost.usd;
      return cost.usd;
    });
    return { runsUsd, usd: runsUsd.reduce<number>((sum, usd) => sum + (usd ?? 0), 0) };
  });
  total.unknownModels = [...unknown].sort();
  const check = checkCost(
    records.flat().map((run) => ({ model: pricedModel(run, requestedModel), usage: run.usage })),
    table,
  );
  if (check.runs > 0) total.check = check;
  return { queries, total };
}
