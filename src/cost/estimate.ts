import type { Usage } from '../outcome.js';
import { costOf, formatUsd } from './cost.js';
import type { PriceTable } from './prices.js';

/**
 * The plan and what it will cost, before any measured run (`--dry-run`, `--max-cost-usd`): each
 * model's round trip (a stub-less run of the same CLI, prompt and tools) priced, times the runs the
 * plan gives that model. With `--runs auto` the count is the most the plan can take.
 */

/** The shape of a plan: every query × runs × model × side is one run. */
export interface PlanShape {
  queries: number;
  runsPerQuery: number;
  sides: number;
  /** The models asked for; `[undefined]` for claude's own default. */
  models: (string | undefined)[];
}

export interface ModelEstimate {
  /** As asked for (`default` for claude's own default). */
  model: string;
  /** What the round trip reported the model to be (an alias resolved), else as asked for. */
  priced: string;
  runs: number;
  /** The first run's estimated cost (the round trip's, as it was billed); null when the model has no price (or no round-trip usage). */
  usdPerRun: number | null;
  /** Each later run's: the round trip's cache writes priced as reads, as the prompt cache is warm by then. */
  usdWarmRun: number | null;
  usd: number | null;
}

export interface PlanEstimate {
  runs: number;
  models: ModelEstimate[];
  /** The whole plan; null when some model's cost is unknown. */
  usd: number | null;
  /** Models without a price, as priced (`default` when claude's default did not say). */
  unknownModels: string[];
}

export const DEFAULT_MODEL_KEY = 'default';

export function estimatePlan(
  shape: PlanShape,
  roundTrip: { usage?: Record<string, Usage>; models?: Record<string, string> },
  table: PriceTable,
): PlanEstimate {
  const runsPerModel = shape.queries * shape.runsPerQuery * shape.sides;
  const models = shape.models.map((asked): ModelEstimate => {
    const key = asked ?? DEFAULT_MODEL_KEY;
    const priced = roundTrip.models?.[key] ?? key;
    const usage = roundTrip.usage?.[key];
    const cost = usage ? costOf(usage, priced, table) : undefined;
    const warm = usage
      ? costOf(
          {
            ...usage,
            cacheReadInputTokens: usage.cacheReadInputTokens + usage.cacheCreationInputTokens,
            cacheCreationInputTokens: 0,
          },
          priced,
          table,
        )
      : undefined;
    const usdPerRun = cost?.kind === 'priced' ? cost.usd : null;
    const usdWarmRun = warm?.kind === 'priced' ? warm.usd : null;
    const later = Math.max(0, runsPerModel - 1);
    const usd =
      usdPerRun === null || usdWarmRun === null
        ? null
        : (runsPerModel > 0 ? usdPerRun : 0) + usdWarmRun * later;
    return { model: key, priced, runs: runsPerModel, usdPerRun, usdWarmRun, usd };
  });
  const unknownModels = models.filter((m) => m.usd === null).map((m) => m.priced);
  const usd = unknownModels.length > 0 ? null : models.reduce((sum, m) => sum + (m.usd ?? 0), 0);
  return { runs: runsPerModel * models.length, models, usd, unknownModels };
}

/** How many runs of the plan `maxUsd` pays for, at the plan's average estimated run. */
export function runsAffordable(estimate: PlanEstimate, maxUsd: number): number {
  if (estimate.usd === null || estimate.runs === 0) return 0;
  const perRun = estimate.usd / estimate.runs;
  return perRun === 0 ? estimate.runs : Math.min(estimate.runs, Math.floor(maxUsd / perRun + 1e-9));
}

/** The dearest run of the plan: what the loop expects its first run to cost. */
export function dearestRunUsd(estimate: PlanEstimate): number {
  return Math.max(0, ...estimate.models.map((m) => m.usdPerRun ?? 0));
}

/** `--dry-run`'s lines: the plan as a product, then the estimate per model and in total. */
export function renderPlan(shape: PlanShape, estimate: PlanEstimate, auto: boolean): string[] {
  const most = auto ? 'at most ' : '';
  const lines = [
    `plan: ${shape.queries} quer${shape.queries === 1 ? 'y' : 'ies'} × ${most}${shape.runsPerQuery} run${shape.runsPerQuery === 1 ? '' : 's'} × ${shape.models.length} model${shape.models.length === 1 ? '' : 's'} × ${shape.sides} side${shape.sides === 1 ? '' : 's'} = ${most}${estimate.runs} runs`,
  ];
  for (const m of estimate.models) {
    lines.push(
      m.usdPerRun === null
        ? `estimate ${m.model}: ${m.runs} runs, price unknown (no price for "${m.priced}"; pass --prices <file>)`
        : `estimate ${m.model}: ${m.runs} runs, the first ${formatUsd(m.usdPerRun)}, then ${formatUsd(m.usdWarmRun ?? m.usdPerRun)} each (the prompt cache warm) = ${formatUsd(m.usd ?? 0)}`,
    );
  }
  lines.push(
    estimate.usd === null
      ? `estimate total: price unknown for ${estimate.unknownModels.join(', ')}`
      : `estimate total: ${most}${formatUsd(estimate.usd)} (from each model's round trip; a measured run carries the stub's listing line too)`,
  );
  return lines;
}
