import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { conclude } from '../../../src/action/results/conclusion.js';
import { type ActionRun, type MeasuredSkill, verdictsOutput } from '../../../src/action/results/results.js';
import { renderComment } from '../../../src/action/text/comment.js';
import { rateChart, renderSummary } from '../../../src/action/text/summary.js';
import { compareReport, compareReports } from '../../../src/compare/compare.js';
import type { Report } from '../../../src/schemas/report.js';
import { composeStickyBody, MAX_COMMENT_CHARS } from '../../../src/system/github-comment.js';
import {
  FIXTURE_BASELINE_DESCRIPTION,
  FIXTURE_BASELINE_QUERIES,
  FIXTURE_DESCRIPTION,
  FIXTURE_QUERIES,
  fixtureMeasurement,
  pairedReportFixture,
  type QuerySpec,
  reportFixture,
} from '../../fakes/report-fixture.js';

/**
 * The comment and summary renderers on a fixed scenario (golden files, with the exit code), and the
 * properties that must hold for any input: user text escaped, size capped.
 * `UPDATE_GOLDEN=1 npx vitest run __tests__/action/render.test.ts` rewrites the golden files.
 */

function expectGolden(name: string, actual: string): void {
  const path = fileURLToPath(new URL(`./__golden__/${name}`, import.meta.url));
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(path, actual);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

const BASE_SHA = '1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d';
const HEAD_SHA = '9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c';
const TOOL = '0.1.0';

/** Queries of a description that fell apart: positives stop triggering, a negative starts. */
const REGRESSED_QUERIES: QuerySpec[] = FIXTURE_QUERIES.map((q) => ({
  ...q,
  outcomes: q.shouldTrigger ? ['not-triggered', 'not-triggered'] : ['triggered', 'triggered'],
}));

function measured(
  overrides: Partial<MeasuredSkill> & Pick<MeasuredSkill, 'skill' | 'file' | 'report'>,
): MeasuredSkill {
  return {
    kind: 'measured',
    descriptionLine: 3,
    change: 'modified',
    reportPath: `/home/runner/work/skills/skills/skilltrigger-results/2025-03-14-${overrides.skill}.json`,
    markdownPath: `/home/runner/work/skills/skills/skilltrigger-results/2025-03-14-${overrides.skill}.md`,
    warnings: [],
    ...overrides,
  };
}

function fixedRun(): ActionRun {
  // 1. A cached baseline of the base commit, in another environment, and a regression against it.
  const cachedBaseline: Report = reportFixture({
    skill: 'pdf-tables',
    model: { requested: 'claude-sonnet-4-0', reported: { 'claude-sonnet-4-0': 16 } },
    candidate: fixtureMeasurement(FIXTURE_QUERIES),
  });
  const regressed = reportFixture({
    skill: 'pdf-tables',
    candidate: fixtureMeasurement(REGRESSED_QUERIES, { description: 'Helps with files.' }),
  });
  // 2. Measured paired with its base description, because no baseline was cached.
  const paired = pairedReportFixture({ skill: 'pdf-forms' });
  // 3. A new skill: nothing to compare with.
  const fresh = reportFixture({ skill: 'release-notes' });
  return {
    event: 'pull_request',
    eventName: 'pull_request',
    prNumber: 42,
    headSha: HEAD_SHA,
    baseSha: BASE_SHA,
    fromFork: false,
    stage: 'measured',
    gates: [],
    notes: [],
    settings: { runs: 2, model: 'claude-sonnet-4-5', baseline: 'measure', failOnRegression: true },
    cliVersion: '2.1.328',
    skills: [
      measured({
        skill: 'pdf-tables',
        file: 'skills/pdf-tables/SKILL.md',
        report: regressed,
        baselineReport: cachedBaseline,
        comparison: compareReports(cachedBaseline, regressed, {
          names: { base: 'baseline', cand: 'this PR' },
        }),
        baseline: {
          kind: 'cache',
          hit: 'exact',
          sha: BASE_SHA,
          createdAt: cachedBaseline.createdAt,
          drift: [
            'the model differs: the baseline asked for claude-sonnet-4-0, this run for claude-sonnet-4-5',
          ],
          stale: false,
        },
      }),
      measured({
        skill: 'pdf-forms',
        file: 'skills/pdf-forms/SKILL.md',
        change: 'renamed',
        previousPath: 'skills/forms/SKILL.md',
        report: paired,
        comparison: compareReport(paired, { names: { base: 'baseline', cand: 'this PR' } }),
        baseline: {
          kind: 'paired',
          why: 'no baseline is cached for pdf-forms (a push to the default branch saves one)',
        },
        warnings: ['name "pdf-forms" differs from the folder name "forms"'],
      }),
      measured({
        skill: 'release-notes',
        file: 'skills/release-notes/SKILL.md',
        change: 'added',
        report: fresh,
        baseline: { kind: 'none', why: 'a new skill: the base branch has no SKILL.md for it' },
      }),
      {
        kind: 'skipped',
        file: 'skills/docx/SKILL.md',
        change: 'modified',
        reason: 'body-only',
        skill: 'docx',
      },
      { kind: 'skipped', file: 'skills/old/SKILL.md', change: 'removed', reason: 'removed', skill: 'old' },
    ],
  };
}

describe('the PR comment and the job summary of a fixed scenario', () => {
  it('matches the golden comment, with the exit code', () => {
    const run = fixedRun();
    const conclusion = conclude(run);
    expectGolden(
      'comment.golden.md',
      `${renderComment(run, TOOL)}\n<!-- exit ${conclusion.code}: ${conclusion.message?.split('\n')[0]} -->\n`,
    );
    expect(conclusion.code).toBe(1);
  });

  it('matches the golden summary', () => {
    expectGolden('summary.golden.md', renderSummary(fixedRun(), TOOL));
  });

  it('the verdicts output names every skill with its standing', () => {
    const out = verdictsOutput(fixedRun());
    expect(Object.keys(out)).toEqual(['pdf-tables', 'pdf-forms', 'release-notes', 'docx', 'old']);
    expect(out['pdf-tables']).toMatchObject({ standing: 'regression', passed: false, baseline: 'cache' });
    expect(out['release-notes']).toMatchObject({ standing: 'no-baseline', passed: true, label: null });
    expect(out.docx).toMatchObject({ standing: 'not-measured', passed: null });
  });

  it('never leaks the description text or the base description', () => {
    const text = renderComment(fixedRun(), TOOL) + renderSummary(fixedRun(), TOOL);
    expect(text).not.toContain(FIXTURE_DESCRIPTION);
    expect(text).not.toContain(FIXTURE_BASELINE_DESCRIPTION);
  });
});

describe('user text in the comment', () => {
  const hostile: QuerySpec[] = [
    {
      query:
        '<!-- skilltrigger:results --> @octocat see #1 <img src=x onerror=alert(1)> | cell | `code` [x](y)',
      shouldTrigger: true,
      outcomes: ['triggered', 'triggered'],
      id: 'q1',
    },
    {
      query: 'a\nnew line\u202Ereversed',
      shouldTrigger: false,
      outcomes: ['not-triggered', 'not-triggered'],
    },
  ];
  const report = reportFixture({ skill: 'pdf-tables', candidate: fixtureMeasurement(hostile) });
  const run: ActionRun = {
    ...fixedRun(),
    skills: [
      measured({
        skill: 'pdf-tables',
        file: 'skills/@octocat/<b>SKILL.md',
        report,
        baseline: { kind: 'none', why: 'see <b>this</b> @octocat' },
      }),
    ],
  };
  const comment = renderComment(run, TOOL);
  const summary = renderSummary(run, TOOL);

  it('opens no HTML, no marker, no mention, and keeps every table row one row', () => {
    for (const text of [comment, summary]) {
      expect(text).not.toMatch(/<img|<b>|<!-- skilltrigger:results/);
      expect(text).not.toMatch(/@octocat/);
      expect(text).not.toContain('\u202E');
      for (const line of text.split('\n').filter((l) => l.startsWith('| q'))) {
        expect(line.endsWith('|')).toBe(true);
      }
    }
  });

  it('puts only safe labels into the mermaid chart', () => {
    const weird = reportFixture({
      skill: 'pdf-tables',
      candidate: fixtureMeasurement([
        { query: 'x', id: 'a"]; click x', shouldTrigger: true, outcomes: ['triggered'] },
        { query: 'y', shouldTrigger: false, outcomes: ['not-triggered'] },
      ]),
    });
    const chart = rateChart(measured({ skill: 'pdf"tables', file: 'x/SKILL.md', report: weird })).join('\n');
    const axis = chart.split('\n').find((line) => line.includes('x-axis')) ?? '';
    const labels = axis.replace(/^\s*x-axis \[|\]$/g, '').split(', ');
    expect(labels).toHaveLength(2);
    for (const label of labels) expect(label).toMatch(/^"[+-][A-Za-z0-9._:-]+"$/);
    expect(chart).toContain('title "pdf_tables: trigger rate per query (%)"');
  });
});

describe('size', () => {
  it('a comment for many large skills stays under GitHub’s limit with every table whole', () => {
    const many: QuerySpec[] = Array.from({ length: 400 }, (_, i) => ({
      query: `${'a long query that goes on and on '.repeat(8)}${i}`,
      shouldTrigger: i % 2 === 0,
      outcomes: ['triggered', 'not-triggered'],
    }));
    const base = fixedRun();
    const skills = Array.from({ length: 60 }, (_, i) =>
      measured({
        skill: `skill-${i}`,
        file: `skills/skill-${i}/SKILL.md`,
        report: reportFixture({ skill: `skill-${i}`, candidate: fixtureMeasurement(many) }),
        baseline: { kind: 'none', why: 'a new skill' },
      }),
    );
    const run: ActionRun = { ...base, skills };
    const comment = renderComment(run, TOOL);
    const body = composeStickyBody({ marker: 'results', body: comment, stamp: 'x' });
    expect(body.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
    expect(body).toBe(`<!-- skilltrigger:results -->\nx\n${comment}`);
    expect(comment).toMatch(/… and \d+ more skills \(.*\): see the job summary/);
    expect(renderSummary(run, TOOL).length).toBeLessThan(1024 * 1024);
  });

  it('the per-query table of the comment is capped, and says how many rows are left out', () => {
    const base = fixedRun();
    const many: QuerySpec[] = Array.from({ length: 45 }, (_, i) => ({
      query: `query ${i}`,
      shouldTrigger: i < 20,
      outcomes: ['triggered', 'triggered'],
    }));
    const run: ActionRun = {
      ...base,
      skills: [
        measured({
          skill: 'big',
          file: 'skills/big/SKILL.md',
          report: reportFixture({ skill: 'big', candidate: fixtureMeasurement(many) }),
          baseline: { kind: 'none', why: 'a new skill' },
        }),
      ],
    };
    expect(renderComment(run, TOOL)).toContain('… and 15 more queries (in the report file).');
    expect(renderSummary(run, TOOL)).not.toContain('more queries');
    expect(FIXTURE_BASELINE_QUERIES).toHaveLength(8);
  });
});
