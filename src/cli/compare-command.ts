import path from 'node:path';
import { readReportFile } from '../adapters/report-files.js';
import { compareReportByModel, compareReportsByModel, hasSeveralModels } from '../compare/by-model.js';
import { compareReport, compareReports } from '../compare/compare.js';
import { comparisonJson, renderComparisonText } from '../compare/render.js';
import { modelsComparisonJson, modelsComparisonText } from '../compare/render-models.js';
import { ExitCode, UsageError } from '../errors.js';
import type { CompareArgs } from './args.js';
import type { CliIo } from './run-command.js';

/**
 * `skilltrigger compare a.json b.json` (a = baseline, b = candidate), or `compare paired.json` for
 * a report that holds both. Exit 0 when the comparison could be made, whatever its labels: the
 * labels are the result; CI gating on them is the Action's `fail-on-regression`. Two reports with
 * no query in common cannot be compared at all (exit 1): "noise" would be a lie.
 */
export async function compareCommand(args: CompareArgs, io: CliIo): Promise<ExitCode> {
  const a = await readReportFile(args.a);
  const b = args.b === undefined ? undefined : await readReportFile(args.b);
  const names = { base: path.basename(args.a), cand: path.basename(args.b ?? args.a) };
  const comparison = b === undefined ? compareReport(a) : compareReports(a, b, { names });
  if (b !== undefined && comparison.queries.shared === 0) {
    const q = comparison.queries;
    const skills =
      a.skill === b.skill ? `both of skill "${a.skill}"` : `of skills "${a.skill}" and "${b.skill}"`;
    throw new UsageError(
      `${names.base} and ${names.cand} have no query in common (${skills}; ${q.baseOnly} only in ${names.base}, ${q.candOnly} only in ${names.cand}${q.shouldTriggerChanged > 0 ? `, ${q.shouldTriggerChanged} with should_trigger changed` : ''}), so there is nothing to compare. Fix: compare two reports measured on the same eval set`,
    );
  }
  const simulated = a.simulated && (b ?? a).simulated;
  // Several models (`--model a,b`): each model the two sides share is compared on its own runs.
  if (hasSeveralModels(a, ...(b ? [b] : []))) {
    const byModel = b === undefined ? compareReportByModel(a) : compareReportsByModel(a, b, { names });
    io.stdout.write(
      args.json
        ? `${modelsComparisonJson(byModel, { simulated })}\n`
        : modelsComparisonText(byModel, { simulated }),
    );
    return ExitCode.verdict;
  }
  io.stdout.write(
    args.json
      ? `${comparisonJson(comparison, { simulated })}\n`
      : renderComparisonText(comparison, { simulated }),
  );
  return ExitCode.verdict;
}
