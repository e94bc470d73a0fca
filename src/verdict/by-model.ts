import type { EvalItem } from '../inputs/types.js';
import type { Measurement } from '../schemas/report.js';
import { type RuleSettings, type RunRecord, summarizeMeasurement } from './rules.js';

/** One query's runs on one model (`--model a,b`). */
export interface ModelQuery {
  hits: number;
  runs: number;
  /** Misses whose run loaded the stub in a later turn (`--late N`); never hits. */
  late: number;
  timeouts: number;
  errors: number;
  rate: number | null;
  pass: boolean | null;
}

/** One model's side of a measurement: the same rules, applied to its runs alone. */
export interface ModelSummary {
  verdict: Measurement['verdict'];
  noVerdictReasons: string[];
  lostQueries: string[];
  totals: Measurement['totals'];
}

/**
 * Splits a measurement over several models: per query and per model, the counts of its runs, and
 * per model the totals and the no-verdict rule on that model's runs alone (a model that lost too
 * many runs has no verdict even when the others do). Several agents (`--agent a,b`) split the same
 * way, keyed by each run's agent. Pure.
 */
export function summarizeByModel(
  items: EvalItem[],
  records: RunRecord[][],
  models: string[],
  settings: RuleSettings,
  state: Parameters<typeof summarizeMeasurement>[3],
  /** Which of `models` a run belongs to: the model it asked for, or (`--agent a,b`) its agent. */
  keyOf: (run: RunRecord) => string | undefined = (run) => run.requestedModel,
): { queries: Record<string, ModelQuery>[]; models: Record<string, ModelSummary> } {
  const queries: Record<string, ModelQuery>[] = items.map(() => ({}));
  const summaries: Record<string, ModelSummary> = {};
  for (const model of models) {
    const own = records.map((runs) => runs.filter((r) => keyOf(r) === model));
    const measurement = summarizeMeasurement(items, own, settings, state);
    measurement.queries.forEach((q, i) => {
      const row = queries[i];
      if (!row) return;
      row[model] = {
        hits: q.hits,
        runs: q.runs,
        late: (own[i] ?? []).filter((r) => r.late === true).length,
        timeouts: q.timeouts,
        errors: q.errors,
        rate: q.rate,
        pass: q.pass,
      };
    });
    summaries[model] = {
      verdict: measurement.verdict,
      noVerdictReasons: measurement.noVerdictReasons,
      lostQueries: measurement.lostQueries,
      totals: measurement.totals,
    };
  }
  return { queries, models: summaries };
}
