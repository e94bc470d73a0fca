/**
 * The routing matrix on the agent seam (src/agents/agent.ts): each owner of queries is one
 * "side" of the loop, whose project holds its skill as the tested one and every other skill of the
 * matrix beside it. Claude gets its stubs from the listed texts (with its standbys, and the first
 * one started before the gates); every other agent gets each skill's description as it lists it,
 * the others as siblings, through its runtime's `matrix`, so its decision names whichever skill it
 * loaded.
 */
import type { Agent, AgentId, AgentSide } from '../agents/agent.js';
import { claudeLoopAgent, waitingSpecOf } from '../agents/claude/agent.js';
import type { EarlyStandby } from '../agents/claude/early-standby.js';
import { inheritedEnvironment } from '../agents/claude/environment.js';
import { claudeEnvironment, type RunDeps, type RunSpec, realRunDeps } from '../agents/claude/run-once.js';
import { machineStandbyCount } from '../agents/claude/standby.js';
import type { WaitingSpec } from '../agents/claude/waiting-run.js';
import type { StubSpec } from '../agents/process/stub-project.js';
import { agentFacts } from '../agents/registry.js';
import { runtimeOf } from '../agents/runtime.js';
import type { ContextTurn } from '../inputs/context.js';
import { stubFieldsFor } from '../inputs/listing.js';
import type { EvalSet } from '../inputs/types.js';
import { withContexts } from '../measure/measurement-loop.js';
import {
  type MatrixQueryRef,
  matrixQueries,
  planMatrix,
  type Shard,
  shardQueries,
  sortSkills,
} from './plan.js';

/**
 * The agent the matrix runs on when it is not the default one (`--agent <id>`), reached through
 * its runtime: its executable, and its version for the report.
 */
export interface MatrixOtherAgent {
  id: AgentId;
  bin: string;
  version?: string;
}

/**
 * What the default agent's runs are made with (its processes and temp projects; tests give their
 * own), and how the report counts the environment they inherit: the matrix's only ways into Claude
 * Code besides its loop agent below.
 */
export type MatrixRunDeps = RunDeps;
export const realMatrixRunDeps: MatrixRunDeps = realRunDeps;
export const matrixEnvironment = inheritedEnvironment;

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
  /** The default agent's executable. */
  bin: string;
  env: NodeJS.ProcessEnv;
  model?: string;
  debug?: boolean;
  standby?: number;
  /** `--context`: the turns every query without a context of its own starts with (docs/context.md). */
  context?: readonly ContextTurn[];
  /** The matrix runs on this agent instead of the default one. */
  agent?: MatrixOtherAgent;
  /** The first claude run's standby, started before the gates (src/agents/claude/early-standby.ts). */
  early?: EarlyStandby;
}

/** How many claudes the matrix starts ahead: none on another agent, else `--standby`, else the machine's default. */
export function matrixStandbyCount(settings: Pick<MatrixAgentSettings, 'agent' | 'standby'>): number {
  if (settings.agent) return 0;
  return settings.standby ?? machineStandbyCount();
}

/** Claude's run settings of the matrix (the query and the stub are each run's). */
export function matrixRunSpec(settings: MatrixAgentSettings): Omit<RunSpec, 'query' | 'stub'> {
  return {
    timeoutMs: settings.timeoutSeconds * 1000,
    claudeBin: settings.bin,
    env: claudeEnvironment(settings.env, settings.maxRetries),
    ...(settings.model ? { model: settings.model } : {}),
    ...(settings.debug ? { debug: true } : {}),
  };
}

/** Each skill's claude stub (skills by name): it as the tested one, every other one a sibling, in name order. */
function claudeStubs(settings: MatrixAgentSettings): StubSpec[] {
  const entrants = sortSkills(settings.entrants);
  return entrants.map((owner) => ({
    layout: settings.stub,
    skillName: owner.name,
    ...stubFieldsFor(owner.listed),
    siblings: entrants
      .filter((e) => e.name !== owner.name)
      .map((e) => ({ skillName: e.name, ...stubFieldsFor(e.listed) })),
  }));
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

/** The plan's first run: its side (index among the skills by name) and its context; undefined with nothing to run. */
function firstRun(
  settings: MatrixAgentSettings,
): { side: number; context?: readonly ContextTurn[] } | undefined {
  const entrants = sortSkills(settings.entrants);
  const refs = matrixRefs(settings);
  const slot = planMatrix(refs.length, settings.runsPerQuery)[0];
  const ref = slot && refs[slot.query];
  const side = entrants.findIndex((e) => e.name === ref?.owner);
  if (side < 0) return undefined;
  const context = ref?.item.context?.turns;
  return { side, ...(context === undefined ? {} : { context }) };
}

/**
 * What the standby of the matrix's first run is started with, from the texts known before the gates
 * (the emulated listings); undefined when another agent runs, runs go cold, or nothing is planned.
 */
export function firstMatrixStandbySpec(
  settings: MatrixAgentSettings,
  standby: number,
): WaitingSpec | undefined {
  if (settings.agent || standby === 0) return undefined;
  const first = firstRun(settings);
  if (first === undefined) return undefined;
  return waitingSpecOf(
    { stubs: claudeStubs(settings), run: matrixRunSpec(settings) },
    { ...first, ...(settings.model ? { model: settings.model } : {}) },
  );
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

/** The matrix's agent: the other agent through its runtime when one was asked for, else Claude Code with `standby` standbys. */
export function matrixAgent(settings: MatrixAgentSettings, standby: number, deps: RunDeps): Agent {
  if (settings.agent) {
    const { id, bin, version } = settings.agent;
    const runtime = runtimeOf(id);
    if (runtime?.matrix === undefined) throw new Error(`${agentFacts(id).label} cannot run a routing matrix`);
    return runtime.matrix({
      bin,
      env: settings.env,
      ...(version === undefined ? {} : { version }),
      sides: matrixSides(settings.entrants),
    });
  }
  const first = standby > 0 ? firstRun(settings) : undefined;
  return claudeLoopAgent(
    {
      stubs: claudeStubs(settings),
      run: matrixRunSpec(settings),
      standby,
      ...(first === undefined
        ? {}
        : { first: { ...first, ...(settings.model ? { model: settings.model } : {}) } }),
      ...(settings.early ? { early: settings.early } : {}),
    },
    deps,
  );
}
