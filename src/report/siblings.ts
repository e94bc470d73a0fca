import { escapeInline } from '../escape.js';
import type { Measurement, Report } from '../schemas/report.js';
import { topThieves } from './build/sibling-counts.js';

/**
 * The siblings' lines for people (`run --siblings`, docs/matrix.md): the "lost to siblings" line and
 * the report's Competition section, from the counts src/report/build/sibling-counts.ts attached.
 */

/** "positives lost to siblings: 4/30 runs (xlsx 3, pdf 1)", or undefined without siblings. */
export function lostToSiblingsText(measurement: Measurement): string | undefined {
  const s = measurement.totals.siblings;
  if (s === undefined) return undefined;
  const thieves = topThieves(s);
  const who = thieves.length === 0 ? '' : ` (${thieves.map(([name, n]) => `${name} ${n}`).join(', ')})`;
  const owners =
    s.ownedNegativeRuns > 0
      ? `; negatives that went to their owner: ${s.toOwner}/${s.ownedNegativeRuns} runs`
      : '';
  return `positives lost to siblings: ${s.lostPositives}/${s.positiveRuns} runs${who}${owners}`;
}

/**
 * The Markdown section of a report with siblings: who competed (names, listed-text hash prefix),
 * the "lost to siblings" line per side, and per query the runs each sibling took. Empty without.
 */
export function siblingsMarkdown(
  report: Report,
  sides: readonly { label?: string; m: Measurement }[],
): string[] {
  if (report.siblings === undefined) return [];
  const members = report.siblings.members
    .map((s) => `${escapeInline(s.name)} (SHA-256 ${s.sha256.slice(0, 12)}…)`)
    .join(', ');
  const lines = [
    '## Competition',
    '',
    `Every run had ${report.siblings.members.length} sibling ${report.siblings.members.length === 1 ? 'skill' : 'skills'} installed beside the stub: ${members || 'none'}.` +
      (report.siblings.crossNegatives
        ? ' Their positives were measured as negatives here too (`from:` in the notes).'
        : ''),
    '',
  ];
  for (const side of sides) {
    const text = lostToSiblingsText(side.m);
    if (text !== undefined) lines.push(`- ${side.label ? `${side.label}: ` : ''}${escapeInline(text)}`);
  }
  const rows: string[][] = [];
  for (const side of sides) {
    for (const q of side.m.queries) {
      const hits = Object.entries(q.siblingHits ?? {});
      if (hits.length === 0) continue;
      rows.push([
        ...(sides.length > 1 ? [side.label ?? ''] : []),
        escapeInline(q.id),
        q.shouldTrigger ? 'yes' : 'no',
        `${q.hits}/${q.runs}`,
        hits.map(([name, n]) => `${escapeInline(name)} ${n}`).join(', '),
      ]);
    }
  }
  if (rows.length > 0) {
    const header = [
      ...(sides.length > 1 ? ['Side'] : []),
      'Id',
      'Should trigger',
      'Stub hits/runs',
      'Loaded a sibling instead',
    ];
    lines.push('', `| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`);
    for (const r of rows) lines.push(`| ${r.join(' | ')} |`);
  }
  return lines;
}
