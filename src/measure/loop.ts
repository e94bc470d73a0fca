import type { Agent } from '../adapters/agent.js';
import { StubProjectError } from '../adapters/stub-project.js';
import type { EvalItem } from '../inputs/types.js';
import { isLost, type Outcome } from '../outcome.js';
import { autoQueryDone, plannedFor, shouldStop } from '../verdict/rules.js';
import type { LoopResult, LoopSpec, RunProgress } from './loop-spec.js';
import { loopTargets, slotModel, standbyCount, waitingSpecFor } from './loop-targets.js';
import { projectPrefetch } from './prefetch.js';
import { runOnAgent } from './run-agent.js';
import { type RunDeps, RunInterrupted, type RunResult, realRunDeps, runOnce } from './run-once.js';
import { type PlannedRun, planRuns } from './run-plan.js';
import { standbyPool } from './standby.js';
import { discardWaiting, startWaiting, type WaitingRun, type WaitingSpec } from './waiting-run.js';

/** Runs the plan one run at a time. Never parallel: concurrent runs compete for the API and the CPU. */
export async function measureAll(
  spec: LoopSpec,
  onRun: (progress: RunProgress) => void = () => {},
  signal?: AbortSignal,
  deps: RunDeps = realRunDeps,
): Promise<LoopResult> {
  const { items, sides, rules } = spec;
  // The plan's second dimension: the agents with several, else the models; each slot one target.
  const shape = loopTargets(spec);
  const { severalAgents, models, targets } = shape;
  const modelCount = targets.length;
  const onSeam = (target: number): Agent | undefined => {
    const agent = targets[target]?.agent ?? 'claude';
    if (agent === 'claude') return undefined;
    const adapter = spec.seam?.[agent];
    if (!adapter) throw new Error(`no adapter was given for the agent ${agent}`);
    return adapter;
  };
  const plan = planRuns(items.length, rules.runsPerQuery, sides.length, modelCount);
  const records: RunResult[][][] = sides.map(() => items.map(() => []));
  /** One side's runs of one query on one model. */
  const runsOf = (side: number, itemIndex: number, model: number): RunResult[] => {
    const runs = records[side]?.[itemIndex] ?? [];
    if (severalAgents) return runs.filter((r) => (r.agent ?? 'claude') === severalAgents[model]?.agent);
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
  // The next run's project is made while this one runs; a finished run's folder is removed while
  // the next starts (docs/speed.md). Keyed by side: each side has its own stub.
  const projects = projectPrefetch<number>(deps.createProject);
  // With standbys, each run's claude is started ahead in its own project; a standby serves one
  // side (its stub) on one model, both fixed when it is spawned. An agent on the seam runs cold.
  const standbys = standbyCount(spec, shape);
  const launch = standbys > 0 ? ('standby' as const) : ('cold' as const);
  const keyOf = (slot: PlannedRun) => `${slot.side}/${slot.model}`;
  const waitingSpecs = new Map<string, WaitingSpec>();
  for (const slot of plan) {
    const waiting = waitingSpecFor(spec, shape, slot);
    if (waiting && !waitingSpecs.has(keyOf(slot)) && !onSeam(slot.model))
      waitingSpecs.set(keyOf(slot), waiting);
  }
  const pool = standbyPool<WaitingRun>(standbys, {
    start: (key) => {
      const waiting = waitingSpecs.get(key);
      return waiting ? startWaiting(waiting, deps) : Promise.reject(new Error(`no run planned for ${key}`));
    },
    discard: discardWaiting,
  });
  // The first claude run's standby may have been started before the gates: it serves that run if
  // it was started as the loop would start it, and is discarded otherwise.
  const firstClaude = plan.find((slot) => !onSeam(slot.model));
  const early = spec.early?.claim(
    launch === 'standby' && firstClaude ? waitingSpecs.get(keyOf(firstClaude)) : undefined,
  );
  if (early && firstClaude) pool.adopt(keyOf(firstClaude), early);
  /** The keys of the runs after plan[index] that are still to run, nearest first. */
  const upcoming = (index: number): string[] =>
    plan
      .slice(index + 1)
      .filter((slot) => !settled(slot.itemIndex) && !onSeam(slot.model))
      .slice(0, standbys)
      .map(keyOf);
  try {
    return await runPlan();
  } finally {
    await Promise.all([pool.settle(), projects.settle(), spec.early?.release()]);
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
        if (spentUsd + nextEstimateUsd > spec.budget.maxUsd) {
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
        const agent = onSeam(slot.model);
        if (agent) {
          if (!side.seamStub) throw new Error(`no stub was given for the agent ${agent.id}`);
          const running = runOnAgent(agent, {
            ...side.seamStub,
            query: item.query,
            ...((model ?? targets[slot.model]?.model) === undefined
              ? {}
              : { model: model ?? targets[slot.model]?.model }),
            timeoutMs: spec.run.timeoutMs,
            ...(signal ? { signal } : {}),
          });
          // The next run's claude project is made while this one runs, as after a claude run.
          const following = plan[index + 1];
          const next = following && sides[following.side];
          if (launch === 'cold' && following && next && !onSeam(following.model))
            projects.prefetch(following.side, next.stub);
          else if (launch === 'standby') pool.fill(upcoming(index));
          result = await running;
        } else {
          const standby = pool.take(keyOf(slot));
          const running = runOnce(
            {
              ...spec.run,
              query: item.query,
              stub: side.stub,
              ...(model === undefined ? {} : { model }),
              launch,
            },
            signal,
            deps,
            { ...projects.optionsFor(slot.side), ...(standby ? { standby } : {}) },
          );
          if (launch === 'standby') {
            pool.fill(upcoming(index));
          } else {
            const following = plan[index + 1];
            const next = following && sides[following.side];
            if (following && next && !onSeam(following.model)) projects.prefetch(following.side, next.stub);
          }
          result = await running;
        }
        if (model !== undefined) result = { ...result, requestedModel: model };
        if (severalAgents) result = { ...result, agent: targets[slot.model]?.agent ?? 'claude' };
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
