import path from 'node:path';
import { readReportFile } from '../adapters/report-files.js';
import { compareReport, compareReports } from '../compare/compare.js';
import { comparisonJson, renderComparisonText } from '../compare/render.js';
import { ExitCode } from '../errors.js';
import type { CompareArgs } from './args.js';
import type { CliIo } from './run-command.js';

/**
 * `skilltrigger compare a.json b.json` (a = baseline, b = candidate), or `compare paired.json` for
 * a report that holds both. Exit 0 when the comparison could be made, whatever its labels: the
 * labels are the result; CI gating on them is the Action's `fail-on-regression`.
 */
export async function compareCommand(args: CompareArgs, io: CliIo): Promise<ExitCode> {
  const a = await readReportFile(args.a);
  const comparison =
    args.b === undefined
      ? compareReport(a)
      : compareReports(a, await readReportFile(args.b), {
          names: { base: path.basename(args.a), cand: path.basename(args.b) },
        });
  io.stdout.write(args.json ? `${comparisonJson(comparison)}\n` : renderComparisonText(comparison));
  return ExitCode.verdict;
}
