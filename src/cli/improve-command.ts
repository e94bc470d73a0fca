import { readFile } from 'node:fs/promises';
import { DEFAULT_AGENTS } from '../agents/ids.js';
import { DEFAULT_AGENT } from '../agents/registry.js';
import type { EarlyStart } from '../agents/runs.js';
import { askAgent } from '../agents/runtime.js';
import { skillBody } from '../author/skill-file.js';
import { formatUsd } from '../cost/cost.js';
import { costCheckWarnings } from '../cost/cost-check.js';
import { loadPrices } from '../cost/prices-file.js';
import { ExitCode, SkilltriggerError } from '../errors.js';
import { isBudgetStopped } from '../improve/budget.js';
import { splitItems } from '../improve/decide.js';
import { renderImproveMarkdown } from '../improve/markdown.js';
import { type ImproveDeps, runImproveSession } from '../improve/session.js';
import type { ContextTurn } from '../inputs/context.js';
import { loadEvalSet, loadSkill } from '../inputs/files.js';
import type { MemoryFile } from '../inputs/memory.js';
import type { EvalSet, Skill } from '../inputs/types.js';
import type { MeasureSettings } from '../measure/measure-settings.js';
import { measureSkill } from '../measure/measure-skill.js';
import { startEarly } from '../measure/measurement-loop.js';
import type { PreflightResult } from '../preflight/preflight.js';
import { fileNamePart, writeValidatedReport } from '../report/disk/files.js';
import { renderHtml } from '../report/html/render.js';
import { type ImproveReport, improveReportSchema } from '../schemas/improve.js';
import type { Report } from '../schemas/report.js';
import { TOOL_VERSION } from '../version.js';
import type { ImproveArgs } from './author-args.js';
import { roundTripCostWarnings } from './cost-step.js';
import { passGates } from './gates-step.js';
import { writeDescription } from './improve-apply.js';
import { planSessionCost } from './improve-cost.js';
import { agentSettings, checkSplit, refuseForAgent, sessionAgents } from './improve-inputs.js';
import { improveSummary } from './improve-summary.js';
import { flagSettingsFrom, measureSettingsFrom } from './measure-settings.js';
import { outInSkillWarning } from './option-values.js';
import { earlyOtherAgents, listedSiblingsOf, otherAgentSettings } from './other-agents.js';
import { progressBar } from './progress.js';
import type { CliIo } from './run-command.js';
import { runContext } from './run-context.js';
import { runMemory } from './run-memory.js';

/**
 * `skilltrigger improve`: the gates once, then the session (src/improve/session.ts) with the real
 * measurement and the real rewrite call, the improve report, and — with `--write` and a winner
 * that held on the holdout — the description replaced in SKILL.md, nothing else.
 */
export async function improveCommand(given: ImproveArgs, io: CliIo, signal: AbortSignal): Promise<ExitCode> {
  const inputs = await improveInputs(given, io);
  const { args, skill, evalSet } = inputs;
  // The original's first run starts now, its prompt not yet written, so its start-up overlaps the
  // gates (docs/speed.md); the session's first measurement takes it.
  const agents = sessionAgents(args);
  const early = startEarly({
    skill,
    evalSet,
    description: skill.description,
    overridden: false,
    ...(agents ? { agents, others: earlyOtherAgents(agents, args.bins) } : {}),
    ...flagSettingsFrom(args, io),
  });
  const { preflight, reminders } = await passGates(
    args,
    {
      ...(agents ? { agents, bins: args.bins } : {}),
      ...(args.model ? { model: args.model } : {}),
      skillName: skill.name,
    },
    early,
    io,
    signal,
  );
  let report: ImproveReport;
  try {
    // Another agent's runs: its executable, its version for the report, no siblings.
    const others = agents
      ? await otherAgentSettings(args.bins, io, preflight, listedSiblingsOf(agents, []))
      : undefined;
    report = await improveSession(inputs, { preflight, early, ...(others ? { others } : {}) }, io, signal);
  } finally {
    await early.release();
    preflight.release();
  }
  return finishImprove(report, inputs, reminders, io);
}

/** What the gates hand the session: their result, the first run started early, another agent's settings. */
interface SessionGated {
  preflight: PreflightResult;
  early: EarlyStart;
  others?: MeasureSettings['others'];
}

/** What `improve` reads and checks before anything is spent. */
interface ImproveInputs {
  args: ImproveArgs & { contextTurns?: readonly ContextTurn[]; memoryFiles?: readonly MemoryFile[] };
  skill: Skill;
  /** The SKILL.md as it stands, which `--write` edits. */
  original: string;
  context: Awaited<ReturnType<typeof runContext>>;
  evalSet: EvalSet;
  prices: Awaited<ReturnType<typeof loadPrices>>;
}

async function improveInputs(given: ImproveArgs, io: CliIo): Promise<ImproveInputs> {
  const skill = await loadSkill(given.skill);
  const original = await readFile(skill.file, 'utf8');
  // --context and --context-fill, read and checked as run reads them: every measurement starts its
  // runs with the turns (an entry's own context is the more precise), the holdout's as the train's.
  const context = await runContext(given, io);
  // --memory, as run reads it: every measurement's runs hold the files.
  const memoryFiles = await runMemory(given.memory, DEFAULT_AGENTS, io);
  const args = {
    ...given,
    ...(context === undefined ? {} : { contextTurns: context.turns }),
    ...(memoryFiles.length === 0 ? {} : { memoryFiles }),
  };
  const evalSet = await loadEvalSet(args.eval, skill.name);
  checkSplit(evalSet);
  refuseForAgent(args, skill, evalSet);
  for (const warning of skill.warnings) io.stderr.write(`warning: ${warning}\n`);
  const outWarning = outInSkillWarning(args.out, skill.dir);
  if (outWarning) io.stderr.write(`warning: ${outWarning}\n`);
  const prices = await loadPrices(args.prices);
  return { args, skill, original, context, evalSet, prices };
}

/** The session (src/improve/session.ts) with the real measurement and the real rewrite call. */
async function improveSession(
  inputs: ImproveInputs,
  gated: SessionGated,
  io: CliIo,
  signal: AbortSignal,
): Promise<ImproveReport> {
  const { args, skill, original, evalSet } = inputs;
  const costing = sessionCosting(inputs, gated.preflight, io);
  const agent = args.agent ?? DEFAULT_AGENT;
  return runImproveSession(
    {
      ...(args.agent ? { agent: args.agent } : {}),
      skillName: skill.name,
      body: skillBody(original),
      original: skill.description,
      items: evalSet.items,
      iterations: args.iterations,
      runsPerQuery: args.runs,
      runsAuto: args.runsAuto,
      ...(args.model ? { model: args.model } : {}),
      triggerThreshold: args.threshold,
      stub: args.stub,
      simulated: io.env.SKILLTRIGGER_SIMULATED === '1',
      toolVersion: TOOL_VERSION,
      costOfUsage: costing.costOfUsage,
      ...(costing.budget ? { budget: costing.budget } : {}),
    },
    {
      phase: (line) => io.stderr.write(`${line}\n`),
      ask: (prompt) =>
        askAgent(agent, prompt, {
          bin: args.bins[agent],
          env: io.env,
          maxRetries: args.maxRetries,
          ...(args.model ? { model: args.model } : {}),
          timeoutMs: args.askTimeoutSeconds * 1000,
          signal,
        }),
      measure: sessionMeasure(inputs, gated, io, signal),
      stopped: () => signal.aborted,
    },
  );
}

/**
 * The whole session's estimate (measured runs and rewrite calls), said when a budget holds it;
 * --max-cost-usd refuses here, before any run. The price table is checked against the CLI's own
 * figure at the round trip, as `run` checks it.
 */
function sessionCosting(inputs: ImproveInputs, preflight: PreflightResult, io: CliIo) {
  const { args, skill, original, context, evalSet, prices } = inputs;
  const { train, holdout } = splitItems(evalSet.items);
  const costing = planSessionCost(
    {
      skillName: skill.name,
      body: skillBody(original),
      train,
      holdout,
      iterations: args.iterations,
      runsPerQuery: args.runs,
      model: args.model,
      ...(args.agent ? { agent: args.agent } : {}),
      ...(context === undefined ? {} : { context: context.turns }),
    },
    args.runsAuto,
    preflight,
    prices,
    args.maxCostUsd,
  );
  if (costing.plan && costing.budget)
    io.stderr.write(
      `improve: estimated at ${args.runsAuto ? 'up to ' : ''}${formatUsd(costing.plan.usd)}, within --max-cost-usd ${formatUsd(costing.budget.maxUsd)}\n`,
    );
  for (const w of roundTripCostWarnings(preflight, prices)) io.stderr.write(`warning: ${w}\n`);
  return costing;
}

/**
 * The session's measurement of one phase: `measureSkill` on the phase's queries, a progress bar on
 * a terminal, and the price table checked on each measurement (a model warned about once a
 * session: every phase prices the same way).
 */
function sessionMeasure(
  inputs: ImproveInputs,
  gated: SessionGated,
  io: CliIo,
  signal: AbortSignal,
): ImproveDeps['measure'] {
  const { args, skill, evalSet, prices } = inputs;
  const warned = new Set<string>();
  const warnCost = (phase: string, measured: Report) => {
    for (const m of [measured.candidate, measured.baseline]) {
      const check = m?.cost?.check;
      if (!check) continue;
      const fresh = check.models.filter((own) => own.differs && !warned.has(own.model));
      for (const w of costCheckWarnings({ ...check, models: fresh }))
        io.stderr.write(`warning: ${phase}: ${w}\n`);
      for (const own of fresh) warned.add(own.model);
    }
  };
  return async ({ phase, items, description, baseline, budget }) => {
    let barShown = false;
    const measured = await measureSkill(
      {
        skill,
        evalSet: { ...evalSet, items },
        description,
        overridden: description !== skill.description,
        ...(baseline === undefined ? {} : { baselineDescription: baseline }),
        ...agentSettings(args, gated.others),
        ...measureSettingsFrom(args, io, gated.preflight, { prices, ...(budget ? { budget } : {}) }),
        // Only the first measurement can take it: the loop releases it when it ends.
        early: gated.early,
      },
      (p) => {
        if (!io.stderr.isTTY) return;
        io.stderr.write(`\r\x1b[2K${progressBar(p.done, p.planned)}`);
        barShown = true;
      },
      signal,
    );
    if (barShown) io.stderr.write('\r\x1b[2K');
    warnCost(phase, measured);
    // Stopped by a signal, the measurement holds the runs made so far: the session reports them.
    return measured;
  };
}

/**
 * The end of a session: the winner written with `--write` when it held on the holdout, the report
 * checked, summed up and written; the exit code.
 */
async function finishImprove(
  given: ImproveReport,
  inputs: Pick<ImproveInputs, 'args' | 'skill' | 'original'>,
  reminders: string,
  io: CliIo,
): Promise<ExitCode> {
  const { args, skill, original } = inputs;
  let report = given;
  let writeError: SkilltriggerError | undefined;
  if (report.final.recommendation === 'adopt' && report.final.winner !== null && args.write) {
    try {
      await writeDescription(skill.file, original, report.final.winner);
      report = { ...report, final: { ...report.final, written: true } };
    } catch (error) {
      if (!(error instanceof SkilltriggerError)) throw error;
      writeError = error;
    }
  }

  const checked = improveReportSchema.parse(report);
  if (checked.simulated)
    io.stdout.write('SIMULATED: these numbers come from the simulated model, not from a real model.\n');
  const noVerdict = isBudgetStopped(checked) || checked.interrupted === true;
  if (noVerdict) io.stdout.write(`NO VERDICT — this is not a measurement: ${checked.stopReason}\n`);
  io.stdout.write(`${improveSummary(checked)}\n`);
  const date = checked.createdAt.slice(0, 10);
  const paths = await writeValidatedReport(
    args.out,
    `${date}-${fileNamePart(checked.skill)}-improve`,
    checked,
    { what: 'improve report', validate: (value) => improveReportSchema.parse(value) },
    // The page holds the texts, as the JSON does.
    {
      markdown: renderImproveMarkdown(checked),
      html: () => renderHtml({ kind: 'improve', report: checked }, TOOL_VERSION),
    },
  );
  io.stdout.write(`report (holds the description texts): ${paths.jsonPath}\n        ${paths.markdownPath}\n`);
  if (paths.htmlPath) io.stdout.write(`        ${paths.htmlPath}\n`);
  if (reminders) io.stderr.write(reminders);
  if (writeError) throw writeError;
  return noVerdict ? ExitCode.noVerdict : ExitCode.verdict;
}
