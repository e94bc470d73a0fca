import { describe, expect, it } from 'vitest';
import { consistencyIssues } from '../../../src/report/read/consistency.js';
import type { Report } from '../../../src/schemas/report.js';
import { pairedReportFixture, reportFixture } from '../../fakes/report-fixture.js';

/** A deep copy to edit, so one case's edit never leaks into another. */
const copy = (report: Report): Report => structuredClone(report);
const paths = (report: Report) => consistencyIssues(report).map((issue) => issue.path.join('.'));

describe('consistencyIssues', () => {
  it('finds nothing in a report as written, single or paired', () => {
    expect(consistencyIssues(reportFixture())).toEqual([]);
    expect(consistencyIssues(pairedReportFixture())).toEqual([]);
  });

  it("names a query's count that its outcomes contradict, and the total that then disagrees", () => {
    const report = copy(reportFixture());
    const query = report.candidate.queries[0];
    if (query === undefined) throw new Error('the fixture has no query');
    query.hits += 1;
    const issues = consistencyIssues(report);
    expect(issues[0]).toEqual({
      path: ['candidate', 'queries', 0, 'hits'],
      message: `${query.hits}, but its ${query.outcomes.length} outcomes make it ${query.hits - 1}`,
    });
    expect(paths(report)).toContain('candidate.queries.0.rate');
  });

  it('names a total that the queries do not add up to', () => {
    const report = copy(reportFixture());
    report.candidate.totals.planned += 2;
    expect(consistencyIssues(report)).toEqual([
      {
        path: ['candidate', 'totals', 'planned'],
        message: `${report.candidate.totals.planned}, but the queries' outcomes add up to ${report.candidate.totals.planned - 2}`,
      },
    ]);
  });

  it('refuses a verdict the no-verdict rule forbids, and no verdict without a reason', () => {
    const interrupted = copy(reportFixture());
    interrupted.candidate.interrupted = true;
    expect(consistencyIssues(interrupted)).toEqual([
      {
        path: ['candidate', 'verdict'],
        message: '"ok", but the run was interrupted ("interrupted": true), so there is no verdict',
      },
    ]);
    const reasonless = copy(reportFixture());
    reasonless.candidate.verdict = 'no-verdict';
    reasonless.verdict = 'no-verdict';
    expect(paths(reasonless)).toEqual(['candidate.noVerdictReasons']);
  });

  it("checks a paired report's verdict against both sides", () => {
    const report = copy(pairedReportFixture());
    report.verdict = 'no-verdict';
    expect(consistencyIssues(report)).toEqual([
      { path: ['verdict'], message: '"no-verdict", but its two sides make it "ok"' },
    ]);
  });
});
