import { asAgentsReport, comparesByAgent } from '../compare/by-agent.js';
import {
  compareReportByModel,
  compareReportsByModel,
  hasSeveralModels,
  type ModelComparison,
} from '../compare/by-model.js';
import { type ClassComparison, type Comparison, compareReport, compareReports } from '../compare/compare.js';
import { escapeInline } from '../escape.js';
import { points, markdownTable as table } from '../format.js';
import type { Report } from '../shapes/report.js';
import { counts, labelCell } from './cells.js';

/**
 * The Action's comparison model by model (`models`): with a baseline and several models,
 * each model is compared on its own runs, and a regression on any model is the skill's regression.
 * Several agents (`agents`) are compared the same way, agent by agent (measure-one.ts).
 */

/** The label a skill stands at: a regression on any model wins, else the pooled label. */
export function byModelLabel<L extends string>(
  pooled: L,
  byModel: ModelComparison[] | undefined,
): L | 'regression' {
  return byModel?.some((m) => m.comparison.label === 'regression') ? 'regression' : pooled;
}

/** True when a skill's reports measured several models, so it is compared model by model. */
export function comparesByModel(report: Report, baselineReport?: Report): boolean {
  return baselineReport ? hasSeveralModels(report, baselineReport) : hasSeveralModels(report);
}

/**
 * A skill's comparison with its baseline (pure): pooled, and with several models (or several
 * agents, read as models through compare/by-agent.ts) each one's own. `baseline` is the cached
 * report, `paired` (the report holds its base side), or `none`.
 */
export function compareWithBaseline(
  report: Report,
  baseline: Report | 'paired' | 'none',
  names: { base: string; cand: string },
): { comparison?: Comparison; byModel?: ModelComparison[] } {
  const cached = typeof baseline === 'string' ? undefined : baseline;
  const byAgent = comparesByAgent(report, ...(cached ? [cached] : []));
  const split = (r: Report): Report => (byAgent ? asAgentsReport(r) : r);
  if (baseline === 'paired' && report.baseline) {
    const comparison = compareReport(report, { names });
    if (!byAgent && !comparesByModel(report)) return { comparison };
    return { comparison, byModel: compareReportByModel(split(report), { names }).models };
  }
  if (cached === undefined) return {};
  const comparison = compareReports(cached, report, { names });
  if (!byAgent && !comparesByModel(report, cached)) return { comparison };
  return {
    comparison,
    byModel: compareReportsByModel(split(cached), split(report), { names }, byAgent ? 'agent' : 'model')
      .models,
  };
}

function classCells(x: ClassComparison): string[] {
  return [
    `${counts(x.base.hits, x.base.runs)} → ${counts(x.cand.hits, x.cand.runs)}`,
    points(x.deltaRate),
    labelCell(x.label),
  ];
}

/**
 * One row per model (or per agent, `split: 'Agent'`): positives and negatives, baseline → this
 * side, each with its change and label.
 */
export function modelComparisonTable(
  byModel: ModelComparison[],
  split: 'Model' | 'Agent' = 'Model',
): string[] {
  return table(
    [split, 'Positives triggered', 'Change', 'Label', 'Negatives fired', 'Change', 'Label', `${split} label`],
    byModel.map(({ model, comparison: c }) => [
      escapeInline(model),
      ...classCells(c.positives),
      ...classCells(c.negatives),
      labelCell(c.label),
    ]),
  );
}
