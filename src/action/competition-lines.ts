import { escapeInline } from '../report/escape.js';
import type { Measurement, Report } from '../report/schema.js';
import { lostToSiblingsText } from '../report/siblings.js';

/**
 * The PR comment's and the job summary's lines on a skill's competition (`competition: siblings`,
 * issue 11), pure: how many siblings every run had beside the stub, per side the positives lost
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
