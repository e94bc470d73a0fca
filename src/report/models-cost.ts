import { costOfMeasurement } from '../cost/measurement-cost.js';
import type { PriceTable } from '../cost/prices.js';
import type { EvalItem } from '../inputs/types.js';
import type { Measurement, ModelSummaryReport } from '../shapes/report.js';
import { summarizeByModel } from '../verdict/by-model.js';
import type { RuleSettings, RunRecord, summarizeMeasurement } from '../verdict/rules.js';

/**
 * The report's issue-14 fields on one measurement (all optional in the schema): per query the late
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
    const split = summarizeByModel(input.items, records, models, input.rules, input.state);
    m.queries.forEach((q, i) => {
      const row = split.queries[i];
      if (!row) return;
      q.byModel = Object.fromEntries(
        Object.entries(row).map(([model, c]) => [
          model,
          { hits: c.hits, runs: c.runs, late: c.late, timeouts: c.timeouts, errors: c.errors },
        ]),
      );
    });
    const byModel: Record<string, ModelSummaryReport> = {};
    for (const [model, summary] of Object.entries(split.models)) {
      const own = records.map((runs) => runs.filter((r) => r.requestedModel === model));
      const priced = input.prices ? costOfMeasurement(own, input.prices, model).total : undefined;
      const late = own.flat().filter((r) => r.late === true).length;
      byModel[model] = {
        ...summary,
        totals: input.lateTurns > 0 ? { ...summary.totals, late } : summary.totals,
        ...(priced && priced.pricedRuns > 0 ? { costUsd: priced.usd } : {}),
      };
    }
    m.byModel = byModel;
    lackingVerdict(m, byModel);
  }
  const agents = input.agents && input.agents.length > 1 ? input.agents : undefined;
  if (agents) {
    const agentOf = (r: RunRecord) => r.agent ?? 'claude';
    const split = summarizeByModel(input.items, records, agents, input.rules, input.state, agentOf);
    m.queries.forEach((q, i) => {
      const row = split.queries[i];
      if (!row) return;
      q.byAgent = Object.fromEntries(
        Object.entries(row).map(([agent, c]) => [
          agent,
          { hits: c.hits, runs: c.runs, late: c.late, timeouts: c.timeouts, errors: c.errors },
        ]),
      );
      q.agents = (records[i] ?? []).map((r) => agentOf(r));
    });
    const byAgent: Record<string, ModelSummaryReport> = {};
    for (const [agent, summary] of Object.entries(split.models)) {
      const own = records.map((runs) => runs.filter((r) => agentOf(r) === agent));
      const priced = input.prices ? costOfMeasurement(own, input.prices).total : undefined;
      const late = own.flat().filter((r) => r.late === true).length;
      byAgent[agent] = {
        ...summary,
        totals: input.lateTurns > 0 ? { ...summary.totals, late } : summary.totals,
        ...(priced && priced.pricedRuns > 0 ? { costUsd: priced.usd } : {}),
      };
    }
    m.byAgent = byAgent;
    lackingVerdict(m, byAgent);
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
