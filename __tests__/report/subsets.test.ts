import { describe, expect, it } from 'vitest';
import { splitLines } from '../../src/compare/subsets-text.js';
import { parseEvalSet } from '../../src/inputs/eval-set.js';
import { NO_USAGE, type Outcome } from '../../src/outcome.js';
import { buildReport } from '../../src/report/build/build.js';
import { headline } from '../../src/report/headline.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { REPORT_SCHEMA_VERSION, reportSchema } from '../../src/schemas/report.js';
import type { RunRecord } from '../../src/verdict/rules.js';
import { expectGolden } from '../fakes/golden.js';

const run = (kind: 'T' | 'N' | 'L'): RunRecord => {
  const outcome: Outcome =
    kind === 'T' ? { kind: 'triggered' } : kind === 'N' ? { kind: 'not-triggered' } : { kind: 'timeout' };
  return { outcome, model: 'claude-sonnet-4-5-20250929', durationMs: 3000, usage: NO_USAGE };
};

/**
 * 10 positives and 10 negatives at 2 runs. Three positives presuppose a session (p8–p10, 3/6 hits),
 * the other seven trigger 11/14: "positives triggered 14/20 · 11/14 without the 3". Four of each
 * class are held out (p10 is both held out and marked).
 */
const ENTRIES: [id: string, should: boolean, runs: string, extra: Record<string, unknown>][] = [
  ['p1', true, 'TT', {}],
  ['p2', true, 'TT', {}],
  ['p3', true, 'TT', {}],
  ['p4', true, 'TT', { split: 'holdout' }],
  ['p5', true, 'TN', {}],
  ['p6', true, 'TN', { split: 'holdout' }],
  ['p7', true, 'TN', { split: 'holdout' }],
  ['p8', true, 'TN', { needs_context: true }],
  ['p9', true, 'TT', { needs_context: true }],
  ['p10', true, 'NN', { needs_context: true, split: 'holdout' }],
  ['n1', false, 'TN', {}],
  ['n2', false, 'NN', {}],
  ['n3', false, 'NN', {}],
  ['n4', false, 'NN', {}],
  ['n5', false, 'NN', {}],
  ['n6', false, 'NN', {}],
  ['n7', false, 'NN', { split: 'holdout' }],
  ['n8', false, 'NN', { split: 'holdout' }],
  ['n9', false, 'NL', { split: 'holdout' }],
  ['n10', false, 'TT', { split: 'holdout' }],
];

function annotatedReport(annotated = true) {
  const text = JSON.stringify(
    ENTRIES.map(([id, should, , extra]) => ({
      id,
      query: `prompt ${id}: ${should ? 'write the release notes' : 'fix the build'}`,
      should_trigger: should,
      ...(annotated ? extra : {}),
    })),
  );
  const set = parseEvalSet(text, 'evals.json', 'release-notes');
  const records = ENTRIES.map(([, , runs]) => [...runs].map((k) => run(k as 'T' | 'N' | 'L')));
  return buildReport({
    toolVersion: '0.1.0',
    createdAt: new Date('2026-01-02T03:04:05.000Z'),
    skill: 'release-notes',
    simulated: false,
    requestedModel: 'claude-sonnet-4-5',
    items: set.items,
    rules: { runsPerQuery: 2, triggerThreshold: 0.5, noVerdictShare: 0.1 },
    timeoutSeconds: 30,
    stub: 'command',
    maxRetries: 2,
    conflictAllowed: false,
    aborted: false,
    interrupted: false,
    environment: { memoryFiles: { project: 0, user: 0 }, hooks: 0 },
    candidate: { description: 'Writes release notes.', overridden: false, records, stubNames: [] },
  });
}

describe('a report with annotated prompts and a holdout', () => {
  it('validates, and matches its JSON golden file', () => {
    const report = annotatedReport();
    expect(reportSchema.parse(JSON.parse(JSON.stringify(report)))).toEqual(report);
    // The schema version is left out of the golden file: it is bumped for a whole landing at once.
    expect(report.schemaVersion).toBe(REPORT_SCHEMA_VERSION);
    const { schemaVersion: _version, ...rest } = report;
    expectGolden(import.meta.url, 'report-annotated.golden.json', `${JSON.stringify(rest, null, 2)}\n`);
  });

  it('shows the positives twice in the headline, and the verdict and pass/fail as without annotations', () => {
    const report = annotatedReport();
    expect(headline(report.candidate)).toBe(
      'positives triggered 14/20 · 11/14 without the 3 that presuppose a session · negatives fired 3/19 · 1 timeout, 0 errors counted apart',
    );
    expect(report.verdict).toBe('ok');
    expect(report.candidate.totals.passed).toBe(13);
    // The same runs without any annotation: the same pass/fail per query, totals and verdict.
    const plain = annotatedReport(false);
    expect(plain.candidate.subsets).toBeUndefined();
    expect(plain.candidate.totals).toEqual(report.candidate.totals);
    expect(plain.candidate.queries.map((q) => q.pass)).toEqual(report.candidate.queries.map((q) => q.pass));
    expect(plain.verdict).toBe(report.verdict);
  });

  it('reports train and holdout apart, with rates, 95% intervals and pass counts', () => {
    expect(splitLines(annotatedReport().candidate)).toEqual([
      'train (12 queries): positives triggered 10/12 (83%, 95% interval 55–95%), 4/6 pass · negatives fired 1/12 (8%, 95% interval 1–35%), 5/6 pass',
      'holdout (8 queries): positives triggered 4/8 (50%, 95% interval 22–78%), 1/4 pass · negatives fired 2/7 (29%, 95% interval 8–64%), 3/4 pass',
    ]);
  });

  it('matches its Markdown golden file', () => {
    expectGolden(import.meta.url, 'report-annotated.golden.md', renderMarkdown(annotatedReport()));
  });

  it('says nothing of subsets for a set without annotations', () => {
    const report = annotatedReport(false);
    const plain = report.candidate;
    expect(headline(plain)).toBe(
      'positives triggered 14/20 · negatives fired 3/19 · 1 timeout, 0 errors counted apart',
    );
    expect(splitLines(plain)).toEqual([]);
    const md = renderMarkdown(report);
    expect(md).not.toContain('Train and holdout');
    expect(md).not.toContain('presuppose');
  });
});
