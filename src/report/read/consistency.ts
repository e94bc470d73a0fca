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

function measurementIssues(
  side: 'candidate' | 'baseline',
  m: Measurement,
  threshold: number,
  noVerdictShare: number,
): ConsistencyIssue[] {
  const issues: ConsistencyIssue[] = [];
  const at = (...rest: PropertyKey[]) => [side, ...rest];
  let planned = 0;
  let executed = 0;
  let lost = 0;
  const sums = {
    posHits: 0,
    posRuns: 0,
    negHits: 0,
    negRuns: 0,
    timeouts: 0,
    errors: 0,
    passed: 0,
    failed: 0,
  };
  const lostQueries: string[] = [];
  m.queries.forEach((q, i) => {
    const count = (test: (o: string) => boolean) => q.outcomes.filter(test).length;
    const triggered = count((o) => o === 'triggered');
    const measured = count((o) => o === 'triggered' || o === 'not-triggered');
    const timeouts = count((o) => o === 'timeout');
    const errors = count((o) => o.startsWith('error:'));
    const expect = (field: keyof typeof q, got: unknown, want: unknown, why: string) => {
      if (got !== want)
        issues.push({
          path: at('queries', i, field),
          message: `${JSON.stringify(got)}, but ${why} make it ${JSON.stringify(want)}`,
        });
    };
    const outcomesSay = `its ${q.outcomes.length} outcomes`;
    expect('hits', q.hits, triggered, outcomesSay);
    expect('runs', q.runs, measured, outcomesSay);
    expect('timeouts', q.timeouts, timeouts, outcomesSay);
    expect('errors', q.errors, errors, outcomesSay);
    const rate = q.runs === 0 ? null : q.hits / q.runs;
    if (rate === null ? q.rate !== null : q.rate === null || differs(q.rate, rate)) {
      issues.push({
        path: at('queries', i, 'rate'),
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
    planned += q.planned;
    executed += q.outcomes.length;
    lost += timeouts + errors;
    if (q.outcomes.length === q.planned && measured === 0) lostQueries.push(q.id);
    if (q.shouldTrigger) {
      sums.posHits += triggered;
      sums.posRuns += measured;
    } else {
      sums.negHits += triggered;
      sums.negRuns += measured;
    }
    sums.timeouts += timeouts;
    sums.errors += errors;
    const pass = queryPasses(q.shouldTrigger, rate, threshold);
    if (pass === true) sums.passed++;
    if (pass === false) sums.failed++;
  });

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
  total(['planned'], t.planned, planned);
  total(['executed'], t.executed, executed);
  total(['queries'], t.queries, m.queries.length);
  total(['passed'], t.passed, sums.passed);
  total(['failed'], t.failed, sums.failed);
  const causes = Object.values(t.errorCauses).reduce((a, b) => a + b, 0);
  if (causes !== sums.errors)
    issues.push({
      path: at('totals', 'errorCauses'),
      message: `counts ${causes} errors, but the queries' outcomes hold ${sums.errors}`,
    });

  // The no-verdict rule: an interrupted run, more lost runs than the share allows, or a query that
  // lost every run leaves no verdict; and a verdict has no reasons against it.
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
    issues.push({ path: at('verdict'), message: `"ok", but ${required}, so there is no verdict` });
  } else if (m.verdict === 'ok' && m.noVerdictReasons.length > 0) {
    issues.push({ path: at('verdict'), message: `"ok", but noVerdictReasons holds reasons against it` });
  } else if (m.verdict === 'no-verdict' && m.noVerdictReasons.length === 0) {
    issues.push({ path: at('noVerdictReasons'), message: 'empty, but the verdict is "no-verdict"' });
  }
  return issues;
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
