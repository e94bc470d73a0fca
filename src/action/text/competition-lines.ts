import { escapeInline } from '../../escape.js';
import { markdownTable } from '../../format.js';
import { isCrossNegative } from '../../report/build/sibling-counts.js';
import { lostToSiblingsText } from '../../report/siblings.js';
import type { Measurement, QueryResult, Report } from '../../schemas/report.js';

/**
 * The PR comment's and the job summary's lines on a skill's competition (`competition: siblings`,
 * docs/matrix.md), pure: how many siblings every run had beside the stub, per side the positives lost
 * to siblings (with the top thieves by name) and, with `cross-negatives`, how often the siblings'
 * positives loaded this skill. Names are the skills' own `name`s; every string is escaped.
 */

function crossText(m: Measurement): string | undefined {
  const c = m.totals.siblings?.crossNegatives;
  if (c === undefined) return undefined;
  return `siblings’ positives that loaded this skill instead: ${c.fired}/${c.runs} runs (${c.queries - c.passed} of ${c.queries} ${c.queries === 1 ? 'query' : 'queries'} failed)`;
}

/** The lines, or none when the report was measured without siblings. */
export function competitionLines(
  report: Report,
  sides: readonly { label: string; m: Measurement | undefined }[],
): string[] {
  if (report.siblings === undefined) return [];
  const n = report.siblings.members.length;
  const lines = [
    `Competition: ${n} sibling ${n === 1 ? 'skill' : 'skills'} of this repository installed beside it in every run.`,
  ];
  for (const { label, m } of sides) {
    if (m === undefined) continue;
    const lost = lostToSiblingsText(m);
    if (lost !== undefined)
      lines.push(
        `- ${label}: lost to siblings: ${escapeInline(lost.replace(/^positives lost to siblings: /, 'positives '))}`,
      );
    const cross = crossText(m);
    if (cross !== undefined) lines.push(`- ${label}: ${escapeInline(cross)}`);
  }
  return lines;
}

/**
 * The job summary's matrix rows of a changed skill (`competition: siblings`): for its positives, its
 * negatives and, with `cross-negatives`, each sibling's positives measured here, how many measured
 * runs loaded this skill, each sibling, or nothing / another entry ("none/other"). Read from the
 * report's `hits` and `siblingHits` (a run that loaded the stub and a sibling is the stub's, as the
 * decision rule says). Empty without siblings. Names escaped for a table cell.
 */
export function routingRows(report: Report, skill: string, m: Measurement = report.candidate): string[] {
  if (report.siblings === undefined) return [];
  const names = report.siblings.members.map((s) => s.name);
  const row = (label: string, queries: readonly QueryResult[]): string[] => {
    const runs = queries.reduce((n, q) => n + q.runs, 0);
    const own = queries.reduce((n, q) => n + q.hits, 0);
    const per = names.map((name) => queries.reduce((n, q) => n + (q.siblingHits?.[name] ?? 0), 0));
    const other = runs - own - per.reduce((a, b) => a + b, 0);
    return [
      `${label} (${runs} ${runs === 1 ? 'run' : 'runs'})`,
      String(own),
      ...per.map(String),
      String(other),
    ];
  };
  const own = m.queries.filter((q) => !isCrossNegative(q));
  const rows = [
    row(
      'should load',
      own.filter((q) => q.shouldTrigger),
    ),
    row(
      'should not',
      own.filter((q) => !q.shouldTrigger),
    ),
  ];
  const froms = [...new Set(m.queries.filter(isCrossNegative).map((q) => String(q.extra.from)))].sort();
  for (const from of froms) {
    const queries = m.queries.filter((q) => isCrossNegative(q) && q.extra.from === from);
    rows.push(row(`${escapeInline(from)}’s positives`, queries));
  }
  return markdownTable(
    [
      `runs of ${escapeInline(skill)}’s queries`,
      escapeInline(skill),
      ...names.map(escapeInline),
      'none/other',
    ],
    rows,
  );
}
