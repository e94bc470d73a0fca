import { fitsBudget } from '../cost/budget.js';
import { formatUsd } from '../cost/cost.js';
import { checkCost, costCheckWarnings } from '../cost/cost-check.js';
import {
  dearestRunUsd,
  estimatePlan,
  type PlanEstimate,
  type PlanShape,
  renderPlan,
  runsAffordable,
} from '../cost/estimate.js';
import { otherRoundTrips, type PlanRoundTrips, planRoundTrips } from '../cost/plan-models.js';
import type { Prices } from '../cost/prices-file.js';
import { UsageError } from '../errors.js';
import type { PreflightResult } from '../preflight/preflight.js';

/**
 * The cost side of `run` and `improve` (docs/cost.md): the price table (`--prices`), the plan's estimate
 * from the round trips, `--dry-run`'s plan, and `--max-cost-usd`'s refusal before any measured run.
 */

/** What the cost step decided: the loop's budget, when `--max-cost-usd` was given. */
export interface CostPlan {
  estimate: PlanEstimate;
  budget?: { maxUsd: number; firstEstimateUsd: number };
}

/**
 * Estimates the plan from each model's round trip. With `--max-cost-usd`, refuses (exit 1) when a
 * model has no price (naming it, and `--prices` as the fix) or when the estimate passes the budget
 * (saying how many runs it buys).
 */
export function planCost(
  shape: PlanShape,
  auto: boolean,
  preflight: PreflightResult,
  prices: Prices,
  maxCostUsd: number | undefined,
): CostPlan {
  const estimate = estimatePlan(shape, roundTrips(shape, preflight), prices.table);
  if (maxCostUsd === undefined) return { estimate };
  if (estimate.usd === null) {
    throw new UsageError(
      `--max-cost-usd needs a price for every model, and the price table has none for ${estimate.unknownModels.map((m) => `"${m}"`).join(', ')}. Fix: pass --prices <file> with ${estimate.unknownModels.length === 1 ? 'its' : 'their'} rates (docs/cost.md), or --model with a priced model id`,
    );
  }
  if (!fitsBudget(0, estimate.usd, maxCostUsd)) {
    const buys = runsAffordable(estimate, maxCostUsd);
    throw new UsageError(
      `the plan is estimated at ${auto ? 'up to ' : ''}${formatUsd(estimate.usd)} for ${estimate.runs} runs, more than --max-cost-usd ${formatUsd(maxCostUsd)}, which buys about ${buys} of them; nothing was measured. Fix: raise --max-cost-usd, or plan fewer runs (--runs, fewer queries or models)`,
    );
  }
  return { estimate, budget: { maxUsd: maxCostUsd, firstEstimateUsd: dearestRunUsd(estimate) } };
}

/**
 * Each model's round trip, as the plan prices it (src/cost/plan-models.ts): the default agent's from
 * its gates, every other agent's from its own, its default model the one its version sends.
 */
function roundTrips(shape: PlanShape, preflight: PreflightResult): PlanRoundTrips {
  return planRoundTrips(
    shape.models,
    {
      ...(preflight.roundTripUsage ? { usage: preflight.roundTripUsage } : {}),
      ...(preflight.roundTripModels ? { models: preflight.roundTripModels } : {}),
    },
    otherRoundTrips(preflight.agentGates),
  );
}

/** `--dry-run`'s output: the plan, the estimate, and whether it fits `--max-cost-usd`. */
export function dryRunText(shape: PlanShape, auto: boolean, plan: CostPlan): string {
  const lines = renderPlan(shape, plan.estimate, auto);
  if (plan.budget) lines.push(`within --max-cost-usd ${formatUsd(plan.budget.maxUsd)}`);
  lines.push('dry run: the gates ran; nothing was measured');
  return `${lines.join('\n')}\n`;
}

/**
 * The round trips reach their result event, so each carries the CLI's own total_cost_usd: checked
 * against the table here, at the gates, a wrong rate is named before any measured run is priced with it.
 */
export function roundTripCostWarnings(preflight: PreflightResult, prices: Prices): string[] {
  const samples = Object.entries(preflight.roundTripUsage ?? {}).map(([key, usage]) => ({
    model: preflight.roundTripModels?.[key] ?? key,
    usage,
  }));
  return costCheckWarnings(checkCost(samples, prices.table)).map((w) => `round trip: ${w}`);
}
