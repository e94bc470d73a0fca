import path from 'node:path';
import * as core from '@actions/core';
import type { AgentId } from '../agents/ids.js';
import { agentFacts, DEFAULT_AGENT } from '../agents/registry.js';
import type { EarlyStart } from '../agents/runs.js';
import type { Prices } from '../cost/prices-file.js';
import { describeOutcome } from '../measure/loop.js';
import type { RunProgress } from '../measure/loop-spec.js';
import type { LoopSettings, OtherAgent } from '../measure/measure-settings.js';
import { measureSkill } from '../measure/measure-skill.js';
import { junitPathFor, writeRenderingFile } from '../report/disk/files.js';
import { writeReport } from '../report/files.js';
import { headline as reportHeadline } from '../report/headline.js';
import { renderJunit } from '../report/junit.js';
import { listingReadLines } from '../report/listing-text.js';
import { renderMarkdown } from '../report/markdown.js';
import type { Report } from '../schemas/report.js';
import { DEFAULT_RULES } from '../verdict/rules.js';
import { TOOL_VERSION } from '../version.js';
import { type BaselinePlan, saveAsBaseline } from './baseline.js';
import type { SkillScope } from './changed-skills.js';
import type { RunnerContext } from './context.js';
import { runTurns } from './context-input.js';
import { type AgentInstall, type Installs, installedBin } from './install.js';
import type { JobBudget } from './job-cost.js';
import { actionListedTexts } from './listed.js';
import type { MeasureTarget } from './plan.js';
import type { ActionGates } from './preflight.js';
import { compareWithBaseline } from './results/comparison.js';
import type { MeasuredSkill } from './results/results.js';
import { agentsOf, type Settings } from './settings.js';
import { isPaired } from './skill-baseline.js';

/**
 * The measure phase, one skill at a time: which baseline (cached, or the base description measured
 * here, paired), the runs, the report written, the comparison, and on a push the report saved as
 * the baseline.
 */

/** Retries per run for API failures, as the CLI's default: failures surface inside the per-run timeout. */
export const MAX_RETRIES = 2;

/** The Action's stub: a command file (the CLI's default `--stub`). */
const STUB_LAYOUT = 'command';

/**
 * Variables never passed to an agent: the model's tools run with this environment, and neither the
 * GitHub token (the runner puts every input in `INPUT_*`) nor the runner's cache token belong there.
 */
const WITHHELD_FROM_AGENTS = [/^INPUT_/, /^ACTIONS_(RUNTIME_TOKEN|ID_TOKEN_REQUEST_)/, /^GITHUB_TOKEN$/];

/**
 * The step's environment as the agents get it: the runner's secrets out, the API keys of the
 * measured agents in, each as the variable its runs read (the registry's `keyVariable`).
 */
export function agentsEnv(settings: Settings): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!WITHHELD_FROM_AGENTS.some((pattern) => pattern.test(key))) env[key] = value;
  }
  for (const { agent } of agentsOf(settings)) {
    const key = settings.install[agent].apiKey;
    if (key !== undefined) env[agentFacts(agent).keyVariable] = key;
  }
  return env;
}

/**
 * What each other agent's loop agent is made with (src/agents/runtime.ts), as the CLI's run gives
 * it: its executable as installed, its version from its gates, the siblings it lists.
 */
function othersOf(installs: Installs, gates: ActionGates, target: MeasureTarget) {
  const others: Partial<Record<AgentId, OtherAgent>> = {};
  for (const [id, got] of Object.entries(installs) as [AgentId, AgentInstall | undefined][]) {
    if (id === DEFAULT_AGENT || got === undefined) continue;
    const { bin } = got;
    const version = gates.agentGates?.[id]?.version;
    others[id] = { bin, ...(version ? { version } : {}), siblings: target.agentSiblings?.[id] ?? [] };
  }
  const versions = Object.fromEntries(
    Object.entries(gates.agentGates ?? {}).flatMap(([id, found]) =>
      found?.version ? [[id, found.version]] : [],
    ),
  );
  return {
    ...(Object.keys(others).length === 0 ? {} : { others }),
    ...(Object.keys(versions).length === 0 ? {} : { agentVersions: versions }),
  };
}

function progressLine(p: RunProgress, queries: number, runs: number, paired: boolean): string {
  return [
    `query ${p.itemIndex + 1}/${queries}`,
    `run ${p.pass + 1}/${runs}`,
    ...(paired ? [p.label === 'candidate' ? 'this PR' : 'baseline'] : []),
    ...(p.result.requestedModel ? [p.result.requestedModel] : []),
    describeOutcome(p.result.outcome),
  ].join(' · ');
}

export interface MeasureContext {
  ctx: RunnerContext;
  settings: Settings;
  scope: SkillScope;
  /** Each measured agent's executable, as installed. */
  installs: Installs;
  gates: ActionGates;
  signal: AbortSignal;
  /** The price table every report is priced with (`prices`, else the built-in one). */
  prices: Prices;
  /** `max-cost-usd`: the budget the job's measurements share. */
  budget?: JobBudget;
  /** The first skill's first claude run, started before the gates (src/action/first-standby.ts). */
  early?: EarlyStart;
}

/**
 * What of a skill's measurement fixes how its runs' claude is started (the loop's settings), its
 * candidate side alone: one source for `measureOne` and for the standby started before the gates,
 * so that the loop finds that standby started as it would start its own.
 */
export function loopSettingsOf(
  target: MeasureTarget,
  settings: Settings,
  defaultBin: string,
  env: NodeJS.ProcessEnv,
) {
  const skill = target.plan.head;
  const turns = runTurns(settings);
  return {
    skill,
    evalSet: target.evalSet,
    description: skill.description,
    overridden: false,
    ...(settings.model === undefined ? {} : { model: settings.model }),
    ...(settings.models === undefined ? {} : { models: settings.models }),
    // `late`, as the CLI's `--late N` (0: off).
    lateTurns: settings.lateTurns,
    // `context` or `context-fill`, as the CLI's `--context`, `--context-fill N`: every query
    // without a context of its own; `versus-fresh` as `--versus-fresh`.
    ...(turns === undefined ? {} : { context: turns }),
    ...(settings.contextFill === undefined ? {} : { contextFill: settings.contextFill }),
    ...(settings.versusFresh ? { versusFresh: true } : {}),
    // `memory: auto`, as the CLI's `--memory`: the repository's root files, on both arms.
    ...(settings.memoryFiles === undefined ? {} : { memory: settings.memoryFiles }),
    rules: { ...DEFAULT_RULES, runsPerQuery: settings.runs },
    timeoutSeconds: settings.timeoutSeconds,
    stub: STUB_LAYOUT,
    maxRetries: MAX_RETRIES,
    defaultBin,
    env,
    ...(settings.agents ? { agents: settings.agents } : {}),
    // competition: siblings, through the CLI's own --siblings path (measureSkill installs them).
    ...(target.siblings.length === 0 ? {} : { siblings: target.siblings }),
    // `roster`, as `run --roster`: every run of both sides listed among the crowd, in a HOME of its own.
    ...(settings.rosterCrowd === undefined ? {} : { roster: { crowd: settings.rosterCrowd } }),
  } satisfies LoopSettings;
}

/**
 * Measures one skill (with its base description when paired) against the baseline planned for it,
 * and returns what the run records of it.
 */
export async function measureOne(
  target: MeasureTarget,
  m: MeasureContext,
  baseline: BaselinePlan | undefined,
): Promise<MeasuredSkill> {
  const { ctx, settings } = m;
  const { plan, evalSet } = target;
  const skill = plan.head;
  const paired = isPaired(target, baseline);
  if (baseline)
    core.info(`baseline: ${baseline.use}${'why' in baseline.baseline ? ` (${baseline.baseline.why})` : ''}`);
  const { report, warnings } = await measureReport(target, m, paired);
  const written = await writeSkillReport(report, m);

  const drift = settings.mode === 'drift';
  const names = { base: 'baseline', cand: drift ? 'this run' : 'this PR' };
  const result: MeasuredSkill = {
    kind: 'measured',
    skill: skill.name,
    file: plan.path,
    descriptionLine: skill.descriptionLine,
    change: plan.change,
    ...(plan.previousPath === undefined ? {} : { previousPath: plan.previousPath }),
    report,
    reportPath: written.jsonPath,
    markdownPath: written.markdownPath,
    warnings: [...warnings, ...(evalSet.warnings ?? [])],
  };
  if (baseline) {
    result.baseline = baseline.baseline;
    if (baseline.use === 'cache') result.baselineReport = baseline.report;
    Object.assign(
      result,
      compareWithBaseline(report, baseline.use === 'cache' ? baseline.report : baseline.use, names),
    );
  }
  // A drift run saves only once every skill is judged (src/action/drift.ts).
  if (ctx.event.kind !== 'pull_request' && !drift)
    result.saved = await saveBaseline(report, written.jsonPath, m);
  if (result.comparison) core.info(`compared with the baseline: ${result.comparison.label}`);
  return result;
}

/**
 * The runs of one skill (both sides when paired), each told as it ends, with what Claude Code lists
 * for each side read first; the job's budget charged. Returns the report and the listing's warnings.
 */
async function measureReport(
  target: MeasureTarget,
  m: MeasureContext,
  paired: boolean,
): Promise<{ report: Report; warnings: string[] }> {
  const { ctx, settings, installs, gates, signal } = m;
  const listedBy = installs[DEFAULT_AGENT];
  const { plan, evalSet } = target;
  const skill = plan.head;
  const queries = evalSet.items.length;
  const env = agentsEnv(settings);
  // What Claude Code lists for each side, as the CLI's run reads it (docs/listing-parity.md).
  // Read only where claude runs; Codex's adapter lists the SKILL.md's text itself.
  const { listed, warnings } = listedBy
    ? await actionListedTexts(skill, paired ? plan.base : undefined, STUB_LAYOUT, {
        bin: listedBy.bin,
        env,
        signal,
        ...(settings.model === undefined ? {} : { model: settings.model }),
      })
    : { listed: undefined, warnings: skill.warnings };
  // Runs whose agent reported no tokens: the job's budget counts each at its estimate, as the loop did.
  let unreportedRuns = 0;
  const report: Report = await measureSkill(
    {
      ...loopSettingsOf(target, settings, installedBin(installs, DEFAULT_AGENT), env),
      ...(paired && plan.base ? { baselineDescription: plan.base.description } : {}),
      ...(listed === undefined ? {} : { listed }),
      // Every report is priced (the comment's cost footer): the built-in table, or `prices`.
      prices: m.prices,
      // `max-cost-usd`: the job's budget, less what the skills before this one spent.
      ...(m.budget ? { budget: m.budget.next() } : {}),
      // The first skill's first claude run may have been started before the gates (first-standby.ts).
      ...(m.early ? { early: m.early } : {}),
      ...othersOf(installs, gates, target),
      conflictAllowed: gates.conflictAllowed,
      simulated: ctx.simulated,
      toolVersion: TOOL_VERSION,
      // The roster gate's stub-less run, as on the CLI: every report records what the model saw.
      ...(gates.rosterInit === undefined ? {} : { rosterInit: gates.rosterInit }),
      ...(target.siblings.length === 0 ? {} : { crossNegatives: settings.crossNegatives }),
      // How each agent lists the stub on this runner (docs/listing-budget.md), told before the runs.
      readListing: true,
      onListing: (read) => {
        for (const line of listingReadLines(read, paired)) core.info(line);
      },
    },
    (p) => {
      if (p.result.usageUnreported) unreportedRuns++;
      core.info(progressLine(p, queries, settings.runs, paired));
    },
    signal,
  );
  m.budget?.record(report, unreportedRuns);
  return { report, warnings };
}

/** The report written (with its JUnit file beside it), its headlines told. */
async function writeSkillReport(report: Report, m: MeasureContext) {
  const out = path.resolve(m.ctx.workspace, m.settings.out);
  const written = await writeReport(out, report, renderMarkdown(report));
  // The `junit` output: the same per-query results as JUnit XML, beside the report.
  await writeRenderingFile(junitPathFor(written.jsonPath), renderJunit(report), 'JUnit XML', 'the out input');
  if (report.baseline) core.info(`baseline: ${reportHeadline(report.baseline)}`);
  core.info(`${report.baseline ? 'this PR:  ' : ''}${reportHeadline(report.candidate)}`);
  core.info(`report: ${written.jsonPath}`);
  return written;
}

/** Outside a PR: the report saved as the skill's baseline, unless the job was cancelled. */
async function saveBaseline(
  report: Report,
  reportPath: string,
  m: MeasureContext,
): Promise<NonNullable<MeasuredSkill['saved']>> {
  // A cancelled job saves nothing, even a report that kept a verdict: a baseline is a whole run.
  const saved = m.signal.aborted
    ? { saved: false as const, why: 'the job was cancelled, and a cut-short run is never a baseline' }
    : await saveAsBaseline({ report, reportPath, sha: m.scope.head, runnerOs: m.ctx.runnerOs });
  core.info(saved.saved ? `baseline saved: ${saved.key}` : `baseline not saved: ${saved.why}`);
  return saved;
}
