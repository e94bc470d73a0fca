/**
 * The order of a measurement's runs (pure): which query, pass, side and model each slot is.
 */
/** One slot of the plan. */
export interface PlannedRun {
  itemIndex: number;
  pass: number;
  side: number;
  /** Index into `LoopSpec.models`, or into `LoopSpec.agents` with several agents (0 with one of each). */
  model: number;
}

/**
 * The plan: strictly serial and round-robin — pass 1 over every query, then pass 2, … — so a slow
 * patch of minutes (a rate limit, a busy API) spreads over all queries instead of sinking a few.
 * With two sides, each query's pair alternates order (base, cand, cand, base, …) so neither side
 * systematically gets the earlier minute. With several models, each query is run on every model
 * in turn (q1·a, q1·b, q2·b, q2·a, …: the order rotates so no model always goes first).
 */
export function planRuns(items: number, runsPerQuery: number, sides: number, models = 1): PlannedRun[] {
  const plan: PlannedRun[] = [];
  let pair = 0;
  let turn = 0;
  for (let pass = 0; pass < runsPerQuery; pass++) {
    for (let itemIndex = 0; itemIndex < items; itemIndex++) {
      for (let m = 0; m < models; m++) {
        const model = (m + turn) % models;
        if (sides === 1) {
          plan.push({ itemIndex, pass, side: 0, model });
          continue;
        }
        const order = pair % 2 === 0 ? [1, 0] : [0, 1];
        for (const side of order) plan.push({ itemIndex, pass, side, model });
        pair++;
      }
      turn++;
    }
  }
  return plan;
}
