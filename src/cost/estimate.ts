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
  /**
   * The characters of the context each query's runs start with, in plan order (0, or past the end:
   * fresh); absent when every run starts fresh. With `--versus-fresh` a query is two entries.
   */
  contextChars?: readonly number[];
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
  /** What the runs' contexts add to `usd`; absent when every run starts fresh (or the price is unknown). */
  contextUsd?: number;
  /** The dearest single run: the first run with the plan's largest context; absent when every run starts fresh. */
  usdDearestRun?: number;
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

/** Characters per token where an estimate turns text into tokens: about four for English; three is the careful side. */
export const CHARS_PER_TOKEN = 3;

/** The tokens a context of `chars` characters adds to a run's prompt, on the careful side. */
export function contextTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/**
 * A run's price with a context of `chars` characters added to its prompt: the context is read fresh
 * on every run (the system prompt before it names each run's own temp project, so no run's cache
 * reaches past it), at the dearer of the input and cache-write rates, the prompt's length choosing
 * the rates as for any run (docs/cost.md).
 */
function runUsd(usage: Usage, chars: number, model: string, table: PriceTable): number | null {
  const tokens = contextTokens(chars);
  const costs = [
    costOf({ ...usage, inputTokens: usage.inputTokens + tokens }, model, table),
    costOf({ ...usage, cacheCreationInputTokens: usage.cacheCreationInputTokens + tokens }, model, table),
  ];
  return costs.every((c) => c.kind === 'priced') ? Math.max(...costs.map((c) => c.usd)) : null;
}

/** How many queries start with a context of each size (characters; 0 is fresh). */
function querySizes(shape: PlanShape): Map<number, number> {
  const sizes = new Map<number, number>();
  for (let q = 0; q < shape.queries; q++) {
    const chars = shape.contextChars?.[q] ?? 0;
    sizes.set(chars, (sizes.get(chars) ?? 0) + 1);
  }
  return sizes;
}

/**
 * One model's plan in dollars: every run warm at its query's context, and the first run's cold
 * surcharge once, taken at the largest context (the careful side). `contexts: false` prices every
 * run fresh, for what the contexts add.
 */
function planUsd(
  usage: Usage,
  warmUsage: Usage,
  price: { model: string; table: PriceTable },
  shape: PlanShape,
  contexts: boolean,
): { usd: number; dearest: number } | null {
  const sizes = querySizes(shape);
  const largest = contexts ? Math.max(0, ...sizes.keys()) : 0;
  const cold = runUsd(usage, largest, price.model, price.table);
  const warmFirst = runUsd(warmUsage, largest, price.model, price.table);
  if (cold === null || warmFirst === null) return null;
  let usd = shape.queries * shape.runsPerQuery * shape.sides > 0 ? cold - warmFirst : 0;
  for (const [chars, queries] of sizes) {
    const warm = runUsd(warmUsage, contexts ? chars : 0, price.model, price.table);
    if (warm === null) return null;
    usd += queries * shape.runsPerQuery * shape.sides * warm;
  }
  return { usd, dearest: cold };
}

export function estimatePlan(
  shape: PlanShape,
  roundTrip: { usage?: Record<string, Usage>; models?: Record<string, string> },
  table: PriceTable,
): PlanEstimate {
  const runsPerModel = shape.queries * shape.runsPerQuery * shape.sides;
  const withContexts = (shape.contextChars ?? []).some((chars) => chars > 0);
  const models = shape.models.map((asked): ModelEstimate => {
    const key = asked ?? DEFAULT_MODEL_KEY;
    const priced = roundTrip.models?.[key] ?? key;
    const usage = roundTrip.usage?.[key];
    const none = { model: key, priced, runs: runsPerModel, usdPerRun: null, usdWarmRun: null, usd: null };
    if (!usage) return none;
    const warmUsage = {
      ...usage,
      cacheReadInputTokens: usage.cacheReadInputTokens + usage.cacheCreationInputTokens,
      cacheCreationInputTokens: 0,
    };
    const price = { model: priced, table };
    const usdPerRun = runUsd(usage, 0, priced, table);
    const usdWarmRun = runUsd(warmUsage, 0, priced, table);
    const fresh = planUsd(usage, warmUsage, price, shape, false);
    const own = withContexts ? planUsd(usage, warmUsage, price, shape, true) : fresh;
    if (usdPerRun === null || usdWarmRun === null || !fresh || !own)
      return { ...none, usdPerRun, usdWarmRun };
    return {
      ...none,
      usdPerRun,
      usdWarmRun,
      usd: own.usd,
      ...(withContexts ? { contextUsd: own.usd - fresh.usd, usdDearestRun: own.dearest } : {}),
    };
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
  return Math.max(0, ...estimate.models.map((m) => m.usdDearestRun ?? m.usdPerRun ?? 0));
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
        : `estimate ${m.model}: ${m.runs} runs, the first ${formatUsd(m.usdPerRun)}, then ${formatUsd(m.usdWarmRun ?? m.usdPerRun)} each (the prompt cache warm)${m.contextUsd === undefined ? '' : `, plus ${formatUsd(m.contextUsd)} for the contexts`} = ${formatUsd(m.usd ?? 0)}`,
    );
  }
  const contexts = contextLine(shape);
  if (contexts) lines.splice(1, 0, contexts);
  lines.push(
    estimate.usd === null
      ? `estimate total: price unknown for ${estimate.unknownModels.join(', ')}`
      : `estimate total: ${most}${formatUsd(estimate.usd)} (from each model's round trip; a measured run carries the stub's listing line too)`,
  );
  return lines;
}

/** The plan's contexts in one line: how many runs start with one, and the tokens they are priced at. */
function contextLine(shape: PlanShape): string | undefined {
  const perQuery = shape.runsPerQuery * shape.sides * shape.models.length;
  let runs = 0;
  let tokens = 0;
  for (const [chars, queries] of querySizes(shape)) {
    if (chars === 0) continue;
    runs += queries * perQuery;
    tokens += queries * perQuery * contextTokens(chars);
  }
  if (runs === 0) return undefined;
  return `contexts: ${runs} of the runs start with a context, ${tokens.toLocaleString('en-US')} tokens of earlier turns in all (${CHARS_PER_TOKEN} characters a token), each read at the dearer of the input and cache-write rates`;
}
