import type { LoadedEntry } from '../agents/runs.js';
import { describeContext } from '../inputs/context.js';
import { isLost, type Outcome, outcomeCode } from '../outcome.js';
import type { MatrixQuery, MatrixRow, MatrixRun, SkillFigures, Stolen } from '../schemas/matrix.js';
import { lostRunsReasons } from '../verdict/lost-runs.js';
import { noVerdictReasons } from '../verdict/rules.js';
import { wilsonInterval } from '../verdict/statistics.js';
import type { MatrixQueryRef } from './plan.js';

/**
 * The routing matrix from the runs (pure): where each run went, the cells, per-skill precision and
 * recall with Wilson intervals (src/verdict/statistics.ts), the stolen queries, and the no-verdict
 * rule of `run` (src/verdict/rules.ts) over every run of the matrix.
 */

/** What the first decisive message loaded, as a run reports it (`RunResult.loaded`). */
export type Loaded =
  | { kind: 'stub' }
  | { kind: 'sibling'; name: string }
  | { kind: 'other' }
  | { kind: 'none' };

/**
 * Where one run of a query owned by `owner` went. The stub is the owner; a sibling counts for its
 * skill when it is one of `installed` (anything else is "none/other"). A run that triggered without
 * saying what it loaded loaded the stub: triggered means the stub.
 */
export function destinationOf(
  outcome: Outcome,
  loaded: LoadedEntry | undefined,
  owner: string,
  installed: ReadonlySet<string>,
): MatrixRun {
  if (isLost(outcome)) {
    return outcome.kind === 'error' && outcome.status !== undefined
      ? { to: 'lost', outcome: outcomeCode(outcome), status: outcome.status }
      : { to: 'lost', outcome: outcomeCode(outcome) };
  }
  if (outcome.kind === 'triggered' || loaded?.kind === 'stub') return { to: 'skill', skill: owner };
  if (loaded?.kind === 'sibling' && installed.has(loaded.name)) return { to: 'skill', skill: loaded.name };
  return { to: 'none-other' };
}

/** One query's runs, counted. */
export function summarizeMatrixQuery(ref: MatrixQueryRef, runs: readonly MatrixRun[]): MatrixQuery {
  const loaded: Record<string, number> = {};
  let noneOther = 0;
  for (const run of runs) {
    if (run.to === 'skill') loaded[run.skill] = (loaded[run.skill] ?? 0) + 1;
    else if (run.to === 'none-other') noneOther++;
  }
  const lost = runs.filter((r) => r.to === 'lost');
  const context = ref.item.context?.turns;
  return {
    owner: ref.owner,
    id: ref.item.id,
    query: ref.item.query,
    shouldTrigger: ref.item.shouldTrigger,
    runs: [...runs],
    measured: runs.length - lost.length,
    loaded,
    noneOther,
    timeouts: lost.filter((r) => r.outcome === 'timeout').length,
    errors: lost.filter((r) => r.outcome !== 'timeout').length,
    ...(context === undefined ? {} : { context: describeContext(context) }),
  };
}

/** The rows: for each skill with queries, its positives then its negatives; a cell per installed skill. */
export function matrixRows(skills: readonly string[], queries: readonly MatrixQuery[]): MatrixRow[] {
  const rows: MatrixRow[] = [];
  for (const owner of skills) {
    for (const label of ['positive', 'negative'] as const) {
      const own = queries.filter((q) => q.owner === owner && q.shouldTrigger === (label === 'positive'));
      if (own.length === 0) continue;
      const cells: Record<string, number> = {};
      for (const skill of skills) cells[skill] = own.reduce((n, q) => n + (q.loaded[skill] ?? 0), 0);
      rows.push({
        owner,
        label,
        queries: own.length,
        runs: own.reduce((n, q) => n + q.measured, 0),
        cells,
        noneOther: own.reduce((n, q) => n + q.noneOther, 0),
      });
    }
  }
  return rows;
}

function share(hits: number, of: number): SkillFigures['recall'] {
  const interval = wilsonInterval({ hits, runs: of });
  return {
    hits,
    of,
    rate: of === 0 ? null : hits / of,
    interval: interval === null ? null : { ...interval },
  };
}

/**
 * Per skill: recall = runs of its own positives that loaded it / their measured runs; precision =
 * those runs / every measured run, of any query, that loaded it (its own negatives and every other
 * skill's queries that it took are its false loads).
 */
export function skillFigures(skills: readonly string[], queries: readonly MatrixQuery[]): SkillFigures[] {
  return skills.map((skill) => {
    const positives = queries.filter((q) => q.owner === skill && q.shouldTrigger);
    const ownHits = positives.reduce((n, q) => n + (q.loaded[skill] ?? 0), 0);
    const loads = queries.reduce((n, q) => n + (q.loaded[skill] ?? 0), 0);
    return {
      skill,
      recall: share(
        ownHits,
        positives.reduce((n, q) => n + q.measured, 0),
      ),
      precision: share(ownHits, loads),
    };
  });
}

/** Every positive of A that loaded some B more often than A, one entry per such B, most taken first. */
export function stolenQueries(queries: readonly MatrixQuery[]): Stolen[] {
  const stolen: Stolen[] = [];
  for (const q of queries) {
    if (!q.shouldTrigger) continue;
    const ownerRuns = q.loaded[q.owner] ?? 0;
    for (const [thief, thiefRuns] of Object.entries(q.loaded)) {
      if (thief === q.owner || thiefRuns <= ownerRuns) continue;
      stolen.push({
        owner: q.owner,
        id: q.id,
        query: q.query,
        thief,
        ownerRuns,
        thiefRuns,
        runs: q.measured,
      });
    }
  }
  // Stable: equal counts keep the matrix's query order.
  return stolen.sort((a, b) => b.thiefRuns - b.ownerRuns - (a.thiefRuns - a.ownerRuns));
}

/** The `errorCauses` of the lost runs, keyed as the run report keys them (`api:500`, `network`). */
export function matrixErrorCauses(queries: readonly MatrixQuery[]): Record<string, number> {
  const causes: Record<string, number> = {};
  for (const run of queries.flatMap((q) => q.runs)) {
    if (run.to !== 'lost' || run.outcome === 'timeout') continue;
    const cause = run.outcome.replace(/^error:/, '');
    const key = run.status === undefined ? cause : `${cause}:${run.status}`;
    causes[key] = (causes[key] ?? 0) + 1;
  }
  return causes;
}

/**
 * The no-verdict rule of `run` over every run of the matrix: more lost runs than the share of the
 * planned ones allows, or a query that lost every planned run, or a stop before the plan's end.
 */
export function matrixVerdict(
  queries: readonly MatrixQuery[],
  input: {
    planned: number;
    runsPerQuery: number;
    share: number;
    aborted: boolean;
    interrupted: boolean;
    timeoutSeconds?: number;
  },
): { verdict: 'ok' | 'no-verdict'; reasons: string[] } {
  const lost = queries.reduce((n, q) => n + q.timeouts + q.errors, 0);
  const lostQueries = queries
    .filter((q) => q.runs.length >= input.runsPerQuery && q.measured === 0)
    .map((q) => `${q.owner}/${q.id}`);
  const reasons = noVerdictReasons({ planned: input.planned, lost, lostQueries, share: input.share });
  if (input.interrupted) reasons.unshift('the run was interrupted before every planned run finished');
  else if (input.aborted && reasons.length === 0)
    reasons.push('the run was stopped before every planned run finished');
  if (reasons.length > 0 && !input.interrupted) {
    reasons.push(
      ...lostRunsReasons({
        errorCauses: matrixErrorCauses(queries),
        timeouts: queries.reduce((n, q) => n + q.timeouts, 0),
        executed: queries.reduce((n, q) => n + q.runs.length, 0),
        ...(input.timeoutSeconds === undefined ? {} : { timeoutSeconds: input.timeoutSeconds }),
      }),
    );
  }
  return { verdict: reasons.length === 0 ? 'ok' : 'no-verdict', reasons };
}
