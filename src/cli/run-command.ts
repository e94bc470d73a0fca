import { loadPrices } from '../adapters/prices-file.js';
import { checkReportFolder, writeRenderingFile } from '../adapters/report-files.js';
import { checkRenderingFile } from '../adapters/report-folder.js';
import { compareReportByModel, pairedByModel } from '../compare/by-model.js';
import { compareReport } from '../compare/compare.js';
import { renderComparisonText } from '../compare/render.js';
import { modelsComparisonText } from '../compare/render-models.js';
import { splitLines } from '../compare/subsets-text.js';
import { ExitCode } from '../errors.js';
import type { PreflightResult } from '../gates/preflight.js';
import { loadEvalSet } from '../inputs/eval-set.js';
import {
  crossNegativeItems,
  crossNegativesEstimate,
  loadSiblings,
  type SiblingSkill,
} from '../inputs/siblings.js';
import { loadSkill } from '../inputs/skill.js';
import { specLengthWarning, validateDescription } from '../inputs/skill-fields.js';
import type { EvalSet, Skill } from '../inputs/types.js';
import { codexUnlistedDefect } from '../measure/codex-listed.js';
import {
  type ListedText,
  listAndCheck,
  listedOverride,
  UNLISTED_REASON,
  unlistedDefect,
} from '../measure/listed-text.js';
import { type MeasureSettings, measureSkill } from '../measure/measure-skill.js';
import { writeReport } from '../report/files.js';
import { headlineLines } from '../report/headline.js';
import { renderJunit } from '../report/junit.js';
import { renderMarkdown } from '../report/markdown.js';
import { costWarnings, lateAndCostLines, pairedModelsLines } from '../report/models-text.js';
import { lostToSiblingsText, type SiblingListed } from '../report/siblings.js';
import type { Report } from '../shapes/report.js';
import type { RunArgs } from './args.js';
import { type BaselineFrom, baselineLine, baselineText } from './baseline-text.js';
import { evalSetWarnings } from './check-command.js';
import { codexSettings } from './codex-settings.js';
import { refuseSameModel } from './cost-args.js';
import { dryRunText, planCost, planModels, roundTripCostWarnings } from './cost-step.js';
import { passGates } from './gates-step.js';
import { type MeasureCost, measureSettingsFrom } from './measure-settings.js';
import { outInSkillWarning } from './option-values.js';
import type { CliIo } from './output.js';
import { ProgressReporter } from './progress.js';

export type { CliIo } from './output.js';

/**
 * `skilltrigger run`: validate every input before anything is spawned, run the gates, measure,
 * write the report (also when there is no verdict), print the headline, return the exit code.
 */
export async function runCommand(args: RunArgs, io: CliIo, signal: AbortSignal): Promise<ExitCode> {
  const skill = await loadSkill(args.skill);
  const ownSet = await loadEvalSet(args.eval, skill.name);
  // Siblings and their eval sets are inputs too: every defect is found before anything is spent.
  const siblingSkills = args.siblings.length === 0 ? [] : await loadSiblings(args.siblings, skill);
  const cross = args.crossNegatives ? await crossNegativeItems(siblingSkills) : undefined;
  const evalSet = cross === undefined ? ownSet : { ...ownSet, items: [...ownSet.items, ...cross.items] };
  const description =
    args.description === undefined
      ? skill.description
      : validateDescription(args.description, { file: '--description' });
  const baseline = await baselineText(args.baselineDescription, args.baselineDescriptionFile);
  const baselineDescription =
    baseline === undefined
      ? undefined
      : validateDescription(baseline.text, { file: baseline.file ?? '--baseline-description' });
  // A folder that cannot take the report is refused before anything is spent, not after the runs;
  // so is a --junit path, written after the report.
  await checkReportFolder(args.out);
  if (args.junit !== undefined) await checkRenderingFile(args.junit, 'JUnit XML', '--junit');
  const prices = await loadPrices(args.prices);
  const listingWarnings = new Set(skill.listingWarnings ?? []);
  for (const warning of skill.warnings)
    if (!listingWarnings.has(warning)) io.stderr.write(`warning: ${warning}\n`);
  for (const text of [args.description, baselineDescription]) {
    const long = text === undefined ? undefined : specLengthWarning(text);
    if (long) io.stderr.write(`warning: --description: ${long}\n`);
  }
  // What `check` would say about the set, before any run is spent on it.
  for (const warning of evalSetWarnings(args.eval, ownSet)) io.stderr.write(`warning: ${warning}\n`);
  if (baseline !== undefined) io.stderr.write(`${baselineLine(baseline)}\n`);
  const outWarning = outInSkillWarning(args.out, skill.dir);
  if (outWarning) io.stderr.write(`warning: ${outWarning}\n`);
  if (siblingSkills.length > 0) {
    const names = siblingSkills.map((s) => s.skill.name).join(', ');
    io.stderr.write(`siblings: ${siblingSkills.length} installed beside the stub in every run (${names})\n`);
  } else if (args.siblings.length > 0) {
    io.stderr.write('siblings: no other SKILL.md found under --siblings; the skill is measured alone\n');
  }
  if (cross !== undefined) {
    io.stderr.write(`${crossNegativesEstimate(cross, args.runs)}\n`);
  }

  const agents = args.agents ?? [{ agent: 'claude' as const }];
  const claudeRuns = agents.some((a) => a.agent === 'claude');
  const several = agents.length > 1;
  if (!claudeRuns && args.standby !== undefined && args.standby > 0)
    io.stderr.write(
      `standby: --standby ${args.standby} is ignored: Codex runs always start cold (the warm standby is claude's)\n`,
    );
  if (several)
    io.stderr.write(
      `agents: every query is measured on each of ${agents.map((a) => a.agent).join(', ')}, interleaved, each judged on its own\n`,
    );
  // A SKILL.md Codex does not list has nothing to measure on Codex: refused before the gates.
  const codexRuns = agents.some((a) => a.agent === 'codex');
  const codexDefect = codexRuns ? codexUnlistedDefect(skill) : undefined;
  if (codexDefect) throw codexDefect;
  // With several agents the claude gates take claude's own model.
  const claudeModel = several ? agents.find((a) => a.agent === 'claude')?.model : args.model;
  const codexModel = several ? agents.find((a) => a.agent === 'codex')?.model : undefined;

  // The gates (docs/design.md) run here, before anything is measured; a failure exits 2.
  const { preflight, reminders } = await passGates(
    {
      claudeBin: args.claude,
      env: io.env,
      maxRetries: args.maxRetries,
      agents: agents.map((a) => a.agent),
      codexBin: args.codex,
      ...(claudeModel ? { model: claudeModel } : {}),
      ...(codexModel ? { codexModel } : {}),
      ...(args.models ? { models: args.models } : {}),
      skillName: skill.name,
      out: args.out,
      allowConflict: args.allowConflict,
      signal,
    },
    io,
  );
  try {
    // An alias and its full id are one model: known only now, from the round trips, and refused before any run.
    refuseSameModel(args.models, {
      ...(preflight.roundTripModels ? { init: preflight.roundTripModels } : {}),
      ...(preflight.roundTripMessageModels ? { message: preflight.roundTripMessageModels } : {}),
    });
    // The plan and its estimate from the round trips; --max-cost-usd refuses here, before any run.
    const shape = {
      queries: evalSet.items.length,
      runsPerQuery: args.runs,
      sides: baselineDescription === undefined ? 1 : 2,
      // One slot per model, or per agent with several; a Codex run is estimated from Codex's round trip.
      models: planModels(agents, args.models ?? [args.model]),
    };
    const costPlan = planCost(shape, args.runsAuto, preflight, prices, args.maxCostUsd);
    for (const w of roundTripCostWarnings(preflight, prices)) io.stderr.write(`warning: ${w}\n`);
    if (args.dryRun) {
      io.stdout.write(dryRunText(shape, args.runsAuto, costPlan));
      return ExitCode.verdict;
    }
    // Claude Code's listing is read only where claude runs; Codex's adapter lists the SKILL.md's text itself.
    const listed = claudeRuns ? await listedTexts(args, io, signal, skill, baselineDescription) : undefined;
    const codexSide = codexRuns ? await codexSettings(args.codex, io, preflight, siblingSkills) : undefined;
    const codex = codexSide?.codex;
    const codexVersion = codexSide?.version;
    // The report's sibling set is claude's listing where claude runs, else Codex's.
    const siblings = claudeRuns
      ? await siblingTexts(args, io, signal, siblingSkills)
      : (codex?.siblings ?? []).map((s) => ({ name: s.skillName, listed: s.description }));
    return await measureAndReport(
      args,
      io,
      signal,
      {
        skill,
        evalSet,
        description,
        baselineDescription,
        ...(baseline === undefined ? {} : { baselineFrom: baseline.from }),
        ...(listed ? { listed } : {}),
        siblings,
        ...(args.agents ? { agents: args.agents } : {}),
        ...(codex ? { codex } : {}),
        ...(codexVersion ? { agentVersions: { codex: codexVersion } } : {}),
      },
      preflight,
      { prices, ...(costPlan.budget ? { budget: costPlan.budget } : {}) },
    );
  } finally {
    preflight.release();
    // The end of every run repeats the reminder: it is the last thing the user reads.
    if (reminders) io.stderr.write(reminders);
  }
}

/**
 * What each side measures: Claude Code's own listing of the SKILL.md (the listing probe), or the
 * emulation where the probe cannot run, said so; then each side's stub is checked once to be listed
 * as exactly that text (a mismatch is a failed gate, exit 2). Prints where the listed text is not
 * what the author wrote.
 */
async function listedTexts(
  args: RunArgs,
  io: CliIo,
  signal: AbortSignal,
  skill: Skill,
  baselineDescription: string | undefined,
): Promise<{ candidate: string; baseline?: string; source: 'probe' | 'emulation' }> {
  // The listing is the CLI's, whichever model reads it: the first model's probe stands for all.
  const model = args.model ?? args.models?.[0];
  const probe = { claudeBin: args.claude, env: io.env, signal, ...(model ? { model } : {}) };
  const candidateOf = (own: ListedText) =>
    args.description === undefined ? own.text : listedOverride(args.description, skill);
  const baseline = baselineDescription === undefined ? undefined : listedOverride(baselineDescription, skill);
  // The skill's own listing and its stubs' checks share starts of the CLI (`listAndCheck`).
  const { listed, checked } = await listAndCheck(
    [skill],
    ([own]) =>
      own === undefined || unlistedDefect(skill, own) !== undefined
        ? []
        : [
            { text: candidateOf(own), label: 'the description' },
            ...(baseline === undefined ? [] : [{ text: baseline, label: 'the baseline description' }]),
          ],
    args.stub,
    probe,
  );
  const own = listed[0];
  if (own === undefined) throw new Error('listedTexts: no listing for the skill');
  const unlisted = unlistedDefect(skill, own);
  if (unlisted !== undefined) throw unlisted;
  for (const warning of own.warnings) io.stderr.write(`warning: ${warning}\n`);
  if (own.source === 'emulation')
    io.stderr.write(
      `listing: emulated, not read from Claude Code (${own.why}); see docs/listing-parity.md\n`,
    );
  for (const c of checked)
    if (c.skipped !== undefined)
      io.stderr.write(`listing: the stub's listing was not checked (${c.skipped})\n`);
  return { candidate: candidateOf(own), ...(baseline === undefined ? {} : { baseline }), source: own.source };
}

/** What Claude Code lists for each sibling, by the same listing path as the tested skill's own text. */
async function siblingTexts(
  args: RunArgs,
  io: CliIo,
  signal: AbortSignal,
  siblings: readonly SiblingSkill[],
): Promise<SiblingListed[]> {
  const probe = { claudeBin: args.claude, env: io.env, signal, ...(args.model ? { model: args.model } : {}) };
  const skills = siblings.map((s) => s.skill);
  // A sibling Claude Code leaves out of its listing never competes: installing it would invent a rival.
  const competes = (own: ListedText) => own.why !== UNLISTED_REASON;
  const { listed, checked } = await listAndCheck(
    skills,
    (texts) =>
      texts.flatMap((own, i) =>
        competes(own) ? [{ text: own.text, label: `sibling ${skills[i]?.name}'s description` }] : [],
      ),
    args.stub,
    probe,
  );
  const out: SiblingListed[] = [];
  for (const [i, skill] of skills.entries()) {
    const own = listed[i];
    if (own === undefined) continue;
    if (!competes(own)) {
      io.stderr.write(
        `siblings: ${skill.name} is not listed by Claude Code${skill.disableModelInvocation ? ' (disable-model-invocation: true)' : ''}, so it does not compete; left out\n`,
      );
      continue;
    }
    for (const warning of own.warnings) io.stderr.write(`warning: sibling ${skill.name}: ${warning}\n`);
    if (own.source === 'emulation')
      io.stderr.write(`listing: sibling ${skill.name} emulated, not read from Claude Code (${own.why})\n`);
    const skipped = checked.find((c) => c.label === `sibling ${skill.name}'s description`)?.skipped;
    if (skipped !== undefined)
      io.stderr.write(`listing: sibling ${skill.name}'s stub listing was not checked (${skipped})\n`);
    out.push({ name: skill.name, listed: own.text });
  }
  return out;
}

async function measureAndReport(
  args: RunArgs,
  io: CliIo,
  signal: AbortSignal,
  inputs: {
    skill: Skill;
    evalSet: EvalSet;
    description: string;
    baselineDescription: string | undefined;
    baselineFrom?: BaselineFrom;
    listed?: { candidate: string; baseline?: string; source: 'probe' | 'emulation' };
    siblings: SiblingListed[];
    agents?: MeasureSettings['agents'];
    codex?: MeasureSettings['codex'];
    agentVersions?: MeasureSettings['agentVersions'];
  },
  preflight: PreflightResult,
  cost: MeasureCost,
): Promise<ExitCode> {
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
      ...(inputs.codex ? { codex: inputs.codex } : {}),
      ...(inputs.agentVersions ? { agentVersions: inputs.agentVersions } : {}),
      ...measureSettingsFrom(args, io, preflight, cost),
    },
    progress.onRun,
    signal,
  );
  progress.clearBar();
  // Where each side's text came from: the SKILL.md, a flag's text or a file (never the text or the path).
  measured.candidate.description.from = args.description === undefined ? 'skill' : 'text';
  if (measured.baseline && inputs.baselineFrom) measured.baseline.description.from = inputs.baselineFrom;
  // With several models a pair is judged model by model: each candidate against its own model's baseline.
  const byModel = pairedByModel(measured);
  const report: Report = byModel ? { ...measured, pairedByModel: byModel } : measured;
  // The numbers go out before the write, so a report folder that refuses the file loses nothing.
  if (report.simulated)
    io.stdout.write('SIMULATED: these numbers come from the simulated model, not from Claude.\n');
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
      for (const l of lateAndCostLines(m)) io.stdout.write(`${side}${l}\n`);
      for (const w of costWarnings(m)) io.stderr.write(`warning: ${side}${w}\n`);
    }
  if (report.pairedByModel) {
    io.stdout.write(modelsComparisonText(compareReportByModel(report)));
    io.stdout.write(`\n${pairedModelsLines(report.pairedByModel).join('\n')}\n`);
  } else if (report.baseline) io.stdout.write(`\n${renderComparisonText(compareReport(report))}`);
  const paths = await writeReport(args.out, report, renderMarkdown(report));
  io.stdout.write(`report: ${paths.jsonPath}\n        ${paths.markdownPath}\n`);
  if (paths.htmlPath) io.stdout.write(`        ${paths.htmlPath}\n`);
  if (args.junit !== undefined) {
    await writeRenderingFile(args.junit, renderJunit(report), 'JUnit XML', '--junit');
    io.stdout.write(`junit:  ${args.junit}\n`);
  }
  return report.verdict === 'ok' ? ExitCode.verdict : ExitCode.noVerdict;
}
