import { describe, expect, it } from 'vitest';
import { competitionLines, routingRows } from '../../../src/action/text/competition-lines.js';
import type { Measurement, Report } from '../../../src/schemas/report.js';
import { pairedReportFixture, reportFixture } from '../../fakes/report-fixture.js';

/** The comment's and summary's competition lines: counts from the totals, names escaped, nothing without siblings. */

function withSiblings(
  m: Measurement,
  lostTo: Record<string, number>,
  cross?: Measurement['totals']['siblings'],
): Measurement {
  const lost = Object.values(lostTo).reduce((a, b) => a + b, 0);
  return {
    ...m,
    totals: {
      ...m.totals,
      siblings: cross ?? { lostPositives: lost, positiveRuns: 10, lostTo, ownedNegativeRuns: 0, toOwner: 0 },
    },
  };
}

const members = [
  { name: 'review', sha256: 'a'.repeat(64) },
  { name: 'x*_[y](z)', sha256: 'b'.repeat(64) },
];

describe('competitionLines', () => {
  it('says nothing for a report measured without siblings', () => {
    const report = reportFixture();
    expect(competitionLines(report, [{ label: 'This PR', m: report.candidate }])).toEqual([]);
  });

  it('gives each side its positives lost to siblings, the top thieves by name, escaped', () => {
    const paired = pairedReportFixture();
    const report = {
      ...paired,
      siblings: { members, crossNegatives: false },
      candidate: withSiblings(paired.candidate, { review: 3, 'x*_[y](z)': 1 }),
      ...(paired.baseline ? { baseline: withSiblings(paired.baseline, {}) } : {}),
    };
    expect(
      competitionLines(report, [
        { label: 'Baseline', m: report.baseline },
        { label: 'This PR', m: report.candidate },
      ]),
    ).toEqual([
      'Competition: 2 sibling skills of this repository installed beside it in every run.',
      '- Baseline: lost to siblings: positives 0/10 runs',
      '- This PR: lost to siblings: positives 4/10 runs \\(review 3, x\\*\\_\\[y\\]\\(z\\) 1\\)',
    ]);
  });

  it('with cross-negatives, says how often the siblings’ positives loaded this skill', () => {
    const base = reportFixture();
    const report = {
      ...base,
      siblings: { members: members.slice(0, 1), crossNegatives: true },
      candidate: withSiblings(
        base.candidate,
        {},
        {
          lostPositives: 0,
          positiveRuns: 4,
          lostTo: {},
          ownedNegativeRuns: 4,
          toOwner: 1,
          crossNegatives: { queries: 2, passed: 1, fired: 3, runs: 4 },
        },
      ),
    };
    const lines = competitionLines(report, [{ label: 'This PR', m: report.candidate }]);
    expect(lines[0]).toBe(
      'Competition: 1 sibling skill of this repository installed beside it in every run.',
    );
    expect(lines).toContain(
      '- This PR: lost to siblings: positives 0/4 runs; negatives that went to their owner: 1/4 runs',
    );
    expect(lines).toContain(
      '- This PR: siblings’ positives that loaded this skill instead: 3/4 runs \\(1 of 2 queries failed\\)',
    );
  });
});

describe('routingRows (the job summary: where the changed skill’s runs went, as matrix rows)', () => {
  /** Positives q1–q4 and negatives q5–q8 of the fixture, with some runs sent to siblings. */
  function routed(): Report {
    const report = reportFixture();
    const queries = report.candidate.queries.map((q) => {
      if (q.id === 'q2') return { ...q, siblingHits: { review: 1 } };
      if (q.id === 'q6') return { ...q, siblingHits: { 'x*_[y](z)': 2 } };
      return q;
    });
    return {
      ...report,
      siblings: { members, crossNegatives: false },
      candidate: { ...report.candidate, queries },
    };
  }

  it('says nothing without siblings', () => {
    expect(routingRows(reportFixture(), 'handoff')).toEqual([]);
  });

  it('counts each class’s measured runs: the skill itself, each sibling, none/other; names escaped', () => {
    const report = routed();
    const rows = routingRows(report, 'handoff');
    const pos = report.candidate.queries.filter((q) => q.shouldTrigger);
    const neg = report.candidate.queries.filter((q) => !q.shouldTrigger);
    const sum = (qs: typeof pos, f: (q: (typeof pos)[number]) => number) => qs.reduce((s, q) => s + f(q), 0);
    const [posHits, posRuns] = [sum(pos, (q) => q.hits), sum(pos, (q) => q.runs)];
    const [negHits, negRuns] = [sum(neg, (q) => q.hits), sum(neg, (q) => q.runs)];
    expect(rows).toEqual([
      '| runs of handoff’s queries | handoff | review | x\\*\\_\\[y\\]\\(z\\) | none/other |',
      '| --- | --- | --- | --- | --- |',
      `| should load (${posRuns} runs) | ${posHits} | 1 | 0 | ${posRuns - posHits - 1} |`,
      `| should not (${negRuns} runs) | ${negHits} | 0 | 2 | ${negRuns - negHits - 2} |`,
    ]);
  });

  it('puts cross-negatives in a row of their own per sibling they came from', () => {
    const report = routed();
    const cross = {
      ...report.candidate.queries[4],
      id: 'review/q1',
      extra: { from: 'review', owner: 'review' },
      hits: 1,
      runs: 2,
      siblingHits: { review: 1 },
    } as Report['candidate']['queries'][number];
    const withCross = {
      ...report,
      candidate: { ...report.candidate, queries: [...report.candidate.queries, cross] },
    };
    const rows = routingRows(withCross, 'handoff');
    expect(rows.at(-1)).toBe('| review’s positives (2 runs) | 1 | 1 | 0 | 0 |');
  });
});
