import { type Agent, RunInterrupted, type UpcomingRun } from '../agents/agent.js';
import { StubProjectError } from '../agents/process/stub-project.js';
import { DEFAULT_AGENT } from '../agents/registry.js';
import { fitsBudget } from '../cost/budget.js';
import type { EvalItem } from '../inputs/types.js';
import { isLost, type Outcome } from '../outcome.js';
import { autoQueryDone, plannedFor, shouldStop } from '../verdict/rules.js';
import type { LoopResult, LoopSpec, RunProgress, RunResult } from './loop-spec.js';
import { loopTargets, slotModel } from './loop-targets.js';
import { runOnAgent } from './run-agent.js';

/** Runs the plan one run at a time. Never parallel: concurrent runs compete for the API and the CPU. */
export async function measureAll(
  spec: LoopSpec,
  onRun: (progress: RunProgress) => void = () => {},
  signal?: AbortSignal,
): Promise<LoopResult> {
  const { items, sides, rules } = spec;
  // The plan's second dimension: the agents with several, else the models; each slot one target.
  const shape = spec.planned ?? loopTargets(spec);
  const { severalAgents, models, targets } = shape;
  const modelCount = targets.length;
  // The agents come with the spec, opened for this plan (src/measure/measurement-loop.ts).
  const agents = spec.seam;
  const agentOf = (target: number): Agent => {
    const id = targets[target]?.agent ?? DEFAULT_AGENT;
    const agent = agents[id];
    if (!agent) throw new Error(`no adapter was given for the agent ${id}`);
    return agent;
  };
  const plan = shape.runs;
  const records: RunResult[][][] = sides.map(() => items.map(() => []));
  /** One side's runs of one query on one model. */
  const runsOf = (side: number, itemIndex: number, model: number): RunResult[] => {
    const runs = records[side]?.[itemIndex] ?? [];
    if (severalAgents) return runs.filter((r) => r.agent === severalAgents[model]?.agent);
    return models ? runs.filter((r) => r.requestedModel === models[model]) : runs;
  };
  /** Every (side, model) is measured, and judged by the no-verdict rule, on its own. */
  const groups = sides.flatMap((_, side) =>
    Array.from({ length: modelCount }, (_, model) => ({ side, model })),
  );
  const perItemOf = (group: { side: number; model: number }): RunResult[][] =>
    items.map((_, i) => runsOf(group.side, i, group.model));
  // With --runs auto a query leaves the rotation once settled on every side and model (pairs stay whole).
  const settled = (itemIndex: number): boolean =>
    rules.autoRuns === true &&
    groups.every((g) =>
      autoQueryDone(items[itemIndex] as EvalItem, runsOf(g.side, itemIndex, g.model), rules),
    );
  const plannedOf = (perItem: RunResult[][]): number =>
    items.reduce((n, item, i) => n + plannedFor(item, perItem[i] ?? [], rules), 0);
  /** The runs after plan[index] that are still to run, nearest first, for the agents to prepare. */
  const upcoming = (index: number): UpcomingRun[] => {
    const settledNow = new Map<number, boolean>();
    const isSettled = (item: number): boolean => {
      const known = settledNow.get(item) ?? settled(item);
      settledNow.set(item, known);
      return known;
    };
    return plan
      .slice(index + 1)
      .filter((slot) => !isSettled(slot.itemIndex))
      .map((slot) => {
        const model = slotModel(shape, slot.model) ?? targets[slot.model]?.model;
        const context = items[slot.itemIndex]?.context?.turns;
        return {
          agent: agentOf(slot.model).id,
          side: slot.side,
          ...(model === undefined ? {} : { model }),
          ...(context === undefined ? {} : { context }),
        };
      });
  };
  try {
    return await runPlan();
  } finally {
    await Promise.all(Object.values(agents).map((agent) => agent.settle?.()));
  }

  async function runPlan(): Promise<LoopResult> {
    let done = 0;
    let spentUsd = spec.budget?.spentUsd ?? 0;
    let largestRunUsd = 0;
    for (const [index, slot] of plan.entries()) {
      const side = sides[slot.side];
      const item = items[slot.itemIndex];
      if (!side || !item) continue;
      // Skip a settled query's pass, unless one side of the pair already ran it this pass.
      const pairStarted = sides.some((_, s) => runsOf(s, slot.itemIndex, slot.model).length > slot.pass);
      if (settled(slot.itemIndex) && !pairStarted) continue;
      if (spec.budget) {
        // The next run is expected to cost as much as the dearest one so far (the round trip's
        // before any): a run stopped at its decision cannot be cut short of its prompt's price.
        const nextEstimateUsd = done === 0 ? spec.budget.firstEstimateUsd : largestRunUsd;
        if (!fitsBudget(spentUsd, nextEstimateUsd, spec.budget.maxUsd)) {
          return {
            records,
            aborted: true,
            interrupted: false,
            budgetStop: { spentUsd, nextEstimateUsd, maxUsd: spec.budget.maxUsd },
          };
        }
      }
      let result: RunResult;
      try {
        const model = slotModel(shape, slot.model);
        const asked = model ?? targets[slot.model]?.model;
        const context = item.context?.turns;
        const running = runOnAgent(agentOf(slot.model), {
          query: item.query,
          side: slot.side,
          ...(asked === undefined ? {} : { model: asked }),
          timeoutMs: spec.timeoutMs,
          ...(signal ? { signal } : {}),
          ...(context === undefined ? {} : { context }),
        });
        // The next runs are prepared while this one runs (docs/speed.md).
        const next = upcoming(index);
        for (const agent of Object.values(agents)) agent.ahead?.(next);
        result = await running;
        if (model !== undefined) result = { ...result, requestedModel: model };
        if (severalAgents) result = { ...result, agent: agentOf(slot.model).id };
        if (context !== undefined) result = { ...result, inContext: true };
      } catch (error) {
        if (error instanceof RunInterrupted) return { records, aborted: true, interrupted: true };
        // A temp folder that fills up mid-run must not cost the runs already measured: stop, and
        // let the caller write them as a stopped (no-verdict) measurement. Before any run, there is
        // nothing to keep, and the error itself is the clearest answer.
        if (error instanceof StubProjectError && done > 0) {
          return { records, aborted: true, interrupted: false, failure: error };
        }
        throw error;
      }
      records[slot.side]?.[slot.itemIndex]?.push(result);
      done++;
      if (spec.budget) {
        const cost = spec.budget.costOf(result);
        spentUsd += cost;
        largestRunUsd = Math.max(largestRunUsd, cost);
      }
      onRun({
        ...slot,
        done,
        planned: rules.autoRuns ? groups.reduce((n, g) => n + plannedOf(perItemOf(g)), 0) : plan.length,
        label: side.label,
        result,
      });
      const stop = groups.map(perItemOf).some((perItem) =>
        shouldStop({
          planned: plannedOf(perItem),
          lost: perItem.flat().filter((r) => isLost(r.outcome)).length,
          anyQueryLostAll: perItem.some(
            (runs) =>
              runs.length > 0 && runs.length === rules.runsPerQuery && runs.every((r) => isLost(r.outcome)),
          ),
          share: rules.noVerdictShare,
        }),
      );
      const remaining = plan.length - done;
      if (stop && remaining > 0 && !items.every((_, i) => settled(i)))
        return { records, aborted: true, interrupted: false };
    }
    return { records, aborted: false, interrupted: false };
  }
}

export function describeOutcome(outcome: Outcome): string {
  return outcome.kind === 'error' ? `error (${outcome.cause})` : outcome.kind;
}
