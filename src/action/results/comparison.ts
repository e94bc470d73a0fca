import { asAgentsReport, comparesByAgent } from '../../compare/by-agent.js';
import {
  compareReportByModel,
  compareReportsByModel,
  hasSeveralModels,
  type ModelComparison,
} from '../../compare/by-model.js';
import { type Comparison, compareReport, compareReports } from '../../compare/compare.js';
import type { Report } from '../../schemas/report.js';

/**
 * The Action's comparison model by model (`models`): with a baseline and several models,
 * each model is compared on its own runs, and a regression on any model is the skill's regression.
 * Several agents (`agents`) are compared the same way, agent by agent (action/measure-one.ts).
 * The comment's table of these comparisons is action/text/model-table.ts.
 */

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
