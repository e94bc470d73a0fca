import type { AgentId } from '../agents/ids.js';
import { agentFacts, DEFAULT_AGENT } from '../agents/registry.js';
import { listedTextProbe, loopRuntimeOf } from '../agents/runtime.js';
import { ExitCode, InputErrors } from '../errors.js';
import { contextRefusal } from '../inputs/agents.js';
import { type MatrixAgent, type MatrixAgentSettings, startMatrixEarly } from '../matrix/agent.js';
import { loadMatrixEntrants, type MatrixEntrantInput } from '../matrix/entrants.js';
import { readMatrixReportFile, writeMatrixReport } from '../matrix/files.js';
import { matrixProgressLine, matrixTextLines, renderMatrixMarkdown } from '../matrix/markdown.js';
import { type MatrixEntrant, measureMatrix } from '../matrix/measure.js';
import { mergeMatrixLegs } from '../matrix/merge.js';
import type { PreflightResult } from '../preflight/preflight.js';
import { checkReportFolder } from '../report/disk/files.js';
import type { MatrixReport } from '../schemas/matrix.js';
import { DEFAULT_RULES } from '../verdict/rules.js';
import { TOOL_VERSION } from '../version.js';
import type { MatrixArgs } from './args.js';
import { evalSetWarnings } from './check-command.js';
import { passGates } from './gates-step.js';
import { otherAgentSettings } from './other-agents.js';
import { LineProgress } from './progress.js';
import type { CliIo } from './run-command.js';
import { runContext } from './run-context.js';

/**
 * `skilltrigger matrix`: every skill under `--skills` installed in every run, every query of every
 * eval set measured, which skill each run loaded recorded; or `--merge`, the legs of a sharded
 * matrix combined. Inputs are validated before anything is spent; the gates are run's; the report is
 * written also without a verdict (exit 3).
 */
export async function matrixCommand(args: MatrixArgs, io: CliIo, signal: AbortSignal): Promise<ExitCode> {
  if (args.merge.length > 0) return await mergeLegs(args, io);
  const entrants = await loadEntrants(args.skills ?? '', io);
  await checkReportFolder(args.out);
  const other = args.agent === undefined ? undefined : { id: args.agent, bin: args.bins[args.agent] };
  // A skill the agent leaves out of its listing is never chosen there: refused before the gates.
  if (other !== undefined) refuseUnlisted(other.id, entrants);
  if (other !== undefined) warnColdStandby(other.id, args, io);
  // A context is an input too: read and checked, and refused on an agent that takes none, before the gates.
  const context = await runContext(args, io);
  refuseContexts(other?.id, args, context !== undefined, entrants);
  const measuring = { ...measuringSettings(args, io), ...(context ? { context: context.turns } : {}) };
  // The first run's agent starts now, its prompt not yet written, so its start-up overlaps the
  // gates (an agent whose runtime has such a start). Its stubs hold the texts foreseen now: on the
  // default agent what the emulation foresees, taken only if the listing probe reads the same; on
  // another, what it lists for each skill, known before its gates.
  const early = startMatrixEarly(
    other === undefined
      ? { ...measuring, entrants: entrants.map(foreseenEntrant) }
      : { ...measuring, agent: other, entrants: listedByAgent(other.id, entrants) },
  );
  const { preflight, reminders } = await passGates(
    args,
    {
      ...(args.model ? { model: args.model } : {}),
      ...(other === undefined ? {} : { agents: [{ agent: other.id }], bins: { [other.id]: other.bin } }),
      skillNames: entrants.map((e) => e.skill.name),
    },
    early,
    io,
    signal,
  );
  try {
    const listing = other === undefined ? undefined : await otherAgentListing(other, io, preflight, entrants);
    const listed = listing ? listing.entrants : await listedTexts(args, io, signal, entrants);
    const progress = new LineProgress(io.stderr, matrixProgressLine);
    const report = await measureMatrix(
      {
        ...measuring,
        entrants: listed,
        ...(listing ? { agent: listing.agent } : {}),
        early,
        noVerdictShare: DEFAULT_RULES.noVerdictShare,
        conflictAllowed: preflight.conflictAllowed,
        simulated: io.env.SKILLTRIGGER_SIMULATED === '1',
        toolVersion: TOOL_VERSION,
        ...(preflight.rosterInit ? { rosterInit: preflight.rosterInit } : {}),
        onStopped: (message) => io.stderr.write(`skilltrigger: stopped early: ${message}\n`),
      },
      progress.onRun,
      signal,
    );
    progress.clearBar();
    return await finish(args, io, report);
  } finally {
    await early.release();
    preflight.release();
    if (reminders) io.stderr.write(reminders);
  }
}

/** `matrix --merge`: the legs of a sharded matrix read and combined into one report. */
async function mergeLegs(args: MatrixArgs, io: CliIo): Promise<ExitCode> {
  await checkReportFolder(args.out);
  const legs = [];
  for (const file of args.merge) legs.push({ file, report: await readMatrixReportFile(file) });
  return await finish(args, io, mergeMatrixLegs(legs, new Date()));
}

/** `--standby` on an agent without a warm standby is said to be ignored: its runs always start cold. */
function warnColdStandby(id: AgentId, args: MatrixArgs, io: CliIo): void {
  if (agentFacts(id).warmStandby || args.standby === undefined || args.standby <= 0) return;
  io.stderr.write(
    `standby: --standby ${args.standby} is ignored: ${agentFacts(id).label} runs always start cold (no warm standby; docs/speed.md)\n`,
  );
}

/** What measuring takes from the flags, known before the gates (the skills' texts aside). */
function measuringSettings(args: MatrixArgs, io: CliIo): Omit<MatrixAgentSettings, 'entrants'> {
  return {
    ...(args.shard ? { shard: args.shard } : {}),
    runsPerQuery: args.runs,
    timeoutSeconds: args.timeoutSeconds,
    stub: args.stub,
    maxRetries: args.maxRetries,
    agent: { id: DEFAULT_AGENT, bin: args.bins[DEFAULT_AGENT] },
    env: io.env,
    ...(args.model ? { model: args.model } : {}),
    debug: args.debug,
    ...(args.standby === undefined ? {} : { standby: args.standby }),
  };
}

/** A skill with the text the emulation foresees Claude Code listing (the early standby's stub). */
function foreseenEntrant({ skill, evalSet }: Loaded): MatrixEntrant {
  return { name: skill.name, listed: listedTextProbe(DEFAULT_AGENT).foreseen(skill), evalSet };
}

/** Prints the matrix (or its JSON), writes the report, and gives the exit code. */
async function finish(args: MatrixArgs, io: CliIo, report: MatrixReport): Promise<ExitCode> {
  // The numbers go out before the write, so a report folder that refuses the file loses nothing.
  if (args.json) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    if (report.simulated)
      io.stdout.write('SIMULATED: these numbers come from the simulated model, not from a real model.\n');
    for (const line of matrixTextLines(report)) io.stdout.write(`${line}\n`);
  }
  const paths = await writeMatrixReport(args.out, report, renderMatrixMarkdown(report));
  // With --json, stdout holds the JSON alone.
  const where = args.json ? io.stderr : io.stdout;
  where.write(`report: ${paths.jsonPath}\n        ${paths.markdownPath}\n`);
  if (paths.htmlPath) where.write(`        ${paths.htmlPath}\n`);
  return report.verdict === 'ok' ? ExitCode.verdict : ExitCode.noVerdict;
}

type Loaded = MatrixEntrantInput;

/** A context (`--context`, `--context-fill` or an entry's own) on an agent that takes none: exit 1. */
function refuseContexts(
  id: AgentId | undefined,
  args: MatrixArgs,
  given: boolean,
  entrants: readonly Loaded[],
): void {
  const entry = entrants.find((e) => e.evalSet?.items.some((item) => item.context?.turns !== undefined));
  const what = given
    ? args.contextFill === undefined
      ? '--context'
      : '--context-fill'
    : entry?.evalSet
      ? `${entry.evalSet.file}: an entry's context`
      : undefined;
  const refused = contextRefusal([{ agent: id ?? DEFAULT_AGENT }], what);
  if (refused) throw refused;
}

/**
 * `matrix --agent <id>` for an agent but the default: every skill of the matrix is installed as
 * that agent lists it, in every run. A skill it leaves out of its listing would never be chosen
 * there, so it is an input error (exit 1), every such skill reported at once, before the gates.
 */
function refuseUnlisted(id: AgentId, entrants: readonly Loaded[]): void {
  const listing = loopRuntimeOf(id).fileListing;
  const defects = listing === undefined ? [] : entrants.flatMap((e) => listing.unlisted(e.skill) ?? []);
  const [only] = defects;
  if (defects.length === 1 && only) throw only;
  if (defects.length > 1) throw new InputErrors(defects);
}

/** The agent's listing of the whole skill set: every skill is the others' sibling, as `run` installs its siblings. */
function agentListing(id: AgentId, entrants: readonly Loaded[]) {
  const skills = entrants.map((e) => ({ skill: e.skill, file: e.skill.file }));
  return loopRuntimeOf(id).fileListing?.siblings(skills) ?? { installed: [], leftOut: [] };
}

/** Each skill with the description the agent lists for it, read from its text alone (before the gates too). */
function listedByAgent(id: AgentId, entrants: readonly Loaded[]): MatrixEntrant[] {
  const listedOf = new Map(agentListing(id, entrants).installed.map((s) => [s.skillName, s.description]));
  return entrants.map(({ skill, evalSet }) => ({
    name: skill.name,
    listed: listedOf.get(skill.name) ?? skill.description,
    evalSet,
  }));
}

/** Each skill with the description the other agent lists for it, and that agent's version; after the gates. */
async function otherAgentListing(
  other: { id: MatrixAgent['id']; bin: string },
  io: CliIo,
  preflight: PreflightResult,
  entrants: readonly Loaded[],
): Promise<{ entrants: MatrixEntrant[]; agent: MatrixAgent }> {
  const listing = agentListing(other.id, entrants);
  const settings = (
    await otherAgentSettings({ [other.id]: other.bin }, io, preflight, { [other.id]: listing })
  )[other.id];
  return {
    entrants: listedByAgent(other.id, entrants),
    agent: { ...other, ...(settings?.version ? { version: settings.version } : {}) },
  };
}

/**
 * Every skill and its eval set, validated before anything is spent (src/matrix/entrants.ts, shared
 * with the Action's routing-matrix): every defect is an input error (exit 1), all reported at once.
 */
async function loadEntrants(root: string, io: CliIo): Promise<Loaded[]> {
  const loaded = await loadMatrixEntrants(root, {
    option: '--skills',
    warn: (warning) => io.stderr.write(`warning: ${warning}\n`),
  });
  for (const l of loaded) {
    if (l.evalSet !== null && l.evalFile !== undefined)
      for (const w of evalSetWarnings(l.evalFile, l.evalSet)) io.stderr.write(`warning: ${w}\n`);
  }
  for (const l of loaded)
    if (l.evalSet === null) io.stderr.write(`${l.skill.name}: no eval set; installed as a competitor only\n`);
  return loaded;
}

/**
 * What Claude Code lists for each skill (the listing probe, or the emulation, said so), and each
 * stub checked once to be listed as exactly that text (a mismatch is a failed gate, exit 2).
 */
async function listedTexts(
  args: MatrixArgs,
  io: CliIo,
  signal: AbortSignal,
  entrants: readonly Loaded[],
): Promise<MatrixEntrant[]> {
  const probe = {
    bin: args.bins[DEFAULT_AGENT],
    env: io.env,
    signal,
    ...(args.model ? { model: args.model } : {}),
  };
  const skills = entrants.map((e) => e.skill);
  const label = (i: number) => `skill ${skills[i]?.name}`;
  const listing = listedTextProbe(DEFAULT_AGENT);
  // Every skill's listing and its stub's check share starts of the CLI (`listAndCheck`).
  const { listed, checked } = await listing.listAndCheck(
    skills,
    // A skill with an unlisted defect stops the matrix (exit 1) before any stub would be judged.
    (texts) =>
      texts.some((own, i) => skills[i] !== undefined && listing.unlistedDefect(skills[i], own) !== undefined)
        ? []
        : texts.map((own, i) => ({ text: own.text, label: label(i) })),
    args.stub,
    probe,
  );
  const out: MatrixEntrant[] = [];
  for (const [i, { skill, evalSet }] of entrants.entries()) {
    const own = listed[i];
    if (own === undefined) continue;
    // A skill Claude Code leaves out of its listing is never chosen: routing to it measures nothing.
    const unlisted = listing.unlistedDefect(skill, own);
    if (unlisted !== undefined) throw unlisted;
    for (const warning of own.warnings) io.stderr.write(`warning: ${skill.name}: ${warning}\n`);
    if (own.source === 'emulation')
      io.stderr.write(`listing: ${skill.name}: emulated, not read from Claude Code (${own.why})\n`);
    const skipped = checked[i]?.skipped;
    if (skipped !== undefined)
      io.stderr.write(`listing: ${skill.name}: the stub's listing was not checked (${skipped})\n`);
    out.push({ name: skill.name, listed: own.text, evalSet });
  }
  return out;
}

// The per-run progress line lives with the matrix's other text, shared with the Action's routing matrix.
export { matrixProgressLine };
