import { StubProjectError } from '../agents/process/stub-project.js';
import { DEFAULT_AGENT } from '../agents/registry.js';
import { type Agent, RunInterrupted } from '../agents/runs.js';
import { fitsBudget } from '../cost/budget.js';
import type { EvalItem } from '../inputs/types.js';
import type { Outcome } from '../outcome.js';
import { type LoopBook, loopBook } from './loop-book.js';
import type { LoopResult, LoopSpec, LoopTargets, RunProgress, RunResult } from './loop-spec.js';
import { loopTargets, slotModel } from './loop-targets.js';
import { runOnAgent } from './run-agent.js';

/** Runs the plan one run at a time. Never parallel: concurrent runs compete for the API and the CPU. */
export async function measureAll(
  spec: LoopSpec,
  onRun: (progress: RunProgress) => void = () => {},
  signal?: AbortSignal,
): Promise<LoopResult> {
  // The plan's second dimension: the agents with several, else the models; each slot one target.
  const shape = spec.planned ?? loopTargets(spec);
  // The agents come with the spec, opened for this plan (src/measure/measurement-loop.ts).
  const agents = spec.seam;
  const agentOf = (target: number): Agent => {
    const id = shape.targets[target]?.agent ?? DEFAULT_AGENT;
    const agent = agents[id];
    if (!agent) throw new Error(`no adapter was given for the agent ${id}`);
    return agent;
  };
  const book = loopBook(spec, shape);
  try {
    return await runPlan({ spec, shape, book, agentOf, onRun, ...(signal ? { signal } : {}) });
  } finally {
    await Promise.all(Object.values(agents).map((agent) => agent.settle?.()));
  }
}

interface PlanRun {
  spec: LoopSpec;
  shape: LoopTargets;
  book: LoopBook;
  agentOf: (target: number) => Agent;
  onRun: (progress: RunProgress) => void;
  signal?: AbortSignal;
}

/** Each slot of the plan in turn, within the budget and the no-verdict rule. */
async function runPlan(run: PlanRun): Promise<LoopResult> {
  const { spec, shape, book } = run;
  const { records } = book;
  const plan = shape.runs;
  let done = 0;
  let spentUsd = spec.budget?.spentUsd ?? 0;
  let largestRunUsd = 0;
  for (const [index, slot] of plan.entries()) {
    const side = spec.sides[slot.side];
    const item = spec.items[slot.itemIndex];
    if (!side || !item) continue;
    // Skip a settled query's pass, unless one side of the pair already ran it this pass.
    if (book.skips(slot)) continue;
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
      result = await runSlot(run, index, item);
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
    run.onRun({ ...slot, done, planned: book.planned(), label: side.label, result });
    const remaining = plan.length - done;
    if (book.stops() && remaining > 0 && !spec.items.every((_, i) => book.settled(i)))
      return { records, aborted: true, interrupted: false };
  }
  return { records, aborted: false, interrupted: false };
}

/** One slot's run on its agent, the next runs prepared meanwhile; recorded with its model, agent and arm. */
async function runSlot(run: PlanRun, index: number, item: EvalItem): Promise<RunResult> {
  const { spec, shape, agentOf, signal } = run;
  const slot = shape.runs[index];
  if (slot === undefined) throw new Error(`no run ${index} was planned`);
  const model = slotModel(shape, slot.model);
  const asked = model ?? shape.targets[slot.model]?.model;
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
  const next = run.book.upcoming(index, agentOf);
  for (const agent of Object.values(spec.seam)) agent.ahead?.(next);
  let result = await running;
  if (model !== undefined) result = { ...result, requestedModel: model };
  if (shape.severalAgents) result = { ...result, agent: agentOf(slot.model).id };
  if (context !== undefined) result = { ...result, inContext: true };
  return result;
}

export function describeOutcome(outcome: Outcome): string {
  return outcome.kind === 'error' ? `error (${outcome.cause})` : outcome.kind;
}
