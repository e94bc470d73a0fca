import { describe, expect, it } from 'vitest';
import {
  environmentChange,
  issueIntent,
  judgeDrift,
  savesBaseline,
} from '../../../src/action/results/drift.js';
import type { MeasuredSkill, SkillResult } from '../../../src/action/results/results.js';
import { compareReports } from '../../../src/compare/compare.js';
import { rosterOf } from '../../../src/schemas/privacy.js';
import { fallen, good, lost, driftRun as run, driftSkill as skill } from '../../fakes/drift-run.js';
import { fixtureMeasurement, reportFixture } from '../../fakes/report-fixture.js';

/** A drift run judged (pure): what moved, the environment change, the refresh, the issue's fate. */

describe('judgeDrift', () => {
  it('a skill that moved is drift: the issue opens and no baseline is refreshed', () => {
    const found = judgeDrift(run([skill('a', fallen), skill('c', good)]), false);
    expect(found.outcome).toBe('drift');
    expect(found.moved.map((m) => [m.skill, m.standing])).toEqual([['a', 'regression']]);
    expect(found.steady).toEqual(['c']);
    expect(found.refresh).toBe('withheld');
    expect(issueIntent(found)).toBe('open');
  });

  // An improvement is a change nobody made either: adopting it unseen would hide a later fall back.
  it('an improvement alone opens the issue too', () => {
    const better = skill('up', good);
    const worse = reportFixture({ skill: 'up', candidate: fixtureMeasurement(fallen) });
    better.baselineReport = worse;
    better.comparison = compareReports(worse, better.report);
    const found = judgeDrift(run([better]), false);
    expect(found.moved.map((m) => m.standing)).toEqual(['improvement']);
    expect(issueIntent(found)).toBe('open');
  });

  it('every skill noise: clear, the baselines refreshed, the issue closed', () => {
    const found = judgeDrift(run([skill('a', good), skill('b', good)]), false);
    expect(found).toMatchObject({ outcome: 'clear', refresh: 'no-drift', moved: [], steady: ['a', 'b'] });
    expect(issueIntent(found)).toBe('close');
  });

  it('nothing moved but a skill went unjudged: no refresh, an open issue is only updated', () => {
    const notRun: SkillResult = { kind: 'not-run', file: 'skills/z/SKILL.md', skill: 'z' };
    const found = judgeDrift(run([skill('a', good), skill('b', lost), notRun]), false);
    expect(found).toMatchObject({ outcome: 'unsettled', refresh: 'withheld', unsettled: ['b', 'z'] });
    expect(issueIntent(found)).toBe('update-if-open');
  });

  it('a skill with no stored baseline gets its first one, even while another drifts', () => {
    const found = judgeDrift(run([skill('a', fallen), skill('new', good, false)]), false);
    expect(found.fresh).toEqual(['new']);
    const [a, fresh] = run([skill('a', fallen), skill('new', good, false)]).skills as MeasuredSkill[];
    expect(savesBaseline(found, fresh as MeasuredSkill)).toBe(true);
    expect(savesBaseline(found, a as MeasuredSkill)).toBe(false);
  });

  it('a skill cut short by max-cost-usd: a move is still drift, noise is not the all-clear, and neither is saved', () => {
    const stop = { spentUsd: 0.9, nextEstimateUsd: 0.2, maxUsd: 1 };
    const stopped = (name: string, specs: typeof good, stored = true): MeasuredSkill => {
      const s = skill(name, specs, stored);
      return { ...s, report: { ...s.report, candidate: { ...s.report.candidate, budgetStop: stop } } };
    };
    const quiet = [skill('a', good), stopped('b', good), stopped('new', good, false)];
    const found = judgeDrift(run(quiet), false);
    expect(found).toMatchObject({ outcome: 'unsettled', refresh: 'withheld', steady: ['a'], fresh: [] });
    expect(found.unsettled).toEqual(['b', 'new']);
    expect(issueIntent(found)).toBe('update-if-open');
    for (const s of quiet.slice(1)) expect(savesBaseline(found, s)).toBe(false);

    const moved = judgeDrift(run([stopped('a', fallen)]), false);
    expect(moved.outcome).toBe('drift');
    expect(moved.moved.map((m) => m.skill)).toEqual(['a']);
    // Accepted or not, a cut-short report is never a baseline.
    const accepted = judgeDrift(run([stopped('a', fallen)]), true);
    expect(savesBaseline(accepted, stopped('a', fallen))).toBe(false);
  });

  it('accept-drift saves every measurement with a verdict and closes the issue', () => {
    const skills = [skill('a', fallen), skill('b', lost)];
    const found = judgeDrift(run(skills), true);
    expect(found.refresh).toBe('accepted');
    expect(issueIntent(found)).toBe('close');
    expect(savesBaseline(found, skills[0] as MeasuredSkill)).toBe(true);
    // A report without a verdict is never a baseline, accepted or not.
    expect(savesBaseline(found, skills[1] as MeasuredSkill)).toBe(false);
  });
});

describe('environmentChange', () => {
  const before = reportFixture({ candidate: fixtureMeasurement(good) });

  it('records nothing when the model, the CLI and the roster are the same', () => {
    expect(environmentChange(before, reportFixture({ candidate: fixtureMeasurement(good) }))).toEqual({
      cli: [],
    });
  });

  it('records the model asked for and answering, the CLI version and the roster by count', () => {
    const after = reportFixture({
      candidate: fixtureMeasurement(good),
      cli: { version: '2.2.0' },
      model: { requested: 'claude-opus-4-5', reported: { 'claude-opus-4-5': 14 } },
      roster: rosterOf(['commit', 'deploy'], ['docx'], []),
    });
    const change = environmentChange(before, after);
    expect(change.requested).toEqual({ before: 'claude-sonnet-4-5', after: 'claude-opus-4-5' });
    expect(change.answering?.after).toEqual(['claude-opus-4-5']);
    expect(change.cli).toEqual([{ label: 'Claude Code', before: '2.1.328', after: '2.2.0' }]);
    expect(change.roster).toMatchObject({ added: 1 });
    expect(typeof change.roster === 'object' && change.roster.removed).toBeGreaterThan(0);
  });

  it('names each agent’s CLI by its registry label, one beside another', () => {
    const pair = (codex: string, gemini: string) =>
      reportFixture({
        candidate: fixtureMeasurement(good),
        agents: [
          { name: 'claude', version: '2.1.328' },
          { name: 'codex', version: codex },
          { name: 'gemini', version: gemini },
        ],
      });
    expect(environmentChange(pair('0.169.0', '0.20.0'), pair('0.169.0', '0.21.0')).cli).toEqual([
      { label: 'Gemini CLI', before: '0.20.0', after: '0.21.0' },
    ]);
  });

  it('says a roster is unknown when a side recorded none', () => {
    expect(
      environmentChange(before, reportFixture({ candidate: fixtureMeasurement(good), roster: null })).roster,
    ).toBe('unknown');
  });
});
