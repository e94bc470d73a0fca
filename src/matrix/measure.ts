import os from 'node:os';
import type { InheritedSetup } from '../agents/gates.js';
import { StubProjectError } from '../agents/process/stub-project.js';
import { DEFAULT_AGENT } from '../agents/registry.js';
import {
  type Agent,
  type AgentRunRequest,
  type InitInfo,
  RunInterrupted,
  type UpcomingRun,
} from '../agents/runs.js';
import { loopRuntimeOf } from '../agents/runtime.js';
import { contextRefusal } from '../inputs/agents.js';
import { describeContext } from '../inputs/context.js';
import type { RunResult } from '../measure/loop-spec.js';
import type { RuntimeLookup } from '../measure/measurement-loop.js';
import { runOnAgent } from '../measure/run-agent.js';
import type { MatrixReport, MatrixRun } from '../schemas/matrix.js';
import { rosterOf } from '../schemas/privacy.js';
import { shouldStop } from '../verdict/rules.js';
import {
  type MatrixAgentSettings,
  matrixAgent,
  matrixEnvironment,
  matrixRefs,
  matrixStandbyCount,
} from './agent.js';
import { buildMatrixReport, describeMatrixSkill } from './build.js';
import { type MatrixProgress, type MatrixQueryRef, type MatrixSlot, planMatrix, sortSkills } from './plan.js';
import { destinationOf, summarizeMatrixQuery } from './tally.js';

export type { MatrixAgent, MatrixEntrant } from './agent.js';

/** Everything a matrix measurement needs, validated by the command. */
export interface MatrixSettings extends MatrixAgentSettings {
  noVerdictShare: number;
  conflictAllowed: boolean;
  simulated: boolean;
  toolVersion: string;
  /** The roster a stub-less run saw, from the roster gate. */
  rosterInit?: InitInfo;
  /** Told when the loop stopped for a reason of its own (no temp project); the message may hold paths. */
  onStopped?: (message: string) => void;
}

/** What the loop over the plan measured: each query's runs, every result in order, and how it ended. */
interface MatrixTally {
  planned: number;
  runs: MatrixRun[][];
  results: RunResult[];
  aborted: boolean;
  interrupted: boolean;
}

/**
 * Measure the matrix: every query of this leg (every query without `--shard`) runs with its owner's
 * stub as the tested one and every other skill installed beside it as a sibling, strictly one run
 * at a time, round-robin; each run records which skill it loaded. Never writes files itself.
 * `runtimes`: the agents' runtimes (a test's stand-ins).
 */
export async function measureMatrix(
  settings: MatrixSettings,
  onRun: (p: MatrixProgress) => void,
  signal?: AbortSignal,
  runtimes: RuntimeLookup = loopRuntimeOf,
): Promise<MatrixReport> {
  const refs = matrixRefs(settings);
  // The CLI refuses this before its gates; the Action's entries reach it here, before any run.
  const refused = contextRefusal(
    [{ agent: settings.agent.id }],
    refs.some((ref) => ref.item.context?.turns !== undefined) ? 'a context' : undefined,
  );
  if (refused) throw refused;
  const environment = await matrixEnvironment(settings.env, os.tmpdir(), runtimes);
  // With standbys, the next runs start ahead (docs/speed.md); an agent without a warm standby runs cold.
  const standbys = matrixStandbyCount(settings, runtimes);
  const agent = matrixAgent(settings, standbys, runtimes);
  let tally: MatrixTally;
  try {
    tally = await measurePlan(settings, refs, { agent, standbys }, onRun, signal);
  } finally {
    await agent.settle?.();
  }
  return matrixReport(settings, refs, tally, {
    environment,
    launch: standbys > 0 ? 'standby' : 'cold',
  });
}

/**
 * The loop over the plan: one run at a time, each on its owner's side, the next runs prepared
 * while it runs; it stops once no verdict is possible, at an interrupt, or when no temp project
 * can be made after some runs were measured.
 */
async function measurePlan(
  settings: MatrixSettings,
  refs: readonly MatrixQueryRef[],
  on: { agent: Agent; standbys: number },
  onRun: (p: MatrixProgress) => void,
  signal: AbortSignal | undefined,
): Promise<MatrixTally> {
  const plan = planMatrix(refs.length, settings.runsPerQuery);
  // Each owner is one side of the loop: its project holds its skill as the tested one.
  const names = sortSkills(settings.entrants).map((e) => e.name);
  const sideOf = new Map(names.map((name, side) => [name, side]));
  const installed = new Set(names);
  const tally: MatrixTally = {
    planned: plan.length,
    runs: refs.map(() => []),
    results: [],
    aborted: false,
    interrupted: false,
  };
  const upcoming = upcomingRuns(plan, refs, sideOf, on, settings.model);
  for (const [index, slot] of plan.entries()) {
    const ref = refs[slot.query];
    const side = ref && sideOf.get(ref.owner);
    if (!ref || side === undefined) continue;
    const result = await measureSlot(settings, on.agent, runRequest(settings, ref, side, signal), {
      ahead: () => on.agent.ahead?.(upcoming(index)),
      measured: tally.results.length,
    });
    if (result === 'interrupted' || result === 'stopped') {
      tally.aborted = true;
      tally.interrupted = result === 'interrupted';
      break;
    }
    const went = destinationOf(result.outcome, result.loaded, ref.owner, installed);
    tally.runs[slot.query]?.push(went);
    tally.results.push(result);
    onRun({
      query: slot.query,
      queries: refs.length,
      owner: ref.owner,
      pass: slot.pass,
      runsPerQuery: settings.runsPerQuery,
      went,
      durationMs: result.durationMs,
      done: tally.results.length,
      planned: plan.length,
    });
    if (noVerdictLeft(tally, settings)) {
      tally.aborted = true;
      break;
    }
  }
  return tally;
}

/** The run of one query on its owner's side. */
function runRequest(
  settings: MatrixSettings,
  ref: MatrixQueryRef,
  side: number,
  signal: AbortSignal | undefined,
): AgentRunRequest {
  return {
    query: ref.item.query,
    side,
    ...(settings.model ? { model: settings.model } : {}),
    timeoutMs: settings.timeoutSeconds * 1000,
    ...(signal ? { signal } : {}),
    ...(ref.item.context?.turns === undefined ? {} : { context: ref.item.context.turns }),
  };
}

/**
 * One run, the next ones prepared (`ahead`) once it has started; `interrupted` when the user's
 * signal stopped it, `stopped` when no temp project could be made after `measured` runs.
 */
async function measureSlot(
  settings: Pick<MatrixSettings, 'onStopped'>,
  agent: Agent,
  request: AgentRunRequest,
  at: { ahead: () => void; measured: number },
): Promise<RunResult | 'interrupted' | 'stopped'> {
  try {
    const running = runOnAgent(agent, request);
    at.ahead();
    return await running;
  } catch (error) {
    if (error instanceof RunInterrupted) return 'interrupted';
    // A temp folder that fills up mid-matrix must not cost the runs already measured.
    if (error instanceof StubProjectError && at.measured > 0) {
      settings.onStopped?.(error.message);
      return 'stopped';
    }
    throw error;
  }
}

/** The next runs after plan[index] (as many as the agent prepares), nearest first. */
function upcomingRuns(
  plan: readonly MatrixSlot[],
  refs: readonly MatrixQueryRef[],
  sideOf: ReadonlyMap<string, number>,
  on: { agent: Agent; standbys: number },
  model: string | undefined,
): (index: number) => UpcomingRun[] {
  return (index) =>
    plan.slice(index + 1, index + 1 + Math.max(on.standbys, 1)).flatMap((slot) => {
      const owner = refs[slot.query]?.owner;
      const side = owner === undefined ? undefined : sideOf.get(owner);
      const context = refs[slot.query]?.item.context?.turns;
      return side === undefined
        ? []
        : [
            {
              agent: on.agent.id,
              side,
              ...(model ? { model } : {}),
              ...(context === undefined ? {} : { context }),
            },
          ];
    });
}

/** The no-verdict rule of run, over every run of the matrix so far: true once no verdict is possible. */
function noVerdictLeft(tally: MatrixTally, settings: MatrixSettings): boolean {
  if (tally.results.length >= tally.planned) return false;
  const lost = tally.runs.flat().filter((r) => r.to === 'lost').length;
  const anyQueryLostAll = tally.runs.some(
    (r) => r.length === settings.runsPerQuery && r.every((x) => x.to === 'lost'),
  );
  return shouldStop({ planned: tally.planned, lost, anyQueryLostAll, share: settings.noVerdictShare });
}

/**
 * Which installed skill's stub a name of the init roster is: the skill layout lists a stub by the
 * skill's name, the command layout as `<skill>-stub-<8 hex>`.
 */
function isInstalledStub(name: string, skills: readonly string[]): boolean {
  return skills.some((s) => name === s || (name.startsWith(`${s}-stub-`) && /-stub-[0-9a-f]{8}$/.test(name)));
}

/** The report of what the loop measured. */
function matrixReport(
  settings: MatrixSettings,
  refs: readonly MatrixQueryRef[],
  tally: MatrixTally,
  made: { environment: InheritedSetup; launch: 'standby' | 'cold' },
): MatrixReport {
  const entrants = sortSkills(settings.entrants);
  const firstInit = firstInitOf(settings, tally);
  const reportedModels: Record<string, number> = {};
  for (const r of tally.results) if (r.model) reportedModels[r.model] = (reportedModels[r.model] ?? 0) + 1;
  const names = entrants.map((e) => e.name);
  const stubNames = firstInit
    ? [...firstInit.slashCommands, ...firstInit.skills].filter((n) => isInstalledStub(n, names))
    : [];
  return buildMatrixReport(
    {
      toolVersion: settings.toolVersion,
      createdAt: new Date(),
      simulated: settings.simulated,
      agent: settings.agent.id,
      cliVersion:
        (settings.agent.id === DEFAULT_AGENT ? firstInit?.cliVersion : settings.agent.version) ?? null,
      requestedModel: settings.model ?? null,
      reportedModels,
      roster: firstInit ? rosterOf(firstInit.slashCommands, firstInit.skills, stubNames) : null,
      environment: { ...made.environment, mcpServers: firstInit?.mcpServers ?? 0 },
      settings: {
        runsPerQuery: settings.runsPerQuery,
        timeoutSeconds: settings.timeoutSeconds,
        noVerdictShare: settings.noVerdictShare,
        stub: settings.stub,
        maxRetries: settings.maxRetries,
        launch: made.launch,
        ...(settings.context === undefined ? {} : { context: describeContext(settings.context) }),
      },
      conflictAllowed: settings.conflictAllowed,
      shard: settings.shard ?? null,
      skills: entrants.map((e) => describeMatrixSkill(e.name, e.listed, e.evalSet?.items ?? null)),
      planned: tally.planned,
      aborted: tally.aborted,
      interrupted: tally.interrupted,
    },
    refs.map((ref, k) => summarizeMatrixQuery(ref, tally.runs[k] ?? [])),
  );
}

/**
 * The init event the report reads the CLI's version, the roster and the MCP servers from: the
 * roster gate's, else the first run's. Another agent has none: its version is its gates', and the
 * machine's roster is the default agent's notion.
 */
function firstInitOf(settings: MatrixSettings, tally: MatrixTally): InitInfo | undefined {
  if (settings.agent.id !== DEFAULT_AGENT) return undefined;
  return settings.rosterInit ?? tally.results.find((r) => r.init)?.init;
}
