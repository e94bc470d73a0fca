/**
 * The routing matrix on the agent seam (src/agents/agent.ts): each owner of queries is one
 * "side" of the loop, whose project holds its skill as the tested one and every other skill of the
 * matrix beside it. The matrix's agent gets each skill's text as it lists it, the others as
 * siblings, through its runtime's `matrix`, so its decision names whichever skill it loaded; an
 * agent with a warm standby may start the first run's before the gates (`startMatrixEarly`).
 */
import type { AgentMatrixSettings, AgentSide } from '../agents/agent.js';
import type { InheritedSetup } from '../agents/gates.js';
import type { AgentId } from '../agents/ids.js';
import { agentFacts, DEFAULT_AGENT } from '../agents/registry.js';
import type { Agent, EarlyStart, RunShape } from '../agents/runs.js';
import { loopRuntimeOf } from '../agents/runtime.js';
import type { ContextTurn } from '../inputs/context.js';
import type { EvalSet } from '../inputs/types.js';
import { NO_EARLY_START, type RuntimeLookup, withContexts } from '../measure/measurement-loop.js';
import {
  type MatrixQueryRef,
  matrixQueries,
  planMatrix,
  type Shard,
  shardQueries,
  sortSkills,
} from './plan.js';

/** The agent a matrix runs on: its id, its executable, and its version for the report where its gates said it. */
export interface MatrixAgent {
  id: AgentId;
  bin: string;
  version?: string;
}

/** One skill of the matrix: its name, the text its stub is written from, its eval set (null: none). */
export interface MatrixEntrant {
  name: string;
  /**
   * What the agent lists for it: Claude Code's listed text (description, ` - `, when_to_use), or
   * the description as the matrix's other agent lists it.
   */
  listed: string;
  evalSet: EvalSet | null;
}

/** What the matrix's agent is made from (a part of `MatrixSettings`). */
export interface MatrixAgentSettings {
  entrants: readonly MatrixEntrant[];
  shard?: Shard;
  runsPerQuery: number;
  timeoutSeconds: number;
  stub: 'command' | 'skill';
  maxRetries: number;
  /** The agent the matrix runs on. */
  agent: MatrixAgent;
  env: NodeJS.ProcessEnv;
  model?: string;
  debug?: boolean;
  standby?: number;
  /** `--context`: the turns every query without a context of its own starts with (docs/context.md). */
  context?: readonly ContextTurn[];
  /** The first run's warm start, begun before the gates (`startMatrixEarly`). */
  early?: EarlyStart;
}

/**
 * How many runs the matrix starts ahead: `--standby`, else the machine's default for its agent; none
 * on an agent without a warm standby (its facts).
 */
export function matrixStandbyCount(
  settings: Pick<MatrixAgentSettings, 'agent' | 'standby'>,
  runtimes: RuntimeLookup = loopRuntimeOf,
): number {
  const { id } = settings.agent;
  if (!agentFacts(id).warmStandby) return 0;
  return settings.standby ?? runtimes(id).defaultStandby?.() ?? 0;
}

/**
 * This leg's queries (every query without `--shard`), skills by name, each with the context its
 * runs start with: its entry's own, else `--context`'s (one array shared by every such query).
 */
export function matrixRefs(
  settings: Pick<MatrixAgentSettings, 'entrants' | 'shard' | 'context'>,
): MatrixQueryRef[] {
  const skills = sortSkills(settings.entrants).map((e) => ({
    name: e.name,
    items: e.evalSet ? withContexts(e.evalSet.items, settings.context) : null,
  }));
  return shardQueries(matrixQueries(skills), settings.shard);
}

/**
 * The plan's first run: its side (index among the skills by name), its model and its context;
 * undefined with nothing to run.
 */
function firstRun(settings: MatrixAgentSettings): RunShape | undefined {
  const entrants = sortSkills(settings.entrants);
  const refs = matrixRefs(settings);
  const slot = planMatrix(refs.length, settings.runsPerQuery)[0];
  const ref = slot && refs[slot.query];
  const side = entrants.findIndex((e) => e.name === ref?.owner);
  if (side < 0) return undefined;
  const context = ref?.item.context?.turns;
  return {
    side,
    ...(settings.model ? { model: settings.model } : {}),
    ...(context === undefined ? {} : { context }),
  };
}

/** Each skill as the tested one of its side (skills by name), every other one beside it, in name order. */
export function matrixSides(entrants: readonly MatrixEntrant[]): AgentSide[] {
  const sorted = sortSkills(entrants);
  return sorted.map((owner) => ({
    skillName: owner.name,
    description: owner.listed,
    siblings: sorted
      .filter((e) => e.name !== owner.name)
      .map((e) => ({ skillName: e.name, description: e.listed })),
  }));
}

/** What the matrix's agent is opened with, `standby` runs started ahead and the plan's first run among them. */
function agentMatrixSettings(settings: MatrixAgentSettings, standby: number): AgentMatrixSettings {
  const { bin, version } = settings.agent;
  const first = standby > 0 ? firstRun(settings) : undefined;
  return {
    bin,
    env: settings.env,
    ...(version === undefined ? {} : { version }),
    sides: matrixSides(settings.entrants),
    standby,
    layout: settings.stub,
    ...(settings.model ? { model: settings.model } : {}),
    knobs: { maxRetries: settings.maxRetries, ...(settings.debug ? { debug: true } : {}) },
    ...(first === undefined ? {} : { first }),
    ...(settings.early ? { early: settings.early } : {}),
  };
}

/** The matrix's agent with `standby` runs started ahead, through its runtime's `matrix`. */
export function matrixAgent(
  settings: MatrixAgentSettings,
  standby: number,
  runtimes: RuntimeLookup = loopRuntimeOf,
): Agent {
  const { id } = settings.agent;
  const runtime = runtimes(id);
  if (runtime.matrix === undefined) throw new Error(`${agentFacts(id).label} cannot run a routing matrix`);
  return runtime.matrix(agentMatrixSettings(settings, standby));
}

/**
 * The matrix's first run, started now, before the gates, so that its start-up overlaps them
 * (docs/speed.md, "The first standby, beside the gates"), from the texts known so far: the agent
 * takes it when its first run needs exactly that, and `release` discards it otherwise. Starts
 * nothing when runs go cold, nothing is planned, or the agent has no such start.
 */
export function startMatrixEarly(
  settings: MatrixAgentSettings,
  runtimes: RuntimeLookup = loopRuntimeOf,
): EarlyStart {
  const standby = matrixStandbyCount(settings, runtimes);
  const opened = agentMatrixSettings(settings, standby);
  if (standby === 0 || opened.first === undefined) return NO_EARLY_START;
  return runtimes(settings.agent.id).startMatrixEarly?.(opened, opened.first) ?? NO_EARLY_START;
}

/**
 * What the user's setup adds to every run, as the default agent reads it (counts only): the
 * report's `environment`, as `run`'s.
 */
export async function matrixEnvironment(
  env: NodeJS.ProcessEnv,
  tempRoot: string,
  runtimes: RuntimeLookup = loopRuntimeOf,
): Promise<InheritedSetup> {
  return (
    (await runtimes(DEFAULT_AGENT).environment?.(env, tempRoot)) ?? {
      memoryFiles: { project: 0, user: 0 },
      hooks: 0,
    }
  );
}
