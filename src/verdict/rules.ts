import type { AgentId } from '../agents/ids.js';
import { percent } from '../format.js';
import { heldOut, needsContext } from '../inputs/annotations.js';
import { describeContext } from '../inputs/context.js';
import type { EvalItem } from '../inputs/types.js';
import { addUsage, isLost, NO_USAGE, type Outcome, outcomeCode, type Usage } from '../outcome.js';
import type { Measurement, QueryResult, Subsets, SubsetTotals } from '../schemas/report.js';
import { errorCauseKey, lostRunsReasons } from './lost-runs.js';
import { isSettled } from './sequential.js';
import { queryPasses } from './threshold.js';

/** The numbers the verdict rules read (docs/design.md, "The verdict"). */
export interface RuleSettings {
  /** Runs per query; with `autoRuns`, the most a query may get. */
  runsPerQuery: number;
  /** `--runs auto[:max]`: a query stops once its pass/fail is settled (see sequential.ts). */
  autoRuns?: boolean;
  /** A positive passes above it, a negative below it. Decides pass/fail per query only. */
  triggerThreshold: number;
  /** Timeouts + errors above this share of the planned runs → no verdict. */
  noVerdictShare: number;
}

export const DEFAULT_RULES: RuleSettings = { runsPerQuery: 2, triggerThreshold: 0.5, noVerdictShare: 0.1 };

/** One finished run, as the rules need it. */
export interface RunRecord {
  outcome: Outcome;
  /** The model the run's init event reported (claude), or the one it was sent with (Codex). */
  model?: string;
  durationMs: number;
  usage: Usage;
  /** With several models (`--model a,b`): the model this run asked for. */
  requestedModel?: string;
  /** `--late N`: a miss whose run loaded the stub in a later turn (never a hit). */
  late?: boolean;
  /** The agent that ran it (`--agent`); absent: claude. */
  agent?: AgentId;
  /** The run started with a context in its history (docs/context.md); absent: a fresh session. */
  inContext?: true;
}

/** How many lost runs the plan can absorb and still give a verdict. */
export function lossBudget(planned: number, share: number): number {
  // A tiny epsilon keeps 10% of 20 = 2 from becoming 1.9999 through floating point.
  return Math.floor(planned * share + 1e-9);
}

/** Why there is no verdict, given what is known so far; empty while a verdict is still possible. */
export function noVerdictReasons(input: {
  planned: number;
  lost: number;
  lostQueries: string[];
  share: number;
}): string[] {
  const reasons: string[] = [];
  const budget = lossBudget(input.planned, input.share);
  if (input.lost > budget) {
    reasons.push(
      `${input.lost} of ${input.planned} planned runs were lost to timeouts or errors, more than ${percent(input.share)} (at most ${budget})`,
    );
  }
  if (input.lostQueries.length > 0) {
    reasons.push(
      `${input.lostQueries.length} quer${input.lostQueries.length === 1 ? 'y' : 'ies'} lost every run`,
    );
  }
  return reasons;
}

export { queryPasses };

export function summarizeQuery(
  item: EvalItem,
  records: RunRecord[],
  planned: number,
  threshold: number,
): QueryResult {
  const measured = records.filter((r) => !isLost(r.outcome));
  const hits = measured.filter((r) => r.outcome.kind === 'triggered').length;
  const rate = measured.length === 0 ? null : hits / measured.length;
  return {
    id: item.id,
    query: item.query,
    shouldTrigger: item.shouldTrigger,
    extra: item.extra,
    outcomes: records.map((r) => outcomeCode(r.outcome)),
    models: records.map((r) => r.model ?? null),
    durationsMs: records.map((r) => Math.max(0, Math.round(r.durationMs))),
    planned,
    runs: measured.length,
    hits,
    timeouts: records.filter((r) => r.outcome.kind === 'timeout').length,
    errors: records.filter((r) => r.outcome.kind === 'error').length,
    rate,
    pass: queryPasses(item.shouldTrigger, rate, threshold),
    partial: measured.length < planned,
    usage: records.reduce((sum, r) => addUsage(sum, r.usage), NO_USAGE),
    ...(item.context?.turns ? { context: describeContext(item.context.turns) } : {}),
  };
}

/** How a measurement ended, and what its summary carries besides the runs. */
export interface MeasurementState {
  aborted: boolean;
  interrupted: boolean;
  description: Measurement['description'];
  /** Why the run stopped early, when not for the loss budget (no paths: it goes into the report). */
  stopReason?: string;
  /** `--max-cost-usd` stopped the run: the reason, opening with `budget:` (it leads the reasons). */
  budgetReason?: string;
  /** `--versus-fresh`: a query with a context is planned fresh and with it (docs/context.md). */
  versusFresh?: boolean;
}

/**
 * A whole measurement from the records so far. `records[i]` holds item i's runs in order.
 * A query that lost every planned run is in `lostQueries`; one that was measured on fewer runs
 * than planned (lost some, or the run stopped before its turn) is in `partialQueries`.
 */
export function summarizeMeasurement(
  items: EvalItem[],
  records: RunRecord[][],
  settings: RuleSettings,
  state: MeasurementState,
): Measurement {
  const queries = items.map((item, i) => {
    const runs = records[i] ?? [];
    return summarizeQuery(item, runs, plannedOf(item, runs, settings, state), settings.triggerThreshold);
  });
  const all = records.flat();
  const lostQueries = queries.filter((q) => q.outcomes.length === q.planned && q.runs === 0).map((q) => q.id);
  const partialQueries = queries.filter((q) => q.partial && !lostQueries.includes(q.id)).map((q) => q.id);
  const errorCauses = errorCausesOf(all);
  const reasons = measurementReasons(queries, all, lostQueries, errorCauses, settings, state);
  const subsets = measurementSubsets(queries);
  return {
    description: state.description,
    verdict: reasons.length === 0 ? 'ok' : 'no-verdict',
    noVerdictReasons: reasons,
    aborted: state.aborted,
    interrupted: state.interrupted,
    lostQueries,
    partialQueries,
    queries,
    totals: measurementTotals(queries, all, errorCauses),
    ...(subsets === undefined ? {} : { subsets }),
  };
}

/** The runs planned for a query; with `--versus-fresh`, a query with a context is planned twice. */
function plannedOf(
  item: EvalItem,
  runs: RunRecord[],
  settings: RuleSettings,
  state: MeasurementState,
): number {
  if (state.versusFresh !== true || item.context?.turns === undefined)
    return plannedFor(item, runs, settings);
  return (
    plannedFor(
      item,
      runs.filter((r) => r.inContext !== true),
      settings,
    ) +
    plannedFor(
      item,
      runs.filter((r) => r.inContext === true),
      settings,
    )
  );
}

/** How many runs each error cause lost. */
function errorCausesOf(all: readonly RunRecord[]): Record<string, number> {
  const errorCauses: Record<string, number> = {};
  for (const r of all) {
    if (r.outcome.kind !== 'error') continue;
    const key = errorCauseKey(r.outcome);
    errorCauses[key] = (errorCauses[key] ?? 0) + 1;
  }
  return errorCauses;
}

/** Why the measurement has no verdict (none: it has one), the way it stopped first. */
function measurementReasons(
  queries: QueryResult[],
  all: readonly RunRecord[],
  lostQueries: string[],
  errorCauses: Record<string, number>,
  settings: RuleSettings,
  state: MeasurementState,
): string[] {
  const reasons = noVerdictReasons({
    planned: sum(queries, (q) => q.planned),
    lost: all.filter((r) => isLost(r.outcome)).length,
    lostQueries,
    share: settings.noVerdictShare,
  });
  if (state.interrupted) reasons.unshift('the run was interrupted before every planned run finished');
  else if (state.budgetReason !== undefined) reasons.unshift(state.budgetReason);
  else if (state.aborted && reasons.length === 0)
    reasons.push(
      `the run was stopped before every planned run finished${state.stopReason === undefined ? '' : `: ${state.stopReason}`}`,
    );
  // No verdict for lost runs: say what they were lost to, with the status, and what to do.
  if (reasons.length > 0 && !state.interrupted) {
    reasons.push(
      ...lostRunsReasons({
        errorCauses,
        timeouts: sum(queries, (q) => q.timeouts),
        executed: all.length,
      }),
    );
  }
  return reasons;
}

/** The measurement's totals over its queries and runs. */
function measurementTotals(
  queries: QueryResult[],
  all: readonly RunRecord[],
  errorCauses: Record<string, number>,
): Measurement['totals'] {
  const positives = queries.filter((q) => q.shouldTrigger);
  const negatives = queries.filter((q) => !q.shouldTrigger);
  return {
    planned: sum(queries, (q) => q.planned),
    executed: all.length,
    positives: { triggered: sum(positives, (q) => q.hits), runs: sum(positives, (q) => q.runs) },
    negatives: { fired: sum(negatives, (q) => q.hits), runs: sum(negatives, (q) => q.runs) },
    timeouts: sum(queries, (q) => q.timeouts),
    errors: sum(queries, (q) => q.errors),
    errorCauses,
    queries: queries.length,
    passed: queries.filter((q) => q.pass === true).length,
    failed: queries.filter((q) => q.pass === false).length,
    usage: all.reduce((s, r) => addUsage(s, r.usage), NO_USAGE),
  };
}

/**
 * What a subset rule reads of a query: its annotations, and whether it carries a context (an eval
 * item or a query of a report).
 */
type Annotated = { extra: Record<string, unknown>; context?: unknown };

/**
 * Marked `needs_context: true` and measured fresh: a query that carries a context is measured as
 * its annotation asks, so it is no longer counted apart (docs/context.md, "Arms").
 */
const apartForContext = (q: Annotated): boolean => needsContext(q.extra) && q.context === undefined;

/**
 * The subsets the eval set's annotations define, each a rule over a query's extra fields. One
 * mechanism serves both annotations: totals over a subset, shown beside the whole.
 */
export const SUBSETS = {
  /** Every query but those marked `needs_context: true` and measured without a context. */
  withoutContext: (q: Annotated) => !apartForContext(q),
  train: (q: Annotated) => !heldOut(q.extra),
  holdout: (q: Annotated) => heldOut(q.extra),
} as const satisfies Record<keyof Subsets, (q: Annotated) => boolean>;

export type SubsetName = keyof typeof SUBSETS;

/** An annotation of eval entries, and the subsets it defines once any query carries it (the key as users write it). */
export interface SubsetAnnotation {
  annotation: 'needs_context' | 'split';
  marked: (q: Annotated) => boolean;
  subsets: readonly SubsetName[];
}

export const SUBSET_ANNOTATIONS: readonly SubsetAnnotation[] = [
  { annotation: 'needs_context', marked: apartForContext, subsets: ['withoutContext'] },
  { annotation: 'split', marked: (q) => heldOut(q.extra), subsets: ['train', 'holdout'] },
];

/** Which subsets an eval set uses: `withoutContext` when a query is marked, train and holdout when one is held out. */
export function subsetsInUse(queries: readonly Annotated[]): SubsetName[] {
  return SUBSET_ANNOTATIONS.filter((a) => queries.some(a.marked)).flatMap((a) => a.subsets);
}

/** Totals over some queries: per class, how many there are, how many pass, and their pooled runs. */
export function subsetTotals(queries: readonly QueryResult[]): SubsetTotals {
  const positives = queries.filter((q) => q.shouldTrigger);
  const negatives = queries.filter((q) => !q.shouldTrigger);
  const passed = (qs: QueryResult[]) => qs.filter((q) => q.pass === true).length;
  return {
    queries: queries.length,
    positives: {
      queries: positives.length,
      passed: passed(positives),
      triggered: sum(positives, (q) => q.hits),
      runs: sum(positives, (q) => q.runs),
    },
    negatives: {
      queries: negatives.length,
      passed: passed(negatives),
      fired: sum(negatives, (q) => q.hits),
      runs: sum(negatives, (q) => q.runs),
    },
    passed: passed([...queries]),
    failed: queries.filter((q) => q.pass === false).length,
  };
}

/** The totals of every subset in use; undefined when the set uses no annotation. */
export function measurementSubsets(queries: readonly QueryResult[]): Subsets | undefined {
  const names = subsetsInUse(queries);
  if (names.length === 0) return undefined;
  const subsets: Subsets = {};
  for (const name of names) subsets[name] = subsetTotals(queries.filter(SUBSETS[name]));
  return subsets;
}

/**
 * The runs a query is planned to get: `runsPerQuery`; with `--runs auto`, the runs it took when
 * it settled early (so it is not flagged partial), else the maximum.
 */
export function plannedFor(item: EvalItem, runs: RunRecord[], settings: RuleSettings): number {
  if (!settings.autoRuns) return settings.runsPerQuery;
  return autoQueryDone(item, runs, settings) && runs.length < settings.runsPerQuery
    ? runs.length
    : settings.runsPerQuery;
}

/** With `--runs auto`: the query has used its attempts, or its verdict is settled. */
export function autoQueryDone(item: EvalItem, runs: RunRecord[], settings: RuleSettings): boolean {
  if (runs.length >= settings.runsPerQuery) return true;
  const measured = runs.filter((r) => !isLost(r.outcome));
  const hits = measured.filter((r) => r.outcome.kind === 'triggered').length;
  return isSettled(
    item.shouldTrigger,
    hits,
    measured.length,
    settings.runsPerQuery,
    settings.triggerThreshold,
  );
}

function sum<T>(xs: T[], f: (x: T) => number): number {
  return xs.reduce((s, x) => s + f(x), 0);
}

/**
 * Whether a run should stop now: once the loss budget is spent, or a query has lost every
 * planned run, no verdict is possible and every further run would be spent on a number that will
 * not be reported.
 */
export function shouldStop(input: {
  planned: number;
  lost: number;
  anyQueryLostAll: boolean;
  share: number;
}): boolean {
  return input.lost > lossBudget(input.planned, input.share) || input.anyQueryLostAll;
}
