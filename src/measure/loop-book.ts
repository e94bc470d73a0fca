/**
 * The loop's book of one measurement (src/measure/loop.ts): every run recorded where it belongs,
 * which queries have settled (`--runs auto`), how many runs the plan still holds, whether the
 * no-verdict rule stops it, and which runs come next for the agents to prepare. Pure.
 */
import type { UpcomingRun } from '../agents/runs.js';
import type { EvalItem } from '../inputs/types.js';
import { isLost } from '../outcome.js';
import { autoQueryDone, plannedFor, shouldStop } from '../verdict/rules.js';
import type { LoopSpec, LoopTargets, RunResult } from './loop-spec.js';
import { slotModel } from './loop-targets.js';

export type LoopBook = ReturnType<typeof loopBook>;

export function loopBook(spec: Pick<LoopSpec, 'items' | 'sides' | 'rules'>, shape: LoopTargets) {
  const { items, sides, rules } = spec;
  const { severalAgents, models, targets } = shape;
  const records: RunResult[][][] = sides.map(() => items.map(() => []));
  /** One side's runs of one query on one model. */
  const runsOf = (side: number, itemIndex: number, model: number): RunResult[] => {
    const runs = records[side]?.[itemIndex] ?? [];
    if (severalAgents) return runs.filter((r) => r.agent === severalAgents[model]?.agent);
    return models ? runs.filter((r) => r.requestedModel === models[model]) : runs;
  };
  /** Every (side, model) is measured, and judged by the no-verdict rule, on its own. */
  const groups = sides.flatMap((_, side) =>
    Array.from({ length: targets.length }, (_, model) => ({ side, model })),
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
  return {
    records,
    runsOf,
    settled,
    /** A slot's pass to skip: its query settled, and neither side of the pair ran it this pass. */
    skips(slot: { itemIndex: number; model: number; pass: number }): boolean {
      const pairStarted = sides.some((_, s) => runsOf(s, slot.itemIndex, slot.model).length > slot.pass);
      return settled(slot.itemIndex) && !pairStarted;
    },
    /** How many runs the plan holds now (with --runs auto, as far as the queries have settled). */
    planned(): number {
      return rules.autoRuns ? groups.reduce((n, g) => n + plannedOf(perItemOf(g)), 0) : shape.runs.length;
    },
    /** The no-verdict rule (docs/design.md): some (side, model) has lost too much to give a verdict. */
    stops(): boolean {
      return groups.map(perItemOf).some((perItem) => lostTooMuch(perItem, plannedOf(perItem), rules));
    },
    /** The runs after plan[index] that are still to run, nearest first, for the agents to prepare. */
    upcoming(index: number, agentOf: (target: number) => { id: UpcomingRun['agent'] }): UpcomingRun[] {
      return upcomingRuns(shape, items, index, settled, agentOf);
    },
  };
}

/** The no-verdict rule on one (side, model)'s runs, query by query, with `planned` runs in its plan. */
function lostTooMuch(perItem: RunResult[][], planned: number, rules: LoopSpec['rules']): boolean {
  return shouldStop({
    planned,
    lost: perItem.flat().filter((r) => isLost(r.outcome)).length,
    anyQueryLostAll: perItem.some(
      (runs) => runs.length > 0 && runs.length === rules.runsPerQuery && runs.every((r) => isLost(r.outcome)),
    ),
    share: rules.noVerdictShare,
  });
}

/** The runs after plan[index] whose query has not settled, nearest first, each as its agent prepares it. */
function upcomingRuns(
  shape: LoopTargets,
  items: LoopSpec['items'],
  index: number,
  settled: (itemIndex: number) => boolean,
  agentOf: (target: number) => { id: UpcomingRun['agent'] },
): UpcomingRun[] {
  const settledNow = new Map<number, boolean>();
  const isSettled = (item: number): boolean => {
    const known = settledNow.get(item) ?? settled(item);
    settledNow.set(item, known);
    return known;
  };
  return shape.runs
    .slice(index + 1)
    .filter((slot) => !isSettled(slot.itemIndex))
    .map((slot) => {
      const model = slotModel(shape, slot.model) ?? shape.targets[slot.model]?.model;
      const context = items[slot.itemIndex]?.context?.turns;
      return {
        agent: agentOf(slot.model).id,
        side: slot.side,
        ...(model === undefined ? {} : { model }),
        ...(context === undefined ? {} : { context }),
      };
    });
}
