import type { AgentId } from '../agents/ids.js';
import { DEFAULT_AGENT } from '../agents/registry.js';
import { DESCRIPTION_LIMIT, rewritePrompt } from '../author/prompts.js';
import { fitsBudget } from '../cost/budget.js';
import { costOf, formatUsd } from '../cost/cost.js';
import { CHARS_PER_TOKEN, DEFAULT_MODEL_KEY, dearestRunUsd, estimatePlan } from '../cost/estimate.js';
import { otherRoundTrips, planModels, planRoundTrips } from '../cost/plan-models.js';
import type { Prices } from '../cost/prices-file.js';
import { UsageError } from '../errors.js';
import type { SessionBudget } from '../improve/budget.js';
import type { ContextTurn } from '../inputs/context.js';
import type { EvalItem } from '../inputs/types.js';
import { contextCharsOf, withContexts } from '../measure/measurement-loop.js';
import type { Usage } from '../outcome.js';
import type { PreflightResult } from '../preflight/preflight.js';

/**
 * What an `improve` session can cost, before it starts (docs/cost.md): the original measured on every
 * query, up to `--iterations` candidates each measured paired with the incumbent on train, the
 * winner paired with the original on the holdout, and up to `--iterations` rewrite calls. With
 * `--max-cost-usd`, a session estimated above it is refused (exit 1) saying what the budget buys;
 * within it, the session gets its budget and stops itself before the step that would pass it.
 */

/**
 * The output a rewrite call is estimated at: a description at the 1,024-character limit is about
 * 300 tokens; the rest is room for a model that thinks before it answers. Once a call is made,
 * the dearest real one stands in for the next (src/improve/budget.ts).
 */
export const REWRITE_OUTPUT_TOKENS = 4_000;

export interface SessionPlan {
  /** Measured runs at most. */
  runs: number;
  measuredUsd: number;
  rewriteCalls: number;
  /** One rewrite call: the round trip's cost plus the prompt's and the answer's tokens. */
  rewriteUsd: number;
  usd: number;
}

export interface SessionCosting {
  /** What a rewrite call's usage costs at the session model's price (null: no price). */
  costOfUsage: (usage: Usage) => number | null;
  /** The session's budget with `--max-cost-usd`. */
  budget?: SessionBudget;
  /** The estimate, when every price is known. */
  plan?: SessionPlan;
}

export interface SessionShapeInput {
  skillName: string;
  body: string;
  train: readonly EvalItem[];
  holdout: readonly EvalItem[];
  iterations: number;
  runsPerQuery: number;
  model: string | undefined;
  /** `--agent`: the agent measured and asked (absent: the default agent), priced from its own round trip. */
  agent?: AgentId;
  /** `--context`/`--context-fill`'s turns, for every query without a context of its own. */
  context?: readonly ContextTurn[];
}

/**
 * Each planned query's context in characters, in the session's order: the original on every
 * query, each iteration's pair on train, the holdout check's pair (src/cost/estimate.ts prices them).
 */
function sessionContextChars(input: SessionShapeInput): number[] {
  const chars = (items: readonly EvalItem[]) => contextCharsOf(withContexts([...items], input.context));
  const train = chars(input.train);
  const holdout = chars(input.holdout);
  return [
    ...train,
    ...holdout,
    ...Array.from({ length: input.iterations }, () => [...train, ...train]).flat(),
    ...holdout,
    ...holdout,
  ];
}

/** The longest rewrite prompt the session can send: every train query failing, every earlier attempt at the limit. */
function longestPromptChars(input: SessionShapeInput): number {
  const atLimit = 'x'.repeat(DESCRIPTION_LIMIT);
  return rewritePrompt({
    skillName: input.skillName,
    body: input.body,
    current: atLimit,
    failing: input.train.map((i) => ({ query: i.query, shouldTrigger: i.shouldTrigger, hits: 0, runs: 99 })),
    attempts: Array.from({ length: Math.max(0, input.iterations - 1) }, () => ({
      description: atLimit,
      train: 'positives 99/99, negatives 99/99',
      outcome: 'rejected: no significant improvement on train (p = 0.999)',
    })),
  }).length;
}

export function planSessionCost(
  input: SessionShapeInput,
  auto: boolean,
  preflight: PreflightResult,
  prices: Prices,
  maxCostUsd: number | undefined,
): SessionCosting {
  const { costOfUsage, priced, phases, estimate, plan } = estimateSession(input, preflight, prices);
  if (maxCostUsd === undefined) return { costOfUsage, ...(plan ? { plan } : {}) };
  if (!plan) {
    throw new UsageError(
      `--max-cost-usd needs a price for the session's model, and the price table has none for "${priced}". Fix: pass --prices <file> with its rates (docs/cost.md), or --model with a priced model id`,
    );
  }
  if (!fitsBudget(0, plan.usd, maxCostUsd)) throw overBudget(input, phases, plan, maxCostUsd, auto);
  return {
    costOfUsage,
    plan,
    budget: { maxUsd: maxCostUsd, firstRunUsd: dearestRunUsd(estimate), rewriteUsd: plan.rewriteUsd },
  };
}

/** How many queries each phase of a session measures: the original, one iteration, the holdout check. */
interface SessionPhases {
  original: number;
  iteration: number;
  holdout: number;
}

/**
 * The session priced: its model's key and price, each phase's queries, the runs' estimate and the
 * plan with the rewrite calls (undefined when the model has no price).
 */
function estimateSession(input: SessionShapeInput, preflight: PreflightResult, prices: Prices) {
  // Another agent's model is keyed apart (`codex:default`) and priced from its own round trip.
  const models = planModels([{ agent: input.agent ?? DEFAULT_AGENT }], [input.model]);
  const trips = planRoundTrips(
    models,
    {
      ...(preflight.roundTripUsage ? { usage: preflight.roundTripUsage } : {}),
      ...(preflight.roundTripModels ? { models: preflight.roundTripModels } : {}),
    },
    otherRoundTrips(preflight.agentGates),
  );
  const key = models[0] ?? DEFAULT_MODEL_KEY;
  const priced = trips.models?.[key] ?? key;
  const costOfUsage = (usage: Usage) => {
    const cost = costOf(usage, priced, prices.table);
    return cost.kind === 'priced' ? cost.usd : null;
  };
  const phases: SessionPhases = {
    original: input.train.length + input.holdout.length,
    iteration: 2 * input.train.length,
    holdout: 2 * input.holdout.length,
  };
  const contextChars = sessionContextChars(input);
  const estimate = estimatePlan(
    {
      queries: phases.original + input.iterations * phases.iteration + phases.holdout,
      runsPerQuery: input.runsPerQuery,
      sides: 1,
      models,
      ...(contextChars.some((n) => n > 0) ? { contextChars } : {}),
    },
    trips,
    prices.table,
  );
  const roundTripUsd = estimate.models[0]?.usdPerRun ?? null;
  const extra = costOfUsage({
    inputTokens: Math.ceil(longestPromptChars(input) / CHARS_PER_TOKEN),
    outputTokens: REWRITE_OUTPUT_TOKENS,
    cacheReadInputTokens: 0,
    cacheCreationInputTokens: 0,
  });
  const plan: SessionPlan | undefined =
    estimate.usd === null || roundTripUsd === null || extra === null
      ? undefined
      : {
          runs: estimate.runs,
          measuredUsd: estimate.usd,
          rewriteCalls: input.iterations,
          rewriteUsd: roundTripUsd + extra,
          usd: estimate.usd + input.iterations * (roundTripUsd + extra),
        };
  return { costOfUsage, priced, phases, estimate, plan };
}

/** The refusal of a session dearer than `--max-cost-usd`: what the budget buys, and how to plan less. */
function overBudget(
  input: SessionShapeInput,
  phases: SessionPhases,
  plan: SessionPlan,
  maxCostUsd: number,
  auto: boolean,
): UsageError {
  const perRun = plan.runs === 0 ? 0 : plan.measuredUsd / plan.runs;
  const cost = (queries: number) => queries * input.runsPerQuery * perRun;
  const fixed = cost(phases.original) + cost(phases.holdout);
  const perIteration = cost(phases.iteration) + plan.rewriteUsd;
  const iterations = Math.max(
    0,
    Math.min(input.iterations, Math.floor((maxCostUsd - fixed) / perIteration + 1e-9)),
  );
  const originalRuns = phases.original * input.runsPerQuery;
  const buys =
    iterations > 0
      ? `the original's measurement, ${iterations} of the ${input.iterations} iterations and the holdout check`
      : maxCostUsd < cost(phases.original)
        ? `about ${perRun === 0 ? 0 : Math.floor(maxCostUsd / perRun + 1e-9)} measured runs: not even the original's measurement (${originalRuns} runs)`
        : "the original's measurement, but not one iteration with its holdout check";
  return new UsageError(
    `the improve session is estimated at ${auto ? 'up to ' : ''}${formatUsd(plan.usd)} (${plan.runs} measured runs at most, ${formatUsd(plan.measuredUsd)}, and ${plan.rewriteCalls === 1 ? 'a rewrite call' : `${plan.rewriteCalls} rewrite calls`} at about ${formatUsd(plan.rewriteUsd)}${plan.rewriteCalls === 1 ? '' : ' each'}), more than --max-cost-usd ${formatUsd(maxCostUsd)}, which buys ${buys}; nothing was measured. Fix: raise --max-cost-usd, or plan less (${iterations > 0 ? `--iterations ${iterations}, ` : ''}fewer --runs or queries)`,
  );
}
