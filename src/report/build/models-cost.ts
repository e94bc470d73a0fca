import { DEFAULT_AGENT } from '../../agents/registry.js';
import { costOfMeasurement } from '../../cost/measurement-cost.js';
import type { PriceTable } from '../../cost/prices.js';
import type { EvalItem } from '../../inputs/types.js';
import type { Measurement, ModelSummaryReport } from '../../schemas/report.js';
import { summarizeByModel } from '../../verdict/by-model.js';
import type { RuleSettings, RunRecord, summarizeMeasurement } from '../../verdict/rules.js';

/**
 * The report's optional fields for late loads, several models and cost, on one measurement: per query the late
 * count (`--late N`), the counts per model (`--model a,b`) and the cost; per measurement a block per
 * model (the no-verdict rule applied to each model's runs alone, and overall), the cost, and the
 * budget stop. Pure.
 */
export interface ModelsCostInput {
  items: EvalItem[];
  rules: RuleSettings;
  /** Two or more models; absent (or one) = no per-model split. */
  models?: string[];
  lateTurns: number;
  prices?: PriceTable;
  /** `--agent a,b`: two or more agents, each judged on its own runs as models are. */
  agents?: string[];
  /** The one `--model`, priced where a run's init did not report its model. */
  requestedModel?: string;
  state: Parameters<typeof summarizeMeasurement>[3];
}

export function withModelsAndCost(
  measurement: Measurement,
  records: RunRecord[][],
  input: ModelsCostInput,
): Measurement {
  const m: Measurement = { ...measurement, queries: measurement.queries.map((q) => ({ ...q })) };
  if (input.lateTurns > 0) {
    let late = 0;
    m.queries.forEach((q, i) => {
      q.late = (records[i] ?? []).filter((r) => r.late === true).length;
      late += q.late;
    });
    m.totals = { ...m.totals, late };
  }
  const cost = input.prices ? costOfMeasurement(records, input.prices, input.requestedModel) : undefined;
  if (cost) {
    m.queries.forEach((q, i) => {
      const own = cost.queries[i];
      if (!own) return;
      q.runsCostUsd = own.runsUsd;
      if (own.runsUsd.some((usd) => usd !== null)) q.costUsd = own.usd;
    });
    m.cost = cost.total;
  }
  const models = input.models && input.models.length > 1 ? input.models : undefined;
  if (models) {
    const modelOf = (r: RunRecord) => r.requestedModel;
    const split = splitBy(records, input, models, modelOf, (model) => model);
    m.queries.forEach((q, i) => {
      const row = split.rows[i];
      if (row) q.byModel = row;
    });
    m.byModel = split.summaries;
    lackingVerdict(m, split.summaries);
  }
  const agents = input.agents && input.agents.length > 1 ? input.agents : undefined;
  if (agents) {
    const agentOf = (r: RunRecord) => r.agent ?? DEFAULT_AGENT;
    // A run's own model (its init's) prices it; with several agents there is no one `--model`.
    const split = splitBy(records, input, agents, agentOf, () => undefined);
    m.queries.forEach((q, i) => {
      const row = split.rows[i];
      if (!row) return;
      q.byAgent = row;
      q.agents = (records[i] ?? []).map((r) => agentOf(r));
    });
    m.byAgent = split.summaries;
    lackingVerdict(m, split.summaries);
  }
  return m;
}

/**
 * The no-verdict rule holds per model (and per agent) too: one that lost too many runs leaves the
 * measurement without a verdict, its reasons named after it.
 */
function lackingVerdict(m: Measurement, parts: Record<string, ModelSummaryReport>): void {
  const lacking = Object.entries(parts).filter(([, s]) => s.verdict === 'no-verdict');
  if (lacking.length === 0) return;
  const own = lacking.flatMap(([name, s]) => s.noVerdictReasons.map((r) => `${name}: ${r}`));
  m.verdict = 'no-verdict';
  m.noVerdictReasons = [...m.noVerdictReasons, ...own.filter((r) => !m.noVerdictReasons.includes(r))];
}

type QueryCounts = NonNullable<Measurement['queries'][number]['byModel']>;

/**
 * One measurement split by a key of each run (its model, or its agent): per query the counts of
 * each key, and per key the no-verdict rule over its runs alone, with its late count and cost.
 */
function splitBy(
  records: RunRecord[][],
  input: ModelsCostInput,
  keys: string[],
  keyOf: (r: RunRecord) => string | undefined,
  pricedAs: (key: string) => string | undefined,
): { rows: Array<QueryCounts | undefined>; summaries: Record<string, ModelSummaryReport> } {
  const split = summarizeByModel(input.items, records, keys, input.rules, input.state, keyOf);
  const rows = split.queries.map((row) =>
    row
      ? Object.fromEntries(
          Object.entries(row).map(([key, c]) => [
            key,
            { hits: c.hits, runs: c.runs, late: c.late, timeouts: c.timeouts, errors: c.errors },
          ]),
        )
      : undefined,
  );
  const summaries: Record<string, ModelSummaryReport> = {};
  for (const [key, summary] of Object.entries(split.models)) {
    const own = records.map((runs) => runs.filter((r) => keyOf(r) === key));
    const priced = input.prices ? costOfMeasurement(own, input.prices, pricedAs(key)).total : undefined;
    const late = own.flat().filter((r) => r.late === true).length;
    summaries[key] = {
      ...summary,
      totals: input.lateTurns > 0 ? { ...summary.totals, late } : summary.totals,
      ...(priced && priced.pricedRuns > 0 ? { costUsd: priced.usd } : {}),
    };
  }
  return { rows, summaries };
}
