/**
 * What the plan's second dimension is (the agents with several, else the models), and what a claude
 * standby of a plan slot is started with: read by the loop, and ahead of it, before the gates, for
 * the first run's standby (src/agents/claude/early-standby.ts).
 */

import type { WaitingSpec } from '../agents/claude/waiting-run.js';
import type { AgentTarget, LoopSpec } from './loop-spec.js';
import { type PlannedRun, planRuns } from './run-plan.js';

export interface LoopTargets {
  /** `--agent a,b`: the agents, with two or more. */
  severalAgents?: AgentTarget[];
  /** `--model a,b` (with one agent). */
  models?: string[];
  /** One per plan slot's `model` index. */
  targets: AgentTarget[];
}

export function loopTargets(spec: LoopSpec): LoopTargets {
  const severalAgents = spec.agents && spec.agents.length > 1 ? spec.agents : undefined;
  const models = !severalAgents && spec.models && spec.models.length > 0 ? spec.models : undefined;
  const targets: AgentTarget[] =
    severalAgents ??
    (models ?? [spec.run.model]).map((model) => ({
      agent: spec.agents?.[0]?.agent ?? spec.agent ?? 'claude',
      ...(model === undefined ? {} : { model }),
    }));
  return {
    ...(severalAgents ? { severalAgents } : {}),
    ...(models ? { models } : {}),
    targets,
  };
}

/** The model a slot's run is asked for, as the loop passes it on (absent: the agent's default). */
export function slotModel(t: LoopTargets, model: number): string | undefined {
  return t.models?.[model] ?? t.severalAgents?.[model]?.model;
}

/** How many standbys the loop keeps: none when no run is claude's (an agent on the seam runs cold). */
export function standbyCount(spec: LoopSpec, t: LoopTargets): number {
  return t.targets.some((target) => target.agent === 'claude') ? (spec.standby ?? 0) : 0;
}

/** What a standby for this slot's claude run is started with: its side's stub, its model, its query's context. */
export function waitingSpecFor(spec: LoopSpec, t: LoopTargets, slot: PlannedRun): WaitingSpec | undefined {
  const side = spec.sides[slot.side];
  if (!side) return undefined;
  const model = slotModel(t, slot.model);
  const context = spec.items[slot.itemIndex]?.context?.turns;
  return {
    ...spec.run,
    stub: side.stub,
    ...(model === undefined ? {} : { model }),
    ...(context === undefined ? {} : { context }),
  };
}

/**
 * What the standby of the loop's first claude run is started with; undefined when the runs go
 * cold (no standby) or none is claude's.
 */
export function firstWaitingSpec(spec: LoopSpec): WaitingSpec | undefined {
  const t = loopTargets(spec);
  if (standbyCount(spec, t) === 0) return undefined;
  const first = firstClaudeRun(spec, t);
  return first ? waitingSpecFor(spec, t, first) : undefined;
}

/** The plan's first claude run, which the early standby serves (src/agents/claude/agent.ts). */
export function firstClaudeRun(spec: LoopSpec, t: LoopTargets): PlannedRun | undefined {
  const plan = planRuns(spec.items.length, spec.rules.runsPerQuery, spec.sides.length, t.targets.length);
  return plan.find((slot) => t.targets[slot.model]?.agent === 'claude');
}
