import type { Measurement, Report } from '../../schemas/report.js';
import { lossBudget, queryPasses } from '../../verdict/rules.js';
import { agentIssues } from './consistency-agents.js';

/**
 * A report read back must hold together: its counts, rates, pass marks, totals and verdict are all
 * derived from the run outcomes it lists (src/verdict/rules.ts), so any difference is an edit made
 * after it was written, and `compare` or the Action's baseline would otherwise use the edited
 * number without a word. Each issue names the field by its JSON path. Pure.
 */

export interface ConsistencyIssue {
  path: PropertyKey[];
  message: string;
}

/** Two rates that differ by more than rounding. */
const differs = (a: number, b: number) => Math.abs(a - b) > 1e-9;

type Query = Measurement['queries'][number];
type At = (...rest: PropertyKey[]) => PropertyKey[];

function measurementIssues(
  side: 'candidate' | 'baseline',
  m: Measurement,
  threshold: number,
  noVerdictShare: number,
): ConsistencyIssue[] {
  const at: At = (...rest) => [side, ...rest];
  const tally = tallyQueries(m, threshold);
  return [
    ...m.queries.flatMap((q, i) => queryIssues(q, threshold, (...rest) => at('queries', i, ...rest))),
    ...totalsIssues(m, tally, at),
    ...verdictIssues(m, tally, noVerdictShare, at),
  ];
}

/** How a query's outcomes split: hits, measured runs, timeouts and errors. */
function outcomeCounts(q: Query) {
  const count = (test: (o: string) => boolean) => q.outcomes.filter(test).length;
  return {
    triggered: count((o) => o === 'triggered'),
    measured: count((o) => o === 'triggered' || o === 'not-triggered'),
    timeouts: count((o) => o === 'timeout'),
    errors: count((o) => o.startsWith('error:')),
  };
}

/** The rate a query's own hits and runs make (null with no run measured). */
function rateOf(q: Query): number | null {
  return q.runs === 0 ? null : q.hits / q.runs;
}

/** One query's counts against its outcomes, and its rate, pass and partial mark against its counts. */
function queryIssues(q: Query, threshold: number, at: At): ConsistencyIssue[] {
  const issues: ConsistencyIssue[] = [];
  const { triggered, measured, timeouts, errors } = outcomeCounts(q);
  const expect = (field: keyof Query, got: unknown, want: unknown, why: string) => {
    if (got !== want)
      issues.push({
        path: at(field),
        message: `${JSON.stringify(got)}, but ${why} make it ${JSON.stringify(want)}`,
      });
  };
  const outcomesSay = `its ${q.outcomes.length} outcomes`;
  expect('hits', q.hits, triggered, outcomesSay);
  expect('runs', q.runs, measured, outcomesSay);
  expect('timeouts', q.timeouts, timeouts, outcomesSay);
  expect('errors', q.errors, errors, outcomesSay);
  const rate = rateOf(q);
  if (rate === null ? q.rate !== null : q.rate === null || differs(q.rate, rate)) {
    issues.push({
      path: at('rate'),
      message: `${JSON.stringify(q.rate)}, but ${q.hits} hits of ${q.runs} runs make it ${JSON.stringify(rate)}`,
    });
  }
  expect(
    'pass',
    q.pass,
    queryPasses(q.shouldTrigger, rate, threshold),
    `its rate and the threshold ${threshold}`,
  );
  expect('partial', q.partial, q.runs < q.planned, `${q.runs} measured of ${q.planned} planned runs`);
  return issues;
}

/** What the queries' outcomes add up to, for the totals and the no-verdict rule. */
interface Tally {
  planned: number;
  executed: number;
  lost: number;
  posHits: number;
  posRuns: number;
  negHits: number;
  negRuns: number;
  timeouts: number;
  errors: number;
  passed: number;
  failed: number;
  /** The queries that lost every run. */
  lostQueries: string[];
}

function tallyQueries(m: Measurement, threshold: number): Tally {
  const sums: Tally = {
    planned: 0,
    executed: 0,
    lost: 0,
    posHits: 0,
    posRuns: 0,
    negHits: 0,
    negRuns: 0,
    timeouts: 0,
    errors: 0,
    passed: 0,
    failed: 0,
    lostQueries: [],
  };
  for (const q of m.queries) {
    const { triggered, measured, timeouts, errors } = outcomeCounts(q);
    sums.planned += q.planned;
    sums.executed += q.outcomes.length;
    sums.lost += timeouts + errors;
    if (q.outcomes.length === q.planned && measured === 0) sums.lostQueries.push(q.id);
    if (q.shouldTrigger) {
      sums.posHits += triggered;
      sums.posRuns += measured;
    } else {
      sums.negHits += triggered;
      sums.negRuns += measured;
    }
    sums.timeouts += timeouts;
    sums.errors += errors;
    const pass = queryPasses(q.shouldTrigger, rateOf(q), threshold);
    if (pass === true) sums.passed++;
    if (pass === false) sums.failed++;
  }
  return sums;
}

/** The totals against what the queries' outcomes add up to. */
function totalsIssues(m: Measurement, sums: Tally, at: At): ConsistencyIssue[] {
  const issues: ConsistencyIssue[] = [];
  const t = m.totals;
  const total = (path: PropertyKey[], got: number, want: number) => {
    if (got !== want)
      issues.push({
        path: at('totals', ...path),
        message: `${got}, but the queries' outcomes add up to ${want}`,
      });
  };
  total(['positives', 'triggered'], t.positives.triggered, sums.posHits);
  total(['positives', 'runs'], t.positives.runs, sums.posRuns);
  total(['negatives', 'fired'], t.negatives.fired, sums.negHits);
  total(['negatives', 'runs'], t.negatives.runs, sums.negRuns);
  total(['timeouts'], t.timeouts, sums.timeouts);
  total(['errors'], t.errors, sums.errors);
  total(['planned'], t.planned, sums.planned);
  total(['executed'], t.executed, sums.executed);
  total(['queries'], t.queries, m.queries.length);
  total(['passed'], t.passed, sums.passed);
  total(['failed'], t.failed, sums.failed);
  const causes = Object.values(t.errorCauses).reduce((a, b) => a + b, 0);
  if (causes !== sums.errors)
    issues.push({
      path: at('totals', 'errorCauses'),
      message: `counts ${causes} errors, but the queries' outcomes hold ${sums.errors}`,
    });
  return issues;
}

/**
 * The no-verdict rule: an interrupted run, more lost runs than the share allows, or a query that
 * lost every run leaves no verdict; and a verdict has no reasons against it.
 */
function verdictIssues(m: Measurement, sums: Tally, noVerdictShare: number, at: At): ConsistencyIssue[] {
  const { planned, lost, lostQueries } = sums;
  const budget = lossBudget(planned, noVerdictShare);
  const required = m.interrupted
    ? 'the run was interrupted ("interrupted": true)'
    : m.budgetStop
      ? 'the cost budget stopped the run ("budgetStop")'
      : m.aborted
        ? 'the run was stopped early ("aborted": true)'
        : lost > budget
          ? `${lost} of ${planned} planned runs were lost, more than the ${budget} the no-verdict share allows`
          : lostQueries.length > 0
            ? `${lostQueries.length} quer${lostQueries.length === 1 ? 'y' : 'ies'} lost every run`
            : undefined;
  if (m.verdict === 'ok' && required !== undefined) {
    return [{ path: at('verdict'), message: `"ok", but ${required}, so there is no verdict` }];
  }
  if (m.verdict === 'ok' && m.noVerdictReasons.length > 0) {
    return [{ path: at('verdict'), message: `"ok", but noVerdictReasons holds reasons against it` }];
  }
  if (m.verdict === 'no-verdict' && m.noVerdictReasons.length === 0) {
    return [{ path: at('noVerdictReasons'), message: 'empty, but the verdict is "no-verdict"' }];
  }
  return [];
}

/**
 * Every way `report` contradicts itself, by JSON path: per query the counts against its outcomes,
 * its rate, pass and partial mark; the totals against the queries; each side's verdict against the
 * no-verdict rule; the report's verdict against its sides'; and the agent fields. Empty for a report as written.
 */
export function consistencyIssues(report: Report): ConsistencyIssue[] {
  const { triggerThreshold, noVerdictShare } = report.settings;
  const sides = [
    ['candidate', report.candidate] as const,
    ...(report.baseline ? [['baseline', report.baseline] as const] : []),
  ];
  const issues = sides.flatMap(([side, m]) => measurementIssues(side, m, triggerThreshold, noVerdictShare));
  issues.push(...agentIssues(report));
  const verdict = sides.every(([, m]) => m.verdict === 'ok') ? 'ok' : 'no-verdict';
  if (report.verdict !== verdict) {
    issues.push({
      path: ['verdict'],
      message: `${JSON.stringify(report.verdict)}, but ${report.baseline ? 'its two sides make' : 'the measurement makes'} it ${JSON.stringify(verdict)}`,
    });
  }
  return issues;
}
