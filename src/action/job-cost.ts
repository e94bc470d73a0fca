import path from 'node:path';
import { DEFAULT_AGENTS } from '../agents/ids.js';
import { fitsBudget } from '../cost/budget.js';
import { formatUsd } from '../cost/cost.js';
import {
  dearestRunUsd,
  estimatePlan,
  type PlanEstimate,
  type PlanShape,
  runsAffordable,
} from '../cost/estimate.js';
import { otherRoundTrips, planModels, planRoundTrips } from '../cost/plan-models.js';
import { loadPrices, type Prices } from '../cost/prices-file.js';
import { InputError, UsageError } from '../errors.js';
import type { Measurement, Report } from '../schemas/report.js';
import { annotate } from './annotate.js';
import { Inputs } from './constants.js';
import type { ActionGates } from './preflight.js';
import type { Settings } from './settings.js';

/**
 * The job's cost (docs/cost.md, the Action side): the `prices` table read before the gates, the whole
 * job's estimate from the round trips (every skill, the base side measured here, every model,
 * cross-negatives), `max-cost-usd`'s refusal before any measured run, and the budget the runs of
 * every skill share, one after another.
 */

/**
 * The `prices` file (relative to the workspace), or the built-in table. A file that cannot be read
 * or is no price table is annotated on the file and fails the step (exit 1) before the gates.
 */
export async function loadActionPrices(workspace: string, settings: Settings): Promise<Prices> {
  const file = settings.prices;
  if (file === undefined) return loadPrices(undefined);
  try {
    return await loadPrices(path.resolve(workspace, file));
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    // The CLI's fix names its flag; the Action's names its input. The path is the one the workflow wrote.
    const fix = error.fix?.includes('--prices')
      ? `set ${Inputs.Prices} to a JSON price table in the repository (docs/cost.md), or leave it empty for the built-in one`
      : error.fix;
    const named = new InputError({ file }, error.problem, fix);
    annotate('error', `${error.problem}${fix ? `. Fix: ${fix}` : ''}`, {
      title: 'skilltrigger: input error',
      file,
    });
    throw new UsageError(`input ${Inputs.Prices}: ${named.message}`);
  }
}

/**
 * One skill's share of the job: its queries, whether its base side is measured in this job, and the
 * characters of the context each of its loop's queries starts with (absent: every run fresh).
 */
export interface JobPart {
  queries: number;
  paired: boolean;
  contextChars?: readonly number[];
}

/** Each skill's plan shape, as the CLI's `run` would plan it with the same flags. */
export function jobShapes(parts: readonly JobPart[], settings: Settings): PlanShape[] {
  return parts.map((p) => ({
    queries: p.queries,
    runsPerQuery: settings.runs,
    sides: p.paired ? 2 : 1,
    // One slot per model, or per agent with several, as the CLI's run plans them: Codex's keyed apart.
    models: planModels(settings.agents ?? DEFAULT_AGENTS, settings.models ?? [settings.model]),
    ...(p.contextChars?.some((chars) => chars > 0) ? { contextChars: p.contextChars } : {}),
  }));
}

/**
 * The whole job's estimate: each skill's plan priced from the round trips, added up (pure). A Codex
 * model is priced from Codex's round trip, as the model it runs (its version's default without one).
 */
export function estimateJob(
  shapes: readonly PlanShape[],
  gates: Pick<ActionGates, 'roundTripUsage' | 'roundTripModels' | 'agentGates'>,
  prices: Prices,
): PlanEstimate {
  // The default agent's round trips are the preflight's own; every other agent's are its gates'.
  const defaultTrips = {
    ...(gates.roundTripUsage ? { usage: gates.roundTripUsage } : {}),
    ...(gates.roundTripModels ? { models: gates.roundTripModels } : {}),
  };
  const others = otherRoundTrips(gates.agentGates);
  const parts = shapes.map((shape) =>
    estimatePlan(shape, planRoundTrips(shape.models, defaultTrips, others), prices.table),
  );
  const unknownModels = [...new Set(parts.flatMap((p) => p.unknownModels))];
  return {
    runs: parts.reduce((n, p) => n + p.runs, 0),
    models: parts.flatMap((p) => p.models),
    usd: unknownModels.length > 0 ? null : parts.reduce((n, p) => n + (p.usd ?? 0), 0),
    unknownModels,
  };
}

/** The log line of the estimate. */
export function estimateText(estimate: PlanEstimate, skills: number): string {
  const what = `${estimate.runs} run${estimate.runs === 1 ? '' : 's'} over ${skills} skill${skills === 1 ? '' : 's'}`;
  return estimate.usd === null
    ? `estimate: ${what}, price unknown for ${estimate.unknownModels.join(', ')}`
    : `estimate: ${what}, ${formatUsd(estimate.usd)} (from each model's round trip)`;
}

/**
 * Why `max-cost-usd` refuses the job before any measured run (pure): a model without a price, or
 * an estimate above the budget (saying how many runs it buys). Undefined: the plan fits.
 */
export function budgetRefusal(estimate: PlanEstimate, maxUsd: number): string | undefined {
  if (estimate.usd === null) {
    const names = estimate.unknownModels.map((m) => `"${m}"`).join(', ');
    return `input ${Inputs.MaxCostUsd}: needs a price for every model, and the price table has none for ${names}; nothing was measured. Fix: set ${Inputs.Prices} to a table with ${estimate.unknownModels.length === 1 ? 'its' : 'their'} rates (docs/cost.md), or ${Inputs.Model} (or ${Inputs.Models}) to priced model ids`;
  }
  if (fitsBudget(0, estimate.usd, maxUsd)) return undefined;
  const buys = runsAffordable(estimate, maxUsd);
  return `input ${Inputs.MaxCostUsd}: the job's plan is estimated at ${formatUsd(estimate.usd)} for ${estimate.runs} runs, more than max-cost-usd ${formatUsd(maxUsd)}, which buys about ${buys} of them; nothing was measured. Fix: raise ${Inputs.MaxCostUsd}, or plan fewer runs (${Inputs.Runs}, fewer queries, ${Inputs.Models} or skills)`;
}

/** A measurement's runs priced: the priced runs' sum, an unpriced run at the budget's estimate. */
function spentOn(m: Measurement, unpricedUsd: number): { usd: number; dearestRunUsd: number } {
  const usd = (m.cost?.usd ?? 0) + (m.cost?.unpricedRuns ?? 0) * unpricedUsd;
  const runs = m.queries.flatMap((q) => q.runsCostUsd ?? []).map((c) => c ?? unpricedUsd);
  return { usd, dearestRunUsd: Math.max(0, ...runs) };
}

/**
 * `max-cost-usd` across the whole job: each skill's measurement gets the budget with what the
 * skills before it spent, so the CLI's budget stop (src/measure/loop.ts) stops the job, not one
 * skill, before a run that could pass it.
 */
export class JobBudget {
  private spentUsd = 0;
  private dearestUsd: number;

  constructor(
    readonly maxUsd: number,
    firstEstimateUsd: number,
  ) {
    this.dearestUsd = firstEstimateUsd;
  }

  static fromEstimate(estimate: PlanEstimate, maxUsd: number): JobBudget {
    return new JobBudget(maxUsd, dearestRunUsd(estimate));
  }

  /**
   * The next measurement's budget: the next run expected to cost as much as the dearest so far. Set
   * by the Action's input, so a stop's reason names `max-cost-usd` and the job's spend.
   */
  next(): { maxUsd: number; firstEstimateUsd: number; spentUsd: number; setBy: 'action' } {
    return {
      maxUsd: this.maxUsd,
      firstEstimateUsd: this.dearestUsd,
      spentUsd: this.spentUsd,
      setBy: 'action',
    };
  }

  /**
   * Adds a finished measurement's runs (both sides) to the job's spend. `unreportedRuns`: its runs
   * whose agent reported no tokens although their prompt was billed (a Codex run killed at its
   * decision, priced $0 in the report): each counts the estimate, as the loop's budget counted it.
   */
  record(report: Report, unreportedRuns = 0): void {
    const estimateUsd = this.dearestUsd;
    for (const m of [report.candidate, ...(report.baseline ? [report.baseline] : [])]) {
      const spent = spentOn(m, estimateUsd);
      this.spentUsd += spent.usd;
      this.dearestUsd = Math.max(this.dearestUsd, spent.dearestRunUsd);
    }
    this.spentUsd += unreportedRuns * estimateUsd;
  }

  get spent(): number {
    return this.spentUsd;
  }
}

/** True when the report's measurement stopped at the budget. */
export function stoppedAtBudget(report: Report): boolean {
  return report.candidate.budgetStop !== undefined || report.baseline?.budgetStop !== undefined;
}
