import type { ActionRun, MeasuredSkill, SkillResult } from '../../src/action/results/results.js';
import { compareReports } from '../../src/compare/compare.js';
import type { Report } from '../../src/schemas/report.js';
import { fixtureMeasurement, type QuerySpec, reportFixture } from './report-fixture.js';

/** A drift run (`mode: drift`) built by hand, for the tests of its rules and its text. */

export const good: QuerySpec[] = [
  ...Array.from({ length: 6 }, (_, i) => ({
    query: `p${i}`,
    shouldTrigger: true,
    outcomes: ['triggered', 'triggered'],
  })),
  { query: 'n', shouldTrigger: false, outcomes: ['not-triggered', 'not-triggered'] },
];
export const fallen = good.map((q) => ({
  ...q,
  outcomes: q.shouldTrigger ? ['not-triggered', 'not-triggered'] : q.outcomes,
}));
export const lost = good.map((q) => ({ ...q, outcomes: ['error:overloaded', 'error:overloaded'] }));

/** A skill measured by a drift run against a stored baseline of `good` (or none). */
export function driftSkill(
  name: string,
  specs: QuerySpec[],
  stored = true,
  now: Partial<Report> = {},
): MeasuredSkill {
  const report = reportFixture({ skill: name, candidate: fixtureMeasurement(specs), ...now });
  const baseline = reportFixture({ skill: name, candidate: fixtureMeasurement(good) });
  return {
    kind: 'measured',
    skill: name,
    file: `skills/${name}/SKILL.md`,
    descriptionLine: 3,
    change: 'all',
    report,
    reportPath: `/out/${name}.json`,
    markdownPath: `/out/${name}.md`,
    warnings: [],
    ...(stored
      ? {
          baseline: { kind: 'cache', hit: 'prefix', createdAt: baseline.createdAt, drift: [], stale: false },
          baselineReport: baseline,
          comparison: compareReports(baseline, report),
        }
      : { baseline: { kind: 'none', why: 'no baseline is stored' } }),
  };
}

export function driftRun(skills: SkillResult[]): ActionRun {
  return {
    event: 'other',
    eventName: 'schedule',
    fromFork: false,
    stage: 'measured',
    skills,
    gates: [],
    notes: [],
    settings: { runs: 2, baseline: 'cache', failOnRegression: false },
    drift: { accept: false },
  };
}
