import { type AgentChoice, DEFAULT_AGENTS, measures } from '../agents/ids.js';
import { agentFacts, DEFAULT_AGENT } from '../agents/registry.js';
import { loopRuntimeOf } from '../agents/runtime.js';
import { planModels } from '../cost/plan-models.js';
import { loadPrices } from '../cost/prices-file.js';
import { ExitCode } from '../errors.js';
import { refuseContext } from '../inputs/agents.js';
import { leftOutLink, loadSkill } from '../inputs/files.js';
import { crossNegativeItems, loadSiblings } from '../inputs/sibling-files.js';
import { crossNegativesEstimate } from '../inputs/siblings.js';
import { specLengthWarning, validateDescription } from '../inputs/skill-fields.js';
import type { MeasureRoster } from '../measure/measure-settings.js';
import { contextCharsOf, loopItemsOf } from '../measure/measurement-loop.js';
import type { PreflightResult } from '../preflight/preflight.js';
import { checkReportFolder } from '../report/disk/files.js';
import { checkRenderingFile } from '../report/disk/folder.js';
import { baselineLine, baselineText } from './baseline-text.js';
import { evalSetWarnings } from './check-command.js';
import { refuseSameModel } from './cost-args.js';
import { dryRunText, planCost, roundTripCostWarnings } from './cost-step.js';
import { ownEvalSet } from './eval-file.js';
import { passGates } from './gates-step.js';
import { listedTexts, siblingTexts } from './listing-step.js';
import { measureAndReport, startFirstStandby } from './measure-step.js';
import { outInSkillWarning } from './option-values.js';
import { listedSiblingsOf, otherAgentSettings } from './other-agents.js';
import type { CliIo } from './output.js';
import { prepareRosterRun, type RosterRun, versusCleanRefusal } from './roster-run.js';
import type { RunArgs } from './run-args.js';
import { runContext, versusFreshCount } from './run-context.js';
import { runMemory } from './run-memory.js';
import { siblingsLine } from './siblings-line.js';

export type { CliIo } from './output.js';

/**
 * `skilltrigger run`: validate every input before anything is spawned, run the gates, measure,
 * write the report (also when there is no verdict), print the headline, return the exit code.
 */
export async function runCommand(given: RunArgs, io: CliIo, signal: AbortSignal): Promise<ExitCode> {
  const inputs = await readRunInputs(given, io);
  const agents = inputs.args.agents ?? DEFAULT_AGENTS;
  // --roster: read and checked now; on Claude Code every step from here lists it in a throwaway HOME.
  const rostered = await prepareRosterRun(given, agents, inputs.skill.dir, io);
  try {
    return await runAmong(inputs, rostered, rostered?.io ?? io, signal);
  } finally {
    await rostered?.release();
  }
}

/** `run` once its inputs are read, with the roster's environment when there is one. */
async function runAmong(
  inputs: RunInputs,
  rostered: RosterRun | undefined,
  io: CliIo,
  signal: AbortSignal,
): Promise<ExitCode> {
  const given = inputs.args;
  const { args, skill, evalSet, description, baselineDescription, siblingSkills } = inputs;
  warnBeforeRun(inputs, io);
  const agents = args.agents ?? DEFAULT_AGENTS;
  refuseContext(
    agents,
    { context: inputs.context !== undefined, fill: given.contextFill !== undefined },
    evalSet.items,
    inputs.evalFile,
  );
  const listedByAgent = agentNotes(inputs, agents, io);
  // With several agents the default agent's gates take its own model.
  const several = agents.length > 1;
  const defaultModel = several ? agents.find((a) => a.agent === DEFAULT_AGENT)?.model : args.model;

  // The first run's claude starts now, its prompt not yet written, so its start-up overlaps the gates.
  const early = startFirstStandby(args, io, {
    skill,
    evalSet,
    description,
    baselineDescription,
    siblings: siblingSkills.length,
  });
  // The gates (docs/design.md) run here, before anything is measured; a failure exits 2 and
  // takes the waiting claude with it.
  const { preflight, reminders } = await passGates(
    args,
    {
      agents,
      ...(defaultModel ? { model: defaultModel } : {}),
      ...(args.models ? { models: args.models } : {}),
      skillName: skill.name,
    },
    early,
    io,
    signal,
  );
  try {
    return await measureAfterGates(
      inputs,
      { agents, listedByAgent, preflight, early, ...(rostered ? { roster: rostered.roster } : {}) },
      io,
      signal,
    );
  } finally {
    await early.release();
    preflight.release();
    // The end of every run repeats the reminder: it is the last thing the user reads.
    if (reminders) io.stderr.write(reminders);
  }
}

type RunInputs = Awaited<ReturnType<typeof readRunInputs>>;

/** Every input read and checked, in order, before anything is spawned or spent. */
async function readRunInputs(given: RunArgs, io: CliIo) {
  const skill = await loadSkill(given.skill);
  // The context is an input too: refused with its file, line and fix before anything is spent.
  const context = await runContext(given, io);
  // So are the memory files: each read and checked, every defect refused together.
  const memoryFiles = await runMemory(given.memory, given.agents ?? DEFAULT_AGENTS, io);
  const args = {
    ...given,
    ...(context === undefined ? {} : { contextTurns: context.turns }),
    ...(memoryFiles.length === 0 ? {} : { memoryFiles }),
  };
  const { file: evalFile, evalSet: ownSet } = await ownEvalSet(args.eval, skill, io);
  // Siblings and their eval sets are inputs too: every defect is found before anything is spent.
  const siblingSkills =
    args.siblings.length === 0
      ? []
      : await loadSiblings(args.siblings, skill, undefined, (dir, link) =>
          io.stderr.write(`warning: --siblings: ${leftOutLink(dir, link)}\n`),
        );
  const cross = args.crossNegatives ? await crossNegativeItems(siblingSkills) : undefined;
  const evalSet = cross === undefined ? ownSet : { ...ownSet, items: [...ownSet.items, ...cross.items] };
  // --versus-fresh measures each query with a context twice: the plan counts both.
  const twice = args.versusFresh ? versusFreshCount(evalSet.items, context?.turns, io) : 0;
  const description =
    args.description === undefined
      ? skill.description
      : validateDescription(args.description, { file: '--description' });
  const baseline = await baselineText(args.baselineDescription, args.baselineDescriptionFile);
  const versusClean = versusCleanRefusal(args);
  if (versusClean) throw versusClean;
  // --versus-clean: the same description is the baseline side, measured in the clean room.
  const baselineDescription = args.versusClean
    ? description
    : baseline === undefined
      ? undefined
      : validateDescription(baseline.text, { file: baseline.file ?? '--baseline-description' });
  // A folder that cannot take the report is refused before anything is spent, not after the runs;
  // so is a --junit path, written after the report.
  await checkReportFolder(args.out);
  if (args.junit !== undefined) await checkRenderingFile(args.junit, 'JUnit XML', '--junit');
  const prices = await loadPrices(args.prices);
  return {
    args,
    skill,
    context,
    evalFile,
    ownSet,
    siblingSkills,
    cross,
    evalSet,
    twice,
    description,
    baseline,
    baselineDescription,
    prices,
  };
}

/** The skill's, the descriptions', the eval set's, the baseline's and the report folder's warnings. */
function warnBeforeRun(inputs: RunInputs, io: CliIo): void {
  const { args, skill, evalFile, ownSet, baseline, baselineDescription } = inputs;
  const listingWarnings = new Set(skill.listingWarnings ?? []);
  for (const warning of skill.warnings)
    if (!listingWarnings.has(warning)) io.stderr.write(`warning: ${warning}\n`);
  for (const text of [args.description, baselineDescription]) {
    const long = text === undefined ? undefined : specLengthWarning(text);
    if (long) io.stderr.write(`warning: --description: ${long}\n`);
  }
  // What `check` would say about the set, before any run is spent on it.
  for (const warning of evalSetWarnings(evalFile, ownSet)) io.stderr.write(`warning: ${warning}\n`);
  if (baseline !== undefined) io.stderr.write(`${baselineLine(baseline)}\n`);
  const outWarning = outInSkillWarning(args.out, skill.dir);
  if (outWarning) io.stderr.write(`warning: ${outWarning}\n`);
}

/**
 * What stderr says about the agents before the gates (the siblings as each lists them, the cross
 * negatives, an ignored standby, the interleaving); a SKILL.md an agent does not list is refused.
 * Returns the siblings as each other agent lists them, read once.
 */
function agentNotes(inputs: RunInputs, agents: readonly AgentChoice[], io: CliIo) {
  const { args, skill, siblingSkills, cross } = inputs;
  // The siblings as each other agent lists them, read once: the line below and its settings both say them.
  const listedByAgent = listedSiblingsOf(agents, siblingSkills);
  if (siblingSkills.length > 0) {
    io.stderr.write(`${siblingsLine(siblingSkills, agents, listedByAgent)}\n`);
  } else if (args.siblings.length > 0) {
    io.stderr.write('siblings: no other SKILL.md found under --siblings; the skill is measured alone\n');
  }
  if (cross !== undefined) {
    io.stderr.write(`${crossNegativesEstimate(cross, args.runs)}\n`);
  }

  const several = agents.length > 1;
  const warmRuns = agents.some((a) => agentFacts(a.agent).warmStandby);
  if (!warmRuns && args.standby !== undefined && args.standby > 0)
    io.stderr.write(
      `standby: --standby ${args.standby} is ignored: ${agents.map((a) => agentFacts(a.agent).label).join(' and ')} runs always start cold (no warm standby; docs/speed.md)\n`,
    );
  if (several)
    io.stderr.write(
      `agents: every query is measured on each of ${agents.map((a) => a.agent).join(', ')}, interleaved, each judged on its own\n`,
    );
  // A SKILL.md an agent does not list has nothing to measure on it: refused before the gates (an
  // agent with a listed-text probe refuses it when its probe reads the listing).
  for (const { agent } of agents) {
    const defect = loopRuntimeOf(agent).fileListing?.unlisted(skill);
    if (defect) throw defect;
  }
  return listedByAgent;
}

/** The plan and its estimate from the round trips; --max-cost-usd refuses here, before any run. */
function planRunCost(
  inputs: RunInputs,
  agents: readonly AgentChoice[],
  preflight: PreflightResult,
  io: CliIo,
) {
  const { args, evalSet, twice, baselineDescription, prices, context } = inputs;
  // Each run's context is priced with it, as the loop will run the queries (docs/cost.md).
  const contextChars = contextCharsOf(loopItemsOf(evalSet.items, context?.turns, args.versusFresh).items);
  const shape = {
    queries: evalSet.items.length + twice,
    runsPerQuery: args.runs,
    sides: baselineDescription === undefined ? 1 : 2,
    // One slot per model, or per agent with several; a Codex run is estimated from Codex's round trip.
    models: planModels(agents, args.models ?? [args.model]),
    ...(contextChars.some((chars) => chars > 0) ? { contextChars } : {}),
  };
  const costPlan = planCost(shape, args.runsAuto, preflight, prices, args.maxCostUsd);
  for (const w of roundTripCostWarnings(preflight, prices)) io.stderr.write(`warning: ${w}\n`);
  return { shape, costPlan };
}

/** After the gates: one model per alias, the plan and its estimate (or the dry run), the listings, the runs. */
async function measureAfterGates(
  inputs: RunInputs,
  gated: {
    agents: readonly AgentChoice[];
    listedByAgent: ReturnType<typeof listedSiblingsOf>;
    preflight: PreflightResult;
    early: Parameters<typeof measureAndReport>[3]['early'];
    roster?: MeasureRoster;
  },
  io: CliIo,
  signal: AbortSignal,
): Promise<ExitCode> {
  const { args, skill, baseline, baselineDescription } = inputs;
  const { agents, listedByAgent, preflight, early } = gated;
  const defaultRuns = measures(agents, DEFAULT_AGENT);
  // An alias and its full id are one model: known only now, from the round trips, and refused before any run.
  refuseSameModel(args.models, {
    ...(preflight.roundTripModels ? { init: preflight.roundTripModels } : {}),
    ...(preflight.roundTripMessageModels ? { message: preflight.roundTripMessageModels } : {}),
  });
  const { shape, costPlan } = planRunCost(inputs, agents, preflight, io);
  if (args.dryRun) {
    io.stdout.write(dryRunText(shape, args.runsAuto, costPlan));
    return ExitCode.verdict;
  }
  // Claude Code's listing is read only where claude runs; Codex's adapter lists the SKILL.md's text itself.
  const listed = defaultRuns ? await listedTexts(args, io, signal, skill, baselineDescription) : undefined;
  const others = await otherAgentSettings(args.bins, io, preflight, listedByAgent);
  const versions = Object.fromEntries(
    Object.entries(others).flatMap(([id, other]) => (other?.version ? [[id, other.version]] : [])),
  );
  // The report's sibling set is the default agent's listing where it runs, else the first other agent's.
  const siblings = defaultRuns
    ? await siblingTexts(args, io, signal, inputs.siblingSkills)
    : (Object.values(others)[0]?.siblings ?? []).map((s) => ({ name: s.skillName, listed: s.description }));
  return await measureAndReport(
    args,
    io,
    signal,
    {
      skill,
      evalSet: inputs.evalSet,
      description: inputs.description,
      baselineDescription,
      ...(baseline === undefined ? {} : { baselineFrom: baseline.from }),
      evalFile: inputs.evalFile,
      ...(listed ? { listed } : {}),
      siblings,
      ...(args.agents ? { agents: args.agents } : {}),
      ...(Object.keys(others).length === 0 ? {} : { others }),
      ...(Object.keys(versions).length === 0 ? {} : { agentVersions: versions }),
      early,
      ...(gated.roster ? { roster: gated.roster } : {}),
    },
    preflight,
    { prices: inputs.prices, ...(costPlan.budget ? { budget: costPlan.budget } : {}) },
  );
}
