import { describe, expect, it } from 'vitest';
import { conclude } from '../../../src/action/results/conclusion.js';
import {
  type ActionRun,
  type MeasuredSkill,
  type SkillResult,
  shownCounts,
} from '../../../src/action/results/results.js';
import { compareReports } from '../../../src/compare/compare.js';
import { fixtureMeasurement, type QuerySpec, reportFixture } from '../../fakes/report-fixture.js';

/** The exit code is a pure function of the run's findings (codes as the CLI's: 1, 2, 3). */

const good: QuerySpec[] = [
  ...Array.from({ length: 6 }, (_, i) => ({
    query: `p${i}`,
    shouldTrigger: true,
    outcomes: ['triggered', 'triggered'],
  })),
  { query: 'n', shouldTrigger: false, outcomes: ['not-triggered', 'not-triggered'] },
];
const bad: QuerySpec[] = good.map((q) => ({
  ...q,
  outcomes: q.shouldTrigger ? ['not-triggered', 'not-triggered'] : q.outcomes,
}));
const lost: QuerySpec[] = good.map((q) => ({ ...q, outcomes: ['error:overloaded', 'error:overloaded'] }));

function skill(name: string, specs: QuerySpec[], compared: boolean): MeasuredSkill {
  const report = reportFixture({ skill: name, candidate: fixtureMeasurement(specs) });
  const baseline = reportFixture({ skill: name, candidate: fixtureMeasurement(good) });
  return {
    kind: 'measured',
    skill: name,
    file: `skills/${name}/SKILL.md`,
    descriptionLine: 3,
    change: 'modified',
    report,
    reportPath: '/r.json',
    markdownPath: '/r.md',
    warnings: [],
    ...(compared ? { comparison: compareReports(baseline, report), baselineReport: baseline } : {}),
  };
}

function run(
  skills: SkillResult[],
  failOnRegression: boolean,
  stage: ActionRun['stage'] = 'measured',
): ActionRun {
  return {
    event: 'pull_request',
    eventName: 'pull_request',
    fromFork: false,
    stage,
    skills,
    gates: [],
    notes: [],
    settings: { runs: 2, baseline: 'cache', failOnRegression },
  };
}

describe('conclude', () => {
  it('passes with a verdict and no regression', () => {
    expect(conclude(run([skill('a', good, true)], true))).toEqual({ code: 0 });
  });

  it('a regression fails only with fail-on-regression; the first line names skill, file, line and numbers', () => {
    expect(conclude(run([skill('a', bad, true)], false))).toEqual({ code: 0 });
    const failed = conclude(run([skill('a', bad, true)], true));
    expect(failed.code).toBe(1);
    expect(failed.message?.split('\n')[0]).toBe(
      'regression in 1 skill: a (skills/a/SKILL.md:3): positives triggered 12/12 → 0/12 (100% → 0%)',
    );
  });

  it('no verdict is 3, and comes first when a regression is also there', () => {
    const conclusion = conclude(run([skill('a', bad, true), skill('b', lost, false)], true));
    expect(conclusion.code).toBe(3);
    const [first, second] = conclusion.message?.split('\n') ?? [];
    expect(first).toMatch(/^no verdict for b: /);
    expect(second).toMatch(/^regression in 1 skill: a /);
  });

  it('a failed gate is 2, an input error 1, nothing to do 0', () => {
    expect(conclude(run([], false, 'gate-failed')).code).toBe(2);
    const input = conclude({
      ...run([], false, 'input-error'),
      skills: [{ kind: 'invalid', file: 'x/SKILL.md', problems: ['x/SKILL.md:3: description is empty'] }],
    });
    expect(input).toEqual({
      code: 1,
      message:
        "input error: 1 problem in the skills' inputs; nothing was measured\nx/SKILL.md:3: description is empty",
    });
    expect(conclude(run([], true, 'nothing'))).toEqual({ code: 0 });
    expect(conclude(run([], true, 'ignored'))).toEqual({ code: 0 });
  });

  it('a broken skill beside measured ones fails the step with 1 at the end, naming each problem; no verdict stays 3', () => {
    const broken: SkillResult = {
      kind: 'invalid',
      file: 'x/SKILL.md',
      problems: ['x/SKILL.md:3: description is empty'],
    };
    const mixed = conclude(run([skill('a', good, true), broken], true));
    expect(mixed).toEqual({
      code: 1,
      message:
        "input error: 1 problem in the skills' inputs; the other skills were measured\nx/SKILL.md:3: description is empty",
    });
    const lostToo = conclude(run([skill('b', lost, false), broken], true));
    expect(lostToo.code).toBe(3);
    expect(lostToo.message).toContain('x/SKILL.md:3: description is empty');
  });

  it('names the gate that failed, with its fix', () => {
    const failed = conclude({
      ...run([], false, 'gate-failed'),
      gates: [
        { gate: 'cli', status: 'ok', reason: 'claude 2.1.328' },
        { gate: 'auth', status: 'fail', reason: 'not logged in', fix: 'pass a key' },
      ],
    });
    expect(failed).toEqual({ code: 2, message: 'gate auth failed: not logged in. Fix: pass a key' });
  });
});

describe('a listing lost to name-only', () => {
  const listed = (state: 'whole' | 'bare', text: number) => ({
    claude: {
      unit: 'characters' as const,
      budget: 8000,
      used: 7150,
      entries: { whole: 16, cut: 0, bare: state === 'bare' ? 1 : 0, omitted: 0 },
      members: [],
      stub: { state, chars: state === 'bare' ? 0 : text, text },
      runs: { whole: 0, cut: 0, bare: 0, fromRequest: 0 },
    },
  });

  it('is a regression by itself: the rates equal, the step fails with fail-on-regression', () => {
    const s = skill('tiny', good, true);
    if (s.baselineReport) s.baselineReport.candidate.listing = listed('whole', 67);
    s.report.candidate.listing = listed('bare', 1417);
    expect(conclude(run([s], false))).toEqual({ code: 0 });
    expect(conclude(run([s], true))).toEqual({
      code: 1,
      message:
        'regression in 1 skill: tiny (skills/tiny/SKILL.md:3): Claude Code would list it name-only (whole on the baseline): its description is 1,417 characters against the 8,000-character budget',
    });
    // Listed name-only on both sides: nothing was lost, and the rates decide.
    if (s.baselineReport) s.baselineReport.candidate.listing = listed('bare', 1300);
    expect(conclude(run([s], true))).toEqual({ code: 0 });
  });
});

describe('shownCounts (the outputs and the tables count alike)', () => {
  it('with a comparison: this run over the shared queries, and how many it leaves out', () => {
    const extra: QuerySpec = {
      query: 'only-here',
      shouldTrigger: true,
      outcomes: ['triggered', 'triggered'],
    };
    const report = reportFixture({ skill: 'a', candidate: fixtureMeasurement([...bad, extra]) });
    const baseline = reportFixture({ skill: 'a', candidate: fixtureMeasurement(good) });
    const s: MeasuredSkill = {
      ...skill('a', good, false),
      report,
      comparison: compareReports(baseline, report),
    };
    expect(shownCounts(s)).toEqual({
      positives: { triggered: 0, runs: 12 },
      negatives: { fired: 0, runs: 2 },
      queries: { compared: 7, leftOut: 1 },
    });
    // Without one: every query measured.
    expect(shownCounts({ ...s, comparison: undefined } as MeasuredSkill).positives).toEqual({
      triggered: 2,
      runs: 14,
    });
  });
});
