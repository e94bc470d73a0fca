import { readFile, stat } from 'node:fs/promises';
import { writeReport } from '../adapters/report-files.js';
import { compareReport } from '../compare/compare.js';
import { renderComparisonText } from '../compare/render.js';
import { ExitCode } from '../errors.js';
import { loadEvalSet } from '../inputs/eval-set.js';
import { loadSkill, validateDescription } from '../inputs/skill.js';
import { measureSkill } from '../measure/measure-skill.js';
import { headline, renderMarkdown } from '../report/markdown.js';
import type { Report } from '../report/schema.js';
import { TOOL_VERSION } from '../version.js';
import type { RunArgs } from './args.js';
import { ProgressReporter } from './progress.js';

export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

/** `--baseline-description` takes text, or a file holding the text when such a file exists. */
async function baselineText(value: string): Promise<{ text: string; file?: string }> {
  try {
    if ((await stat(value)).isFile()) return { text: (await readFile(value, 'utf8')).trim(), file: value };
  } catch {
    /* not a file: the value is the text */
  }
  return { text: value };
}

/**
 * `skilltrigger run`: validate every input before anything is spawned, run the gates, measure,
 * write the report (also when there is no verdict), print the headline, return the exit code.
 */
export async function runCommand(args: RunArgs, io: CliIo, signal: AbortSignal): Promise<ExitCode> {
  const skill = await loadSkill(args.skill);
  const evalSet = await loadEvalSet(args.eval, skill.name);
  const description =
    args.description === undefined
      ? skill.description
      : validateDescription(args.description, { file: '--description' });
  let baselineDescription: string | undefined;
  if (args.baselineDescription !== undefined) {
    const { text, file } = await baselineText(args.baselineDescription);
    baselineDescription = validateDescription(text, { file: file ?? '--baseline-description' });
  }
  for (const warning of skill.warnings) io.stderr.write(`warning: ${warning}\n`);

  // The gates (SPEC §2.4) run here, before anything is measured; a failure exits 2.

  const paired = baselineDescription !== undefined;
  const progress = new ProgressReporter(io.stderr, evalSet.items.length, args.runs, paired);
  const report: Report = await measureSkill(
    {
      skill,
      evalSet,
      description,
      overridden: args.description !== undefined,
      ...(baselineDescription === undefined ? {} : { baselineDescription }),
      ...(args.model ? { model: args.model } : {}),
      rules: { runsPerQuery: args.runs, triggerThreshold: args.threshold, noVerdictShare: 0.1 },
      timeoutSeconds: args.timeoutSeconds,
      stub: args.stub,
      maxRetries: args.maxRetries,
      claudeBin: args.claude,
      env: io.env,
      conflictAllowed: args.allowConflict,
      simulated: io.env.SKILLTRIGGER_SIMULATED === '1',
      toolVersion: TOOL_VERSION,
      debug: args.debug,
    },
    progress.onRun,
    signal,
  );
  progress.clearBar();
  const paths = await writeReport(args.out, report, renderMarkdown(report));
  if (report.simulated)
    io.stdout.write('SIMULATED: these numbers come from the simulated model, not from Claude.\n');
  if (report.verdict === 'no-verdict') {
    const reasons = [...report.candidate.noVerdictReasons, ...(report.baseline?.noVerdictReasons ?? [])];
    io.stdout.write(`NO VERDICT — this is not a measurement: ${[...new Set(reasons)].join('; ')}\n`);
  }
  if (report.baseline) io.stdout.write(`baseline:  ${headline(report.baseline)}\n`);
  io.stdout.write(`${report.baseline ? 'candidate: ' : ''}${headline(report.candidate)}\n`);
  if (report.baseline) io.stdout.write(`\n${renderComparisonText(compareReport(report))}`);
  io.stdout.write(`report: ${paths.jsonPath}\n        ${paths.markdownPath}\n`);
  return report.verdict === 'ok' ? ExitCode.verdict : ExitCode.noVerdict;
}
