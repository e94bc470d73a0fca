import { describe, expect, it } from 'vitest';
import { lostCount, queriesSection } from '../../src/report/markdown-queries.js';
import { sidesOf } from '../../src/report/sides.js';
import type { Report } from '../../src/schemas/report.js';
import { buildMeasurement, buildReport, type QuerySpec, queryResult } from '../fakes/measurement-builder.js';

// The Markdown "Queries" table, single and paired, on hand-built reports.
const section = (report: Report) => queriesSection(report, sidesOf(report));
/** The table's lines: after the heading, the blank line, the legend and its blank line. */
const table = (report: Report) => section(report).slice(4);

const SPECS: QuerySpec[] = [
  { id: 'ship', query: 'write the release notes', shouldTrigger: true, hits: 2, runs: 3 },
  { id: 'lost', query: 'fix the build', shouldTrigger: false, hits: 0, runs: 0, lost: 2 },
];

describe('lostCount', () => {
  it('timeouts and errors together', () => {
    expect(lostCount({ ...queryResult(SPECS[0] as QuerySpec), timeouts: 2, errors: 3 })).toBe(5);
  });
});

describe('a single report', () => {
  const report = buildReport(buildMeasurement(SPECS));

  it('opens with the heading and the legend, naming the threshold', () => {
    expect(section(report).slice(0, 4)).toEqual([
      '## Queries',
      '',
      'Outcomes of each run, in the order they ran: ● triggered · ○ not triggered · ◌ timeout · ✕ error. A positive passes above a trigger rate of 0.5, a negative below it; timeouts and errors are neither hits nor misses.',
      '',
    ]);
  });

  it('a row per query: outcomes as symbols, hits/runs with the lost, the rate, pass or a bold fail', () => {
    expect(table(report)).toEqual([
      '| Id | Query | Should trigger | Outcomes | Hits/runs | Rate | Pass |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      '| ship | write the release notes | yes | ●●○ | 2/3 | 67% | pass |',
      '| lost | fix the build | no | ◌◌ | 0/0, 2 lost | — | — |',
    ]);
    const failing = buildReport(buildMeasurement([{ query: 'q', shouldTrigger: true, hits: 0, runs: 2 }]));
    expect(table(failing)[2]).toBe('| q1 | q | yes | ○○ | 0/2 | 0% | **fail** |');
  });

  it('ids and queries are escaped for a table cell', () => {
    const hostile = buildReport(
      buildMeasurement([
        { id: 'a|b', query: 'pipe | and <b>tag</b>\nnew line', shouldTrigger: true, hits: 1, runs: 1 },
      ]),
    );
    const row = table(hostile)[2] ?? '';
    expect(row.startsWith('| a\\|b | pipe \\| and ')).toBe(true);
    expect(row).not.toContain('<b>');
    expect(row).not.toContain('\n');
    expect(row.split(' | ')).toHaveLength(7);
  });

  it('a Notes column only when some query has extra fields, each as key: value, escaped', () => {
    const noted = buildReport(
      buildMeasurement([
        {
          query: 'a',
          shouldTrigger: true,
          hits: 1,
          runs: 1,
          extra: { split: 'holdout', needs_context: true },
        },
        { query: 'b', shouldTrigger: false, hits: 0, runs: 1 },
        { query: 'c', shouldTrigger: false, hits: 0, runs: 1, extra: { note: 'x | y', tags: ['a', 1] } },
      ]),
    );
    const lines = table(noted);
    expect(lines[0]).toBe('| Id | Query | Should trigger | Outcomes | Hits/runs | Rate | Pass | Notes |');
    expect(lines[2]).toMatch(/ \| split: holdout; needs\\_context: true \|$/);
    expect(lines[3]).toMatch(/ \| pass \| {2}\|$/);
    expect(lines[4]).toMatch(/ \| note: x \\\| y; tags: \\\["a",1\\\] \|$/);
  });
});

describe('a paired report', () => {
  const baseline = buildMeasurement([
    { id: 'ship', query: 'write the release notes', shouldTrigger: true, hits: 1, runs: 2 },
    { id: 'gone', query: 'dropped from the set', shouldTrigger: false, hits: 0, runs: 2 },
  ]);
  const candidate = buildMeasurement([
    { id: 'new', query: 'added to the set', shouldTrigger: true, hits: 2, runs: 2 },
    { id: 'ship', query: 'write the release notes', shouldTrigger: true, hits: 1, runs: 1, lost: 1 },
  ]);
  const report = buildReport(candidate, { baseline });

  it('both sides by id, the candidate’s order first, then what only the baseline holds; — for a missing side', () => {
    expect(table(report)).toEqual([
      '| Id | Query | Should trigger | Baseline outcomes | Baseline hits/runs | Baseline pass | Candidate outcomes | Candidate hits/runs | Candidate pass |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      '| new | added to the set | yes | — | — | — | ●● | 2/2 (100%) | pass |',
      '| ship | write the release notes | yes | ●○ | 1/2 (50%) | **fail** | ●◌ | 1/1 (100%), 1 lost | pass |',
      '| gone | dropped from the set | no | ○○ | 0/2 (0%) | pass | — | — | — |',
    ]);
  });

  it('a side with no measured run shows hits/runs without a rate', () => {
    const lost = buildMeasurement([
      { id: 'ship', query: 'q', shouldTrigger: true, hits: 0, runs: 0, lost: 2 },
    ]);
    expect(table(buildReport(lost, { baseline: lost }))[2]).toBe(
      '| ship | q | yes | ◌◌ | 0/0, 2 lost | — | ◌◌ | 0/0, 2 lost | — |',
    );
  });

  it('notes come from the candidate’s entry, or the baseline’s where only it holds the query', () => {
    const b = buildMeasurement([
      { id: 'x', query: 'q', shouldTrigger: true, hits: 1, runs: 1, extra: { note: 'old' } },
      { id: 'y', query: 'r', shouldTrigger: true, hits: 1, runs: 1, extra: { note: 'only here' } },
    ]);
    const c = buildMeasurement([
      { id: 'x', query: 'q', shouldTrigger: true, hits: 1, runs: 1, extra: { note: 'new' } },
    ]);
    const lines = table(buildReport(c, { baseline: b }));
    expect(lines[0]?.endsWith(' | Notes |')).toBe(true);
    expect(lines[2]?.endsWith(' | note: new |')).toBe(true);
    expect(lines[3]?.endsWith(' | note: only here |')).toBe(true);
  });
});
