import { describe, expect, it } from 'vitest';
import { runLinks } from '../../../src/action/pages-artifact.js';
import type { ActionRun, MeasuredSkill, SkillResult } from '../../../src/action/results/results.js';
import { renderComment } from '../../../src/action/text/comment.js';
import { evalFindingsLine, renderSummary } from '../../../src/action/text/summary.js';
import { countLine, linksLine, nextLine } from '../../../src/action/text/what-moved.js';
import { compareReport } from '../../../src/compare/compare.js';
import type { Report } from '../../../src/schemas/report.js';
import {
  FIXTURE_BASELINE_DESCRIPTION,
  fixtureMeasurement,
  type QuerySpec,
  reportFixture,
} from '../../fakes/report-fixture.js';

/**
 * What the comment says moved: the count line across skills, the moved queries first (marked, the
 * exact test's label kept), the subsets folded unless train and holdout disagree, the links to the
 * run, its summary and the pages, and the next step.
 */

const q = (id: string, shouldTrigger: boolean, outcomes: string[], split?: string): QuerySpec => ({
  id,
  query: `${id}: a query`,
  shouldTrigger,
  outcomes,
  ...(split === undefined ? {} : { extra: { split } }),
});
const HIT = ['triggered', 'triggered'];
const MISS = ['not-triggered', 'not-triggered'];
const HALF = ['triggered', 'not-triggered'];

function paired(base: QuerySpec[], cand: QuerySpec[]): Report {
  return reportFixture({
    skill: 'alpha',
    candidate: fixtureMeasurement(cand),
    baseline: fixtureMeasurement(base, { description: FIXTURE_BASELINE_DESCRIPTION }),
  });
}

function measured(report: Report, over: Partial<MeasuredSkill> = {}): MeasuredSkill {
  return {
    kind: 'measured',
    skill: report.skill,
    file: `skills/${report.skill}/SKILL.md`,
    descriptionLine: 3,
    change: 'modified',
    report,
    reportPath: `/w/out/${report.skill}.json`,
    markdownPath: `/w/out/${report.skill}.md`,
    warnings: [],
    comparison: compareReport(report, { names: { base: 'baseline', cand: 'this PR' } }),
    baseline: { kind: 'paired', why: 'no baseline is cached' },
    ...over,
  };
}

function run(skills: SkillResult[], over: Partial<ActionRun> = {}): ActionRun {
  return {
    event: 'pull_request',
    eventName: 'pull_request',
    prNumber: 7,
    headSha: '9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c',
    baseSha: '1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d',
    fromFork: false,
    stage: 'measured',
    gates: [],
    notes: [],
    settings: { runs: 2, baseline: 'cache', failOnRegression: true },
    skills,
    ...over,
  };
}

/** q1 falls 2/2 → 0/2, n1 rises 0/2 → 2/2 (both noise at 2 runs), q2 gains a hit, the rest stay. */
const BASE = [
  q('q1', true, HIT),
  q('q2', true, HALF),
  q('q3', true, HIT),
  q('n1', false, MISS),
  q('n2', false, MISS),
];
const CAND = [
  q('q1', true, MISS),
  q('q2', true, HIT),
  q('q3', true, HIT),
  q('n1', false, HIT),
  q('n2', false, MISS),
];

describe('the count line', () => {
  it('always counts regressions, improvements, noise and not measured, then the others and the listing changes', () => {
    const noisy = measured(paired(BASE, CAND));
    const skills: SkillResult[] = [
      noisy,
      { kind: 'skipped', file: 'skills/b/SKILL.md', change: 'modified', reason: 'body-only', skill: 'b' },
      { kind: 'skipped', file: 'skills/c/SKILL.md', change: 'removed', reason: 'removed', skill: 'c' },
      { kind: 'invalid', file: 'skills/d/SKILL.md', problems: ['skills/d/evals.json: not JSON'] },
    ];
    // A body-only edit changes nothing the model reads: 3 listing changes of 4 files.
    expect(countLine(run(skills))).toBe(
      '0 regressions · 0 improvements · 1 noise · 2 not measured · **1 input error** · 3 listing changes',
    );
    expect(renderComment(run(skills), '0.1.0')).toContain(
      ': 0 regressions · 0 improvements · 1 noise · 2 not measured',
    );
  });
});

describe('the per-query table', () => {
  const comment = renderComment(run([measured(paired(BASE, CAND))]), '0.1.0');
  const lines = comment.split('\n');

  it('lists the moved queries first, the bad way first, each marked, and keeps the exact test’s label', () => {
    expect(comment).toContain('3 of 5 queries moved');
    const moved = lines.filter((l) => /^\| \**[▲▼]/.test(l));
    expect(moved).toEqual([
      '| **▼ −100 pp** | q1 | q1: a query | yes | ●● 2/2 | ○○ 0/2 | noise |',
      '| **▲ +100 pp** | n1 | n1: a query | no | ○○ 0/2 | ●● 2/2 | noise |',
      '| ▲ +50 pp | q2 | q2: a query | yes | ●○ 1/2 | ●● 2/2 | noise |',
    ]);
  });

  it('folds the unmoved queries after them', () => {
    const fold = lines.indexOf('<summary>The other 2 queries, unmoved</summary>');
    expect(fold).toBeGreaterThan(lines.findIndex((l) => l.startsWith('| ▲ +50 pp')));
    expect(lines[fold - 1]).toBe('<details>');
    expect(lines.slice(fold).some((l) => l.startsWith('| q3 |'))).toBe(true);
    expect(lines.slice(fold).some((l) => l.startsWith('| n2 |'))).toBe(true);
  });

  it('says so when nothing moved, everything folded', () => {
    const still = renderComment(run([measured(paired(BASE, BASE))]), '0.1.0');
    expect(still).toContain('<summary>Per query (5 queries, none moved;');
    expect(still).not.toMatch(/queries moved/);
  });
});

describe('the train and holdout rows', () => {
  const SPLIT_BASE = [
    q('t1', true, HIT, 'train'),
    q('t2', true, HIT, 'train'),
    q('h1', true, HIT, 'holdout'),
    q('h2', true, HIT, 'holdout'),
    q('n1', false, MISS, 'train'),
    q('n2', false, MISS, 'holdout'),
  ];

  it('are folded under the table when train and holdout agree', () => {
    const comment = renderComment(run([measured(paired(SPLIT_BASE, SPLIT_BASE))]), '0.1.0');
    expect(comment).toContain('<summary>Subsets: train, holdout (train and holdout agree)</summary>');
    expect(comment).not.toContain('disagree');
  });

  it('stand in the table, with a warning, when they disagree', () => {
    const skill = measured(paired(SPLIT_BASE, SPLIT_BASE));
    const c = skill.comparison;
    if (!c?.subsets) throw new Error('expected subsets');
    // The holdout's positives regressed while the train's did not.
    const subsets = c.subsets.map((s) =>
      s.name === 'holdout' ? { ...s, positives: { ...s.positives, label: 'regression' as const } } : s,
    );
    const comment = renderComment(run([{ ...skill, comparison: { ...c, subsets } }]), '0.1.0');
    const lines = comment.split('\n');
    const table = lines.findIndex((l) => l.startsWith('| Positives triggered (should load) |'));
    const holdout = lines.findIndex((l) => l.startsWith('| Holdout: positives triggered |'));
    expect(holdout).toBe(table + 4);
    expect(comment).toContain('⚠️ Train and holdout disagree on the positives');
    expect(comment).not.toContain('<summary>Subsets:');
  });
});

describe('the links and the next line', () => {
  it('link the workflow run, its summary and the pages’ artifact, from the runner’s variables', () => {
    const links = runLinks(
      { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'octo-org/skills', GITHUB_RUN_ID: '42' },
      { upload: { ok: true, id: 9, size: 100 }, name: 'skilltrigger-pages-job' },
    );
    expect(links).toEqual({
      run: 'https://github.com/octo-org/skills/actions/runs/42',
      artifact: {
        name: 'skilltrigger-pages-job',
        url: 'https://github.com/octo-org/skills/actions/runs/42/artifacts/9',
      },
    });
    expect(linksLine(run([], links === undefined ? {} : { links }))).toBe(
      'More: [workflow run](https://github.com/octo-org/skills/actions/runs/42) · [job summary](https://github.com/octo-org/skills/actions/runs/42#summary) · HTML pages: [skilltrigger-pages-job](https://github.com/octo-org/skills/actions/runs/42/artifacts/9)',
    );
  });

  it('leave out what they cannot build, and never put an odd URL in a link', () => {
    expect(runLinks({ GITHUB_REPOSITORY: 'octo-org/skills' }, undefined)).toBeUndefined();
    expect(runLinks({ GITHUB_REPOSITORY: 'a/b', GITHUB_RUN_ID: '1; rm' }, undefined)).toBeUndefined();
    expect(linksLine(run([], { links: { run: 'https://x.test/a)(javascript:alert(1)' } }))).toBe('');
    expect(linksLine(run([], { links: { artifact: { name: 'pages' } } }))).toBe(
      'More: HTML pages: the artifact pages',
    );
  });

  it('the next line names the regressed skill’s folder, escaped and outside any code span, and how to accept a change', () => {
    const good = measured(paired(BASE, BASE));
    const bad = measured(paired(BASE, CAND), { file: 'skills/my_skill/SKILL.md' });
    const regressed = {
      ...bad,
      comparison: bad.comparison && { ...bad.comparison, label: 'regression' as const },
    };
    const line = nextLine(
      run([good, regressed], {
        settings: { runs: 3, model: 'claude-haiku-4-5', baseline: 'cache', failOnRegression: true },
      }),
    );
    expect(line).toBe(
      '**Next:** reproduce a measurement locally with npx skilltrigger run --skill skills/my\\_skill --runs 3 --model claude-haiku-4-5 (the same for the other skills, each with its own folder). To accept a deliberate change (a skill narrowed on purpose), mark the queries it should no longer serve `should_trigger: false` in its eval set in this pull request: a query whose class changed is left out of the comparison, and the merge saves the new baseline.',
    );
    // Only the fixed words are in a code span.
    expect(line.match(/`[^`]*`/g)).toEqual(['`should_trigger: false`']);
  });

  it('no next line without a measured skill, and no acceptance advice on a push', () => {
    expect(nextLine(run([{ kind: 'not-run', file: 'skills/a/SKILL.md', skill: 'a' }]))).toBe('');
    const push = nextLine(run([measured(paired(BASE, BASE))], { event: 'push', eventName: 'push' }));
    expect(push).toMatch(
      /^\*\*Next:\*\* reproduce a measurement locally with npx skilltrigger run --skill skills\/alpha --runs 2\.$/,
    );
  });
});

describe('the eval-set findings line', () => {
  it('is one line of the job summary, by skill, its name escaped; none without findings', () => {
    const found = run([measured(paired(BASE, BASE))], {
      evalSetFindings: [
        { skill: 'alpha', codes: ['few-positives', 'no-holdout'] },
        { skill: 'be_ta', codes: ['presupposes-session'] },
      ],
    });
    const line =
      'Eval-set findings (each annotated on its eval set; `skilltrigger check` explains them): alpha: few-positives, no-holdout · be\\_ta: presupposes-session';
    expect(evalFindingsLine(found)).toBe(line);
    expect(renderSummary(found, '0.1.0').split('\n')).toContain(line);
    expect(renderComment(found, '0.1.0')).not.toContain('Eval-set findings');
    expect(evalFindingsLine(run([]))).toBe('');
  });
});
