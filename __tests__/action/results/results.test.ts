import { describe, expect, it } from 'vitest';
import {
  type ActionRun,
  byModelLabel,
  type MeasuredSkill,
  type RoutingMatrix,
  regressions,
  reportPaths,
  type SkillResult,
  shownCounts,
  standingOf,
  verdictsOutput,
} from '../../../src/action/results/results.js';
import type { ModelComparison } from '../../../src/compare/by-model.js';
import { compareReports } from '../../../src/compare/compare.js';
import type { Comparison } from '../../../src/compare/comparison.js';
import { matrixFixture } from '../../fakes/matrix-fixture.js';
import { buildMeasurement, buildReport, type QuerySpec } from '../../fakes/measurement-builder.js';

/**
 * What one Action run found, as the outputs read it: each skill's standing, the counts its table
 * and its `verdicts` entry show (this run's side over the shared queries when compared), and the
 * `reports` output.
 */

const BASE: QuerySpec[] = [
  { id: 'p1', query: 'write the handoff notes', shouldTrigger: true, hits: 4, runs: 4 },
  { id: 'n1', query: 'capital of France', shouldTrigger: false, hits: 0, runs: 4 },
  { id: 'p2', query: 'summarise the session', shouldTrigger: true, hits: 4, runs: 4 },
];
/** p1 worse (one run lost), n1 fired once, p2 flipped to a negative, p3 new. */
const CAND: QuerySpec[] = [
  { id: 'p1', query: 'write the handoff notes', shouldTrigger: true, hits: 1, runs: 3, lost: 1 },
  { id: 'n1', query: 'capital of France', shouldTrigger: false, hits: 1, runs: 4 },
  { id: 'p2', query: 'summarise the session', shouldTrigger: false, hits: 0, runs: 4 },
  { id: 'p3', query: 'hand over to tomorrow', shouldTrigger: true, hits: 3, runs: 4 },
];

const report = (specs: QuerySpec[], verdict: 'ok' | 'no-verdict' = 'ok') =>
  buildReport(buildMeasurement(specs, { verdict }), { verdict });

function measured(name: string, extra: Partial<MeasuredSkill> = {}): MeasuredSkill {
  return {
    kind: 'measured',
    skill: name,
    file: `.claude/skills/${name}/SKILL.md`,
    descriptionLine: 3,
    change: 'modified',
    report: report(CAND),
    reportPath: `/out/${name}.json`,
    markdownPath: `/out/${name}.md`,
    warnings: [],
    ...extra,
  };
}

const compared = (name: string, label?: Comparison['label'], byModel?: ModelComparison[]): MeasuredSkill => {
  const comparison = compareReports(report(BASE), report(CAND));
  return measured(name, {
    baseline: { kind: 'paired', why: 'no cached report' },
    comparison: label === undefined ? comparison : { ...comparison, label },
    ...(byModel ? { byModel } : {}),
  });
};
const modelSaid = (model: string, label: Comparison['label']): ModelComparison => ({
  model,
  comparison: { ...compareReports(report(BASE), report(CAND)), label },
});

function run(skills: SkillResult[], matrix?: RoutingMatrix): ActionRun {
  return {
    event: 'pull_request',
    eventName: 'pull_request',
    fromFork: false,
    stage: 'measured',
    skills,
    gates: [],
    notes: [],
    settings: { runs: 4, baseline: 'measure', failOnRegression: true },
    ...(matrix ? { matrix } : {}),
  };
}

describe('byModelLabel', () => {
  it('a regression on any one model wins; else the pooled label stands', () => {
    expect(byModelLabel('noise', undefined)).toBe('noise');
    expect(byModelLabel('improvement', [])).toBe('improvement');
    expect(byModelLabel('noise', [modelSaid('a', 'improvement'), modelSaid('b', 'noise')])).toBe('noise');
    expect(byModelLabel('improvement', [modelSaid('a', 'improvement'), modelSaid('b', 'regression')])).toBe(
      'regression',
    );
  });
});

describe('standingOf', () => {
  it('a report without a verdict stands at no-verdict, whatever its comparison says', () => {
    const s = compared('x', 'regression', [modelSaid('a', 'regression')]);
    expect(standingOf({ ...s, report: report(CAND, 'no-verdict') })).toBe('no-verdict');
  });

  it('compared: the comparison’s label, or regression when one model regressed', () => {
    expect(standingOf(compared('x', 'noise'))).toBe('noise');
    expect(standingOf(compared('x', 'improvement'))).toBe('improvement');
    expect(standingOf(compared('x', 'no-verdict'))).toBe('no-verdict');
    expect(standingOf(compared('x', 'noise', [modelSaid('a', 'noise'), modelSaid('b', 'regression')]))).toBe(
      'regression',
    );
  });

  it('not compared: no-baseline on a PR that looked for one, measured otherwise', () => {
    expect(standingOf(measured('x', { baseline: { kind: 'none', why: 'first run' } }))).toBe('no-baseline');
    expect(standingOf(measured('x'))).toBe('measured');
  });

  it('skipped and not-run are not measured; invalid is invalid', () => {
    expect(standingOf({ kind: 'skipped', file: 'a', change: 'modified', reason: 'body-only' })).toBe(
      'not-measured',
    );
    expect(standingOf({ kind: 'not-run', file: 'a', skill: 'a' })).toBe('not-measured');
    expect(standingOf({ kind: 'invalid', file: 'a', problems: ['a:1: bad'] })).toBe('invalid');
  });
});

describe('regressions', () => {
  it('lists the measured skills that stand at regression, by pooled label or by a model, in order', () => {
    const skills: SkillResult[] = [
      compared('a', 'regression'),
      compared('b', 'noise'),
      compared('c', 'noise', [modelSaid('m', 'regression')]),
      { ...compared('d', 'regression'), report: report(CAND, 'no-verdict') },
      { kind: 'invalid', file: 'e', problems: [] },
    ];
    expect(regressions(run(skills)).map((s) => s.skill)).toEqual(['a', 'c']);
    expect(regressions(run([]))).toEqual([]);
  });
});

describe('shownCounts', () => {
  it('compared: this run’s side over the shared queries; new and flipped queries are left out', () => {
    expect(shownCounts(compared('x'))).toEqual({
      positives: { triggered: 1, runs: 3 },
      negatives: { fired: 1, runs: 4 },
      queries: { compared: 2, leftOut: 2 },
    });
  });

  it('alone: every query measured, from the report’s totals (lost runs not counted as runs)', () => {
    expect(shownCounts(measured('x'))).toEqual({
      positives: { triggered: 4, runs: 7 },
      negatives: { fired: 1, runs: 8 },
      queries: { compared: 4, leftOut: 0 },
    });
  });
});

describe('reportPaths', () => {
  const skills: SkillResult[] = [
    measured('b'),
    { kind: 'not-run', file: 'c', skill: 'c' },
    measured('a'),
    { kind: 'skipped', file: 'd', change: 'removed', reason: 'removed' },
  ];

  it('the measured skills’ reports in the run’s order, then a measured matrix’s', () => {
    expect(reportPaths(run(skills))).toEqual(['/out/b.json', '/out/a.json']);
    const matrix: RoutingMatrix = {
      kind: 'measured',
      report: matrixFixture(),
      reportPath: '/out/matrix.json',
      markdownPath: '/out/matrix.md',
    };
    expect(reportPaths(run(skills, matrix))).toEqual(['/out/b.json', '/out/a.json', '/out/matrix.json']);
  });

  it('a matrix that was not measured adds no path', () => {
    expect(reportPaths(run(skills, { kind: 'not-run', why: 'a gate failed' }))).toEqual([
      '/out/b.json',
      '/out/a.json',
    ]);
    expect(reportPaths(run(skills, { kind: 'invalid', problems: ['p'] }))).toEqual([
      '/out/b.json',
      '/out/a.json',
    ]);
  });
});

describe('verdictsOutput', () => {
  it('a compared skill: its verdict, the comparison’s label (one worse query is noise), shown counts, lost runs and baseline kind', () => {
    expect(verdictsOutput(run([compared('handoff')]))).toEqual({
      handoff: {
        file: '.claude/skills/handoff/SKILL.md',
        standing: 'noise',
        passed: true,
        verdict: 'ok',
        label: 'noise',
        positives: { triggered: 1, runs: 3 },
        negatives: { fired: 1, runs: 4 },
        queries: { compared: 2, leftOut: 2 },
        lost: { timeouts: 1, errors: 0 },
        baseline: 'paired',
        report: '/out/handoff.json',
      },
    });
  });

  it('a skill measured alone has a null label and baseline; a no-verdict report says so', () => {
    const out = verdictsOutput(run([measured('x', { report: report(CAND, 'no-verdict') })]));
    expect(out.x).toMatchObject({
      standing: 'no-verdict',
      passed: false,
      verdict: 'no-verdict',
      label: null,
      baseline: null,
    });
  });

  it('the other kinds: a skipped skill’s reason, an invalid one’s problems, a not-run one bare', () => {
    const out = verdictsOutput(
      run([
        { kind: 'skipped', file: 's/SKILL.md', change: 'modified', reason: 'body-only', skill: 's' },
        { kind: 'invalid', file: 'i/SKILL.md', problems: ['i/SKILL.md:2: no description'] },
        { kind: 'not-run', file: 'n/SKILL.md', skill: 'n' },
      ]),
    );
    expect(out).toEqual({
      s: { file: 's/SKILL.md', standing: 'not-measured', passed: null, reason: 'body-only' },
      'i/SKILL.md': {
        file: 'i/SKILL.md',
        standing: 'invalid',
        passed: false,
        problems: ['i/SKILL.md:2: no description'],
      },
      n: { file: 'n/SKILL.md', standing: 'not-measured', passed: null },
    });
  });

  it('passed is the field to gate on: a regression is false whatever fail-on-regression says, a valid measurement ("verdict": "ok") is not enough', () => {
    const regressed = compared('r', 'regression');
    expect(standingOf(regressed)).toBe('regression');
    const out = verdictsOutput(run([regressed, measured('alone')]));
    expect(out.r).toMatchObject({ verdict: 'ok', standing: 'regression', passed: false });
    expect(out.alone).toMatchObject({ verdict: 'ok', standing: 'measured', passed: true });
  });

  it('a second skill of a taken name is keyed by its path, the first keeps the name', () => {
    const second = measured('handoff', { file: 'pkg/b/.claude/skills/handoff/SKILL.md' });
    const out = verdictsOutput(run([measured('handoff'), second]));
    expect(Object.keys(out)).toEqual(['handoff', 'pkg/b/.claude/skills/handoff/SKILL.md']);
    expect(out.handoff).toMatchObject({ file: '.claude/skills/handoff/SKILL.md' });
  });

  it('writes only plain data: it survives JSON as it is', () => {
    const out = verdictsOutput(
      run([compared('a'), measured('b'), { kind: 'not-run', file: 'c', skill: 'c' }]),
    );
    expect(JSON.parse(JSON.stringify(out))).toEqual(out);
  });

  it('a skill named after an Object.prototype key (constructor) keeps its name as its key', () => {
    const out = verdictsOutput(run([measured('constructor'), measured('tostring')]));
    expect(Object.keys(out)).toEqual(['constructor', 'tostring']);
  });
});
