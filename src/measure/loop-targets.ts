/**
 * What the plan's second dimension is (the agents with several, else the models), and each agent's
 * warm starts: read by the loop, and ahead of it, before the gates, for the first run's early start.
 */

import type { AgentId } from '../agents/ids.js';
import { agentFacts, DEFAULT_AGENT } from '../agents/registry.js';
import type { AgentWarmStarts, EarlyStart, RunShape } from '../agents/runs.js';
import type { AgentTarget, LoopSpec, LoopTargets } from './loop-spec.js';

export type { LoopTargets } from './loop-spec.js';

import { type PlannedRun, planRuns } from './run-plan.js';

/** The loop's spec before its agents are opened: what the plan is made from. */
export type PlanSpec = Omit<LoopSpec, 'seam' | 'budget'>;

export function loopTargets(spec: PlanSpec): LoopTargets {
  const severalAgents = spec.agents && spec.agents.length > 1 ? spec.agents : undefined;
  const models = !severalAgents && spec.models && spec.models.length > 0 ? spec.models : undefined;
  const targets: AgentTarget[] =
    severalAgents ??
    (models ?? [spec.model]).map((model) => ({
      agent: spec.agents?.[0]?.agent ?? spec.agent ?? DEFAULT_AGENT,
      ...(model === undefined ? {} : { model }),
    }));
  return {
    ...(severalAgents ? { severalAgents } : {}),
    ...(models ? { models } : {}),
    targets,
    runs: planRuns(spec.items.length, spec.rules.runsPerQuery, spec.sides.length, targets.length),
  };
}

/** The model a slot's run is asked for, as the loop passes it on (absent: the agent's default). */
export function slotModel(t: LoopTargets, model: number): string | undefined {
  return t.models?.[model] ?? t.severalAgents?.[model]?.model;
}

/** How many standbys `id` keeps: `standby` for an agent with a warm standby (its facts), else none. */
export function standbyOf(id: AgentId, standby: number): number {
  return agentFacts(id).warmStandby ? standby : 0;
}

/** True when some run of the plan starts warm (the report's `launch`). */
export function startsWarm(t: LoopTargets, standby: number): boolean {
  return t.targets.some((target) => standbyOf(target.agent, standby) > 0);
}

/** The plan's first run of `id`, as a warm start is fixed to it; undefined when none is its. */
export function firstRunOf(spec: PlanSpec, t: LoopTargets, id: AgentId): RunShape | undefined {
  const first: PlannedRun | undefined = t.runs.find((slot) => t.targets[slot.model]?.agent === id);
  if (first === undefined) return undefined;
  const model = slotModel(t, first.model) ?? t.targets[first.model]?.model;
  const context = spec.items[first.itemIndex]?.context?.turns;
  return {
    side: first.side,
    ...(model === undefined ? {} : { model }),
    ...(context === undefined ? {} : { context }),
  };
}

/** `id`'s warm starts in this plan: its standby count, and its first run for the early start. */
export function warmStartsOf(
  spec: PlanSpec,
  t: LoopTargets,
  id: AgentId,
  standby: number,
  early: EarlyStart | undefined,
): AgentWarmStarts {
  const count = standbyOf(id, standby);
  const first = count > 0 ? firstRunOf(spec, t, id) : undefined;
  return { count, ...(first ? { first } : {}), ...(early ? { early } : {}) };
}
