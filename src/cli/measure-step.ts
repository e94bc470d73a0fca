import type { EarlyStart } from '../agents/runs.js';
import { compareReportByModel, pairedByModel } from '../compare/by-model.js';
import { compareReport } from '../compare/compare.js';
import { renderComparisonText } from '../compare/render.js';
import { modelsComparisonText } from '../compare/render-models.js';
import { splitLines } from '../compare/subsets-text.js';
import { ExitCode } from '../errors.js';
import type { EvalSet, Skill } from '../inputs/types.js';
import type { MeasureSettings } from '../measure/measure-settings.js';
import { measureSkill } from '../measure/measure-skill.js';
import { NO_EARLY_START, startEarly } from '../measure/measurement-loop.js';
import type { PreflightResult } from '../preflight/preflight.js';
import type { SiblingListed } from '../report/build/sibling-counts.js';
import { writeRenderingFile } from '../report/disk/files.js';
import { writeReport } from '../report/files.js';
import { headlineLines } from '../report/headline.js';
import { renderJunit } from '../report/junit.js';
import { listingReadLines, listingWarnings } from '../report/listing-text.js';
import { renderMarkdown } from '../report/markdown.js';
import { costWarnings, lateAndCostLines, pairedModelsLines } from '../report/models-text.js';
import { lostToSiblingsText } from '../report/siblings.js';
import type { Report } from '../schemas/report.js';
import type { BaselineFrom } from './baseline-text.js';
import { flagSettingsFrom, type MeasureCost, measureSettingsFrom } from './measure-settings.js';
import { earlyOtherAgents } from './other-agents.js';
import type { CliIo } from './output.js';
import { ProgressReporter } from './progress.js';
import type { RunArgs } from './run-args.js';
import { failingLine, nextLines } from './run-ending.js';

/**
 * The first warm run, started before the gates so that its start-up overlaps them (docs/speed.md,
 * "The first standby, beside the gates"). None for a dry run, which measures nothing, nor with siblings,
 * whose listed texts (in every stub) are read only after the gates. The caller releases it on
 * every way out; the loop takes it for the first run when the listing left the stub as expected.
 */
export function startFirstStandby(
  args: RunArgs,
  io: CliIo,
  inputs: {
    skill: Skill;
    evalSet: EvalSet;
    description: string;
    baselineDescription: string | undefined;
    siblings: number;
  },
): EarlyStart {
  const { skill, evalSet, description, baselineDescription } = inputs;
  // A roster run's stub lives in the run's own HOME, which an early start does not place.
  return args.dryRun || inputs.siblings > 0 || args.roster !== undefined
    ? NO_EARLY_START
    : startEarly({
        skill,
        evalSet,
        description,
        overridden: args.description !== undefined,
        ...(baselineDescription === undefined ? {} : { baselineDescription }),
        ...(args.agents ? { agents: args.agents, others: earlyOtherAgents(args.agents, args.bins) } : {}),
        ...flagSettingsFrom(args, io),
      });
}

/** What `run` measures, as its earlier steps read it. */
interface MeasureInputs {
  skill: Skill;
  evalSet: EvalSet;
  description: string;
  baselineDescription: string | undefined;
  baselineFrom?: BaselineFrom;
  /** The eval set's file, as given or found (src/cli/eval-file.ts): the `next:` line names it. */
  evalFile: string;
  listed?: { candidate: string; baseline?: string; source: 'probe' | 'emulation' };
  siblings: SiblingListed[];
  agents?: MeasureSettings['agents'];
  others?: MeasureSettings['others'];
  agentVersions?: MeasureSettings['agentVersions'];
  early?: EarlyStart;
  roster?: MeasureSettings['roster'];
}

/**
 * `run`'s last step: measure, print what was measured (the headline, the splits, the comparison),
 * write the report (and the JUnit file), and return the exit code.
 */
export async function measureAndReport(
  args: RunArgs,
  io: CliIo,
  signal: AbortSignal,
  inputs: MeasureInputs,
  preflight: PreflightResult,
  cost: MeasureCost,
): Promise<ExitCode> {
  const measured = await measureRun(args, io, signal, inputs, preflight, cost);
  // Where each side's text came from: the SKILL.md, a flag's text or a file (never the text or the path).
  measured.candidate.description.from = args.description === undefined ? 'skill' : 'text';
  if (measured.baseline && inputs.baselineFrom) measured.baseline.description.from = inputs.baselineFrom;
  // With several models a pair is judged model by model: each candidate against its own model's baseline.
  const byModel = pairedByModel(measured);
  const report: Report = byModel ? { ...measured, pairedByModel: byModel } : measured;
  // The numbers go out before the write, so a report folder that refuses the file loses nothing.
  printMeasured(report, io);
  printComparison(report, io);
  const paths = await writeReport(args.out, report, renderMarkdown(report));
  io.stdout.write(`report: ${paths.jsonPath}\n        ${paths.markdownPath}\n`);
  if (paths.htmlPath) io.stdout.write(`        ${paths.htmlPath}\n`);
  if (args.junit !== undefined) {
    await writeRenderingFile(args.junit, renderJunit(report), 'JUnit XML', '--junit');
    io.stdout.write(`junit:  ${args.junit}\n`);
  }
  io.stdout.write(`${failingLine(report.candidate)}\n`);
  const where = { json: paths.jsonPath, skill: args.skill, evalFile: inputs.evalFile };
  for (const l of nextLines(report, where)) io.stdout.write(`${l}\n`);
  return report.verdict === 'ok' ? ExitCode.verdict : ExitCode.noVerdict;
}

/** The measurement itself, its progress on stderr and each side's listing said as it is read. */
async function measureRun(
  args: RunArgs,
  io: CliIo,
  signal: AbortSignal,
  inputs: MeasureInputs,
  preflight: PreflightResult,
  cost: MeasureCost,
): Promise<Report> {
  const { skill, evalSet, description, baselineDescription, listed, siblings } = inputs;
  const paired = baselineDescription !== undefined;
  const progress = new ProgressReporter(io.stderr, evalSet.items.length, args.runs, paired);
  const measured: Report = await measureSkill(
    {
      skill,
      evalSet,
      description,
      overridden: args.description !== undefined,
      ...(baselineDescription === undefined ? {} : { baselineDescription }),
      ...(listed ? { listed } : {}),
      ...(siblings.length === 0 ? {} : { siblings, crossNegatives: args.crossNegatives }),
      ...(inputs.agents ? { agents: inputs.agents } : {}),
      ...(inputs.others ? { others: inputs.others } : {}),
      ...(inputs.agentVersions ? { agentVersions: inputs.agentVersions } : {}),
      ...(inputs.early ? { early: inputs.early } : {}),
      ...(inputs.roster ? { roster: inputs.roster } : {}),
      ...measureSettingsFrom(args, io, preflight, cost),
      readListing: true,
      onListing: (read) => {
        for (const line of listingReadLines(read, paired)) io.stderr.write(`${line}\n`);
      },
      listingGate: !args.allowBare,
    },
    progress.onRun,
    signal,
  );
  progress.clearBar();
  return measured;
}

/** Each side as it was measured: its listing, the no-verdict line, the headline, the splits, the cost. */
function printMeasured(report: Report, io: CliIo): void {
  if (report.simulated)
    io.stdout.write('SIMULATED: these numbers come from the simulated model, not from a real model.\n');
  // How the stub was listed comes first: a name-only listing means the rate below is the name's.
  for (const [label, m] of [
    ['baseline: ', report.baseline],
    [report.baseline ? 'candidate: ' : '', report.candidate],
  ] as const)
    for (const w of m ? listingWarnings(m) : []) io.stdout.write(`${label}${w}\n`);
  if (report.verdict === 'no-verdict') {
    const reasons = [...report.candidate.noVerdictReasons, ...(report.baseline?.noVerdictReasons ?? [])];
    io.stdout.write(`NO VERDICT — this is not a measurement: ${[...new Set(reasons)].join('; ')}\n`);
  }
  // With several models, one line per model (its own counts and passes), the pooled line marked.
  if (report.baseline) for (const l of headlineLines(report.baseline)) io.stdout.write(`baseline:  ${l}\n`);
  for (const l of headlineLines(report.candidate)) {
    io.stdout.write(`${report.baseline ? 'candidate: ' : ''}${l}\n`);
  }
  for (const [label, m] of [
    ['baseline ', report.baseline],
    [report.baseline ? 'candidate ' : '', report.candidate],
  ] as const) {
    const lost = m === undefined ? undefined : lostToSiblingsText(m);
    if (lost !== undefined) io.stdout.write(`${label}${lost}\n`);
  }
  if (report.baseline) for (const l of splitLines(report.baseline)) io.stdout.write(`baseline ${l}\n`);
  for (const l of splitLines(report.candidate)) {
    io.stdout.write(`${report.baseline ? 'candidate ' : ''}${l}\n`);
  }
  for (const [side, m] of [
    ['baseline ', report.baseline],
    [report.baseline ? 'candidate ' : '', report.candidate],
  ] as const)
    if (m) {
      for (const l of lateAndCostLines(m, undefined, report.simulated === true))
        io.stdout.write(`${side}${l}\n`);
      for (const w of costWarnings(m)) io.stderr.write(`warning: ${side}${w}\n`);
    }
}

/** A paired run's comparison: model by model, or the two sides (the clean room and the crowd). */
function printComparison(report: Report, io: CliIo): void {
  if (report.pairedByModel) {
    io.stdout.write(modelsComparisonText(compareReportByModel(report)));
    io.stdout.write(`\n${pairedModelsLines(report.pairedByModel).join('\n')}\n`);
  } else if (report.baseline) {
    // --versus-clean: the baseline side is the clean room, the candidate the crowd; the change is the
    // crowd's cost. The comparison names its sides so itself (`pairNames`).
    if (report.settings.roster?.versusClean === true)
      io.stdout.write(
        '\nversus-clean: baseline = the clean room (no crowd), candidate = among the roster; the change is what the crowd costs\n',
      );
    io.stdout.write(`\n${renderComparisonText(compareReport(report))}`);
  }
}
