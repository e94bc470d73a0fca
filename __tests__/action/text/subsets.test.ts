import { describe, expect, it } from 'vitest';
import type { ActionRun, MeasuredSkill } from '../../../src/action/results/results.js';
import { renderComment } from '../../../src/action/text/comment.js';
import { renderSummary } from '../../../src/action/text/summary.js';
import { compareReport } from '../../../src/compare/compare.js';
import { expectGolden } from '../../fakes/golden.js';
import {
  FIXTURE_BASELINE_DESCRIPTION,
  FIXTURE_BASELINE_QUERIES,
  FIXTURE_QUERIES,
  fixtureMeasurement,
  type QuerySpec,
  reportFixture,
} from '../../fakes/report-fixture.js';

/**
 * The comment's split lines: a skill whose eval set marks a prompt needs_context and holds out
 * queries, measured paired (compared per subset) and on its own (rates, intervals, pass counts).
 * `UPDATE_GOLDEN=1 npx vitest run __tests__/action/subsets.test.ts` rewrites the golden file.
 */

/** q2 presupposes a session; q3, q4 (positives) and q5, q7, q8 (negatives) are held out. */
function annotate(queries: readonly QuerySpec[]): QuerySpec[] {
  const extra: Record<number, Record<string, unknown>> = {
    1: { needs_context: true },
    2: { split: 'holdout' },
    3: { split: 'holdout' },
    4: { split: 'holdout' },
    6: { split: 'holdout' },
    7: { split: 'holdout' },
  };
  return queries.map((q, i) => ({ ...q, extra: { ...(q.extra ?? {}), ...(extra[i] ?? {}) } }));
}

function run(): ActionRun {
  const paired = reportFixture({
    skill: 'pdf-tables',
    candidate: fixtureMeasurement(annotate(FIXTURE_QUERIES)),
    baseline: fixtureMeasurement(annotate(FIXTURE_BASELINE_QUERIES), {
      description: FIXTURE_BASELINE_DESCRIPTION,
    }),
  });
  const fresh = reportFixture({
    skill: 'release-notes',
    candidate: fixtureMeasurement(annotate(FIXTURE_QUERIES)),
  });
  const skill = (over: Partial<MeasuredSkill> & Pick<MeasuredSkill, 'skill' | 'report'>): MeasuredSkill => ({
    kind: 'measured',
    file: `skills/${over.skill}/SKILL.md`,
    descriptionLine: 3,
    change: 'modified',
    reportPath: `/home/runner/work/r/r/skilltrigger-results/${over.skill}.json`,
    markdownPath: `/home/runner/work/r/r/skilltrigger-results/${over.skill}.md`,
    warnings: [],
    ...over,
  });
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
    settings: { runs: 2, model: 'claude-sonnet-4-5', baseline: 'measure', failOnRegression: true },
    cliVersion: '2.1.328',
    skills: [
      skill({
        skill: 'pdf-tables',
        report: paired,
        comparison: compareReport(paired, { names: { base: 'baseline', cand: 'this PR' } }),
        baseline: { kind: 'paired', why: 'no baseline is cached for pdf-tables' },
      }),
      skill({
        skill: 'release-notes',
        change: 'added',
        report: fresh,
        baseline: { kind: 'none', why: 'a new skill: the base branch has no SKILL.md for it' },
      }),
    ],
  };
}

describe('the Action comment with annotated prompts and a holdout', () => {
  it('matches its golden file', () => {
    expectGolden(import.meta.url, 'comment-subsets.golden.md', renderComment(run(), '0.1.0'));
  });

  it('shows, without a baseline, the positives without the prompt that presupposes a session and each split', () => {
    const lines = renderComment(run(), '0.1.0').split('\n');
    // The new skill comes second; the paired one's rows, first, have the same titles.
    const row = (title: string) => lines.filter((l) => l.startsWith(`| ${title} |`)).at(-1);
    // q2 (1/2) is left out of 6/7: 5/5.
    expect(row('Positives triggered, without the 1 that presupposes a session')).toBe(
      '| Positives triggered, without the 1 that presupposes a session | 5/5 (100%) |',
    );
    // Train positives q1, q2 (2/2, 1/2): 3/4; holdout positives q3, q4 (1/1 after a timeout, 2/2): 3/3.
    expect(row('Train: positives triggered')).toBe(
      '| Train: positives triggered | 3/4 (75%) · 95% 30–95% · 1/2 pass |',
    );
    expect(row('Holdout: positives triggered')).toBe(
      '| Holdout: positives triggered | 3/3 (100%) · 95% 44–100% · 2/2 pass |',
    );
    expect(row('Holdout: negatives fired')).toBe(
      '| Holdout: negatives fired | 1/6 (17%) · 95% 3–56% · 2/3 pass |',
    );
  });

  it('compares each subset in a paired measurement, the change with its 95% interval', () => {
    const lines = renderComment(run(), '0.1.0').split('\n');
    const row = lines.find((l) => l.startsWith('| Holdout: positives triggered | 3/4'));
    expect(row).toBe(
      '| Holdout: positives triggered | 3/4 (75%) · 1/2 pass | 3/3 (100%) · 2/2 pass | +25 pp (95% −35 pp to +70 pp) | noise |',
    );
  });

  it('shows the same lines in the job summary', () => {
    const summary = renderSummary(run(), '0.1.0');
    expect(summary).toContain('| Train: positives triggered | 3/4 (75%) · 95% 30–95% · 1/2 pass |');
    expect(summary).toContain('| Positives triggered, without the 1 that presupposes a session |');
  });
});
