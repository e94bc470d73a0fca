import type { Measurement, PairedByModel, Report } from '../schemas/report.js';
import { queryPasses } from '../verdict/rules.js';
import {
  type ClassComparison,
  type CompareOptions,
  type Comparison,
  type ComparisonLabel,
  type ComparisonWarning,
  compareMeasurements,
  compareReport,
  compareReports,
} from './compare.js';

/**
 * `compare` model by model (`--model a,b`): each model the two sides share is compared on
 * its own runs alone, and a difference in the model sets is a warning. The pooled comparison of
 * compare.ts stays as it is; this module only cuts a measurement down to one model first.
 */

/** The models a report measured: `settings.models`, else the one asked for (or `default`). */
export function modelsOf(report: Report): string[] {
  return report.settings.models ?? [report.model.requested ?? 'default'];
}

/** True when either report measured several models: then `compare` reports model by model. */
export function hasSeveralModels(...reports: Report[]): boolean {
  return reports.some((r) => (r.settings.models?.length ?? 0) > 1);
}

/**
 * One model's share of a measurement: each query's hits and runs on that model (`byModel`), and
 * that model's verdict and totals. A measurement of one model is that model's already.
 */
export function measurementOfModel(m: Measurement, model: string, threshold: number): Measurement {
  const own = m.byModel?.[model];
  if (!m.byModel || !own) return m;
  return {
    ...m,
    verdict: own.verdict,
    noVerdictReasons: own.noVerdictReasons,
    lostQueries: own.lostQueries,
    totals: own.totals,
    queries: m.queries.map((q) => {
      const c = q.byModel?.[model] ?? { hits: 0, runs: 0, late: 0, timeouts: 0, errors: 0 };
      const rate = c.runs === 0 ? null : c.hits / c.runs;
      return {
        ...q,
        // The per-run lists hold every model's runs; only the counts are this model's.
        hits: c.hits,
        runs: c.runs,
        timeouts: c.timeouts,
        errors: c.errors,
        rate,
        pass: queryPasses(q.shouldTrigger, rate, threshold),
      };
    }),
  };
}

export interface ModelComparison {
  model: string;
  comparison: Comparison;
}

export interface ModelsComparison {
  /** The models both sides measured, in the baseline's order. */
  models: ModelComparison[];
  /** The model sets differ: what only one side measured (not compared). */
  warnings: ComparisonWarning[];
}

function setsWarning(
  base: string[],
  cand: string[],
  names: { base: string; cand: string },
  split: 'model' | 'agent',
): ComparisonWarning[] {
  const onlyBase = base.filter((m) => !cand.includes(m));
  const onlyCand = cand.filter((m) => !base.includes(m));
  if (onlyBase.length === 0 && onlyCand.length === 0) return [];
  const list = (ms: string[]) => (ms.length === 0 ? 'none' : ms.join(', '));
  return [
    {
      code: split === 'agent' ? 'agents-differ' : 'models-differ',
      message: `the ${split} sets differ (only in ${names.base}: ${list(onlyBase)}; only in ${names.cand}: ${list(onlyCand)}): only the ${split}s both measured are compared`,
    },
  ];
}

/**
 * Two reports, model by model (a = baseline, b = candidate). `split: 'agent'` when the reports are
 * several agents read as models (compare/by-agent.ts): only the warning's words change.
 */
export function compareReportsByModel(
  a: Report,
  b: Report,
  opts: CompareOptions = {},
  split: 'model' | 'agent' = 'model',
): ModelsComparison {
  const names = opts.names ?? { base: 'baseline', cand: 'candidate' };
  const shared = modelsOf(a).filter((m) => modelsOf(b).includes(m));
  // The environment is compared once, on the whole reports; each model then compares its own counts.
  const environment = compareReports(a, b, opts).warnings.filter((w) => w.code !== 'model-requested');
  return {
    models: shared.map((model) => {
      const comparison = compareMeasurements(
        measurementOfModel(a.candidate, model, a.settings.triggerThreshold),
        measurementOfModel(b.candidate, model, b.settings.triggerThreshold),
        { ...opts, names },
      );
      return {
        model,
        comparison: { ...comparison, mode: 'reports', warnings: [...environment, ...comparison.warnings] },
      };
    }),
    warnings: setsWarning(modelsOf(a), modelsOf(b), names, split),
  };
}

/** A paired report of several models: its baseline against its candidate, model by model. */
export function compareReportByModel(paired: Report, opts: CompareOptions = {}): ModelsComparison {
  const threshold = paired.settings.triggerThreshold;
  return {
    models: modelsOf(paired).map((model) => {
      if (!paired.baseline) return { model, comparison: compareReport(paired, opts) };
      const comparison = compareMeasurements(
        measurementOfModel(paired.baseline, model, threshold),
        measurementOfModel(paired.candidate, model, threshold),
        opts,
      );
      return { model, comparison: { ...comparison, mode: 'paired' } };
    }),
    warnings: [],
  };
}

/**
 * The skill's standing over its models: a regression on any model is the skill's regression (as in
 * the Action); else an improvement on any, unless some model has no verdict; else noise.
 */
export function standingLabel(labels: readonly ComparisonLabel[]): ComparisonLabel {
  if (labels.includes('regression')) return 'regression';
  if (labels.includes('no-verdict')) return 'no-verdict';
  return labels.includes('improvement') ? 'improvement' : 'noise';
}

/**
 * True when every query ran each model as often on the baseline as on the candidate: only then
 * does pooling the models compare like with like (a side with more runs of the model that loads
 * the skill more would otherwise look better for that alone).
 */
function balancedOverModels(paired: Report, models: readonly string[]): boolean {
  const base = new Map((paired.baseline?.queries ?? []).map((q) => [q.id, q]));
  return paired.candidate.queries.every((c) => {
    const b = base.get(c.id);
    return b !== undefined && models.every((m) => b.byModel?.[m]?.runs === c.byModel?.[m]?.runs);
  });
}

function pairedClass(x: ClassComparison): PairedByModel['models'][string]['positives'] {
  return {
    base: { hits: x.base.hits, runs: x.base.runs },
    cand: { hits: x.cand.hits, runs: x.cand.runs },
    deltaRate: x.deltaRate,
    label: x.label,
  };
}

/**
 * `run --baseline-description` with several models: each model's candidate against the same
 * model's baseline, the skill's standing over them, and the pooled label where it is honest (see
 * `PairedByModel.pooled`). Undefined for a single side or a single model.
 */
export function pairedByModel(paired: Report): PairedByModel | undefined {
  if (!paired.baseline || !hasSeveralModels(paired)) return undefined;
  const { models } = compareReportByModel(paired);
  const names = models.map((m) => m.model);
  const summary: PairedByModel = {
    label: standingLabel(models.map((m) => m.comparison.label)),
    models: Object.fromEntries(
      models.map(({ model, comparison: c }) => [
        model,
        { label: c.label, positives: pairedClass(c.positives), negatives: pairedClass(c.negatives) },
      ]),
    ),
  };
  if (balancedOverModels(paired, names))
    summary.pooled = { label: compareReport(paired).label, models: names };
  return summary;
}
