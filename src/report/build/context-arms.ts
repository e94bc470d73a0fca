/**
 * The arms of a measurement whose runs did not all start alike (docs/context.md, "Arms"): the runs
 * that started fresh, and those that started with a context, each judged apart over its own
 * queries, with its own totals and verdict, as `--agent a,b` judges each agent. Pure.
 */
import type { EvalItem } from '../../inputs/types.js';
import { isLost } from '../../outcome.js';
import type { Measurement, ModelSummaryReport, SessionCost } from '../../schemas/report.js';
import { type RuleSettings, type RunRecord, summarizeMeasurement } from '../../verdict/rules.js';
import { newcombeInterval } from '../../verdict/statistics.js';

export const CONTEXT_ARMS = ['fresh', 'context'] as const;
export type ContextArm = (typeof CONTEXT_ARMS)[number];

export function armOf(run: RunRecord): ContextArm {
  return run.inContext === true ? 'context' : 'fresh';
}

/**
 * `byContext` on the measurement and on each query, when its runs include both arms; the
 * measurement as it was otherwise. An arm that lost too many runs leaves the whole without a
 * verdict, its reasons named after it.
 */
export function withContextArms(
  measurement: Measurement,
  records: RunRecord[][],
  input: { items: EvalItem[]; rules: RuleSettings; state: Parameters<typeof summarizeMeasurement>[3] },
): Measurement {
  const arms = CONTEXT_ARMS.filter((arm) => records.some((runs) => runs.some((r) => armOf(r) === arm)));
  if (arms.length < 2) return measurement;
  const m: Measurement = { ...measurement, queries: measurement.queries.map((q) => ({ ...q })) };
  const byContext: Partial<Record<ContextArm, ModelSummaryReport>> = {};
  // Each arm's runs are of one arm alone: its queries are planned once.
  const { versusFresh: _, ...state } = input.state;
  for (const arm of arms) {
    // An arm's queries: those planned in it (a query with a context is fresh only beside it).
    const indices = input.items.flatMap((item, i) =>
      armsOf(item, records[i] ?? []).includes(arm) ? [i] : [],
    );
    const own = indices.map((i) => (records[i] ?? []).filter((r) => armOf(r) === arm));
    const summary = summarizeMeasurement(
      indices.map((i) => input.items[i] as EvalItem),
      own,
      input.rules,
      state,
    );
    byContext[arm] = {
      verdict: summary.verdict,
      noVerdictReasons: summary.noVerdictReasons,
      lostQueries: summary.lostQueries,
      totals: summary.totals,
    };
    summary.queries.forEach((q, k) => {
      const query = m.queries[indices[k] ?? -1];
      if (!query) return;
      const runs = own[k] ?? [];
      query.byContext = {
        ...query.byContext,
        [arm]: {
          hits: q.hits,
          runs: q.runs,
          late: runs.filter((r) => r.late === true).length,
          timeouts: q.timeouts,
          errors: q.errors,
        },
      };
    });
  }
  m.byContext = byContext;
  const cost = sessionCost(input.items, records);
  if (cost) m.sessionCost = cost;
  const lacking = Object.entries(byContext).filter(([, s]) => s.verdict === 'no-verdict');
  if (lacking.length > 0) {
    const own = lacking.flatMap(([arm, s]) => s.noVerdictReasons.map((r) => `${arm}: ${r}`));
    m.verdict = 'no-verdict';
    m.noVerdictReasons = [...m.noVerdictReasons, ...own.filter((r) => !m.noVerdictReasons.includes(r))];
  }
  return m;
}

/**
 * The arms a query is planned in: with a context, the context arm, and the fresh one too when some
 * of its runs started fresh (`--versus-fresh`); without, the fresh arm.
 */
function armsOf(item: EvalItem, runs: readonly RunRecord[]): ContextArm[] {
  if (item.context?.turns === undefined) return ['fresh'];
  return runs.some((r) => armOf(r) === 'fresh') ? ['fresh', 'context'] : ['context'];
}

/**
 * `--versus-fresh`: what the session costs over the queries measured in both arms, per class:
 * each arm's measured runs and hits, and the rate with the context minus the rate fresh, with
 * Newcombe's 95% interval. Undefined when no query was measured in both.
 */
export function sessionCost(
  items: readonly EvalItem[],
  records: readonly RunRecord[][],
): SessionCost | undefined {
  const paired = items.flatMap((item, i) =>
    armsOf(item, records[i] ?? []).length === 2 ? [{ item, runs: records[i] ?? [] }] : [],
  );
  if (paired.length === 0) return undefined;
  const classOf = (shouldTrigger: boolean): SessionCost['positives'] => {
    const counts = (arm: ContextArm) => {
      const measured = paired
        .filter((p) => p.item.shouldTrigger === shouldTrigger)
        .flatMap((p) => p.runs.filter((r) => armOf(r) === arm && !isLost(r.outcome)));
      return { hits: measured.filter((r) => r.outcome.kind === 'triggered').length, runs: measured.length };
    };
    const fresh = counts('fresh');
    const context = counts('context');
    const measured = fresh.runs > 0 && context.runs > 0;
    const interval = newcombeInterval(fresh, context);
    return {
      fresh,
      context,
      deltaRate: measured ? context.hits / context.runs - fresh.hits / fresh.runs : null,
      interval: interval === null ? null : { lower: interval.lower, upper: interval.upper },
    };
  };
  return { queries: paired.length, positives: classOf(true), negatives: classOf(false) };
}
