import { describe, expect, it } from 'vitest';
import { competitionLines } from '../../src/action/competition-lines.js';
import type { Measurement } from '../../src/report/schema.js';
import { pairedReportFixture, reportFixture } from '../fakes/report-fixture.js';

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
