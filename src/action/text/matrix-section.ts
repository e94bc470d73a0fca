import { escapeInline } from '../../escape.js';
import { markdownTable } from '../../format.js';
import { matrixHeadline, matrixTable, shareText, stolenTable } from '../../matrix/markdown.js';
import { shardText } from '../../matrix/shard.js';
import type { MatrixReport } from '../../schemas/matrix.js';
import type { ActionRun } from '../results/results.js';
import { escapeLineStart } from './safe-text.js';

/**
 * The routing matrix's section of the PR comment and the job summary (`routing-matrix: true`),
 * pure: the matrix's headline, its rows (the changed skills' in the comment, every row in the
 * summary) against the skills their runs loaded, precision and recall, and the stolen queries.
 * The rows, figures and stolen list are the matrix report's own (src/matrix/tally.ts), rendered by
 * the matrix's own Markdown pieces (src/matrix/markdown.ts), which escape every name and query.
 */

/** How much of the matrix a rendering shows. */
export interface MatrixLimits {
  /** Every row and column; else only the changed skills' rows and the columns their runs reached. */
  everyRow: boolean;
  /** Stolen queries listed (the rest are counted). */
  stolenRows: number;
  /** A query's text is cut to this many characters. */
  queryChars: number;
  /** Past this many characters, the changed skills' rows only; past it again, the headline only. */
  maxChars: number;
}

export const COMMENT_MATRIX_LIMITS: MatrixLimits = {
  everyRow: false,
  stolenRows: 10,
  queryChars: 100,
  maxChars: 20_000,
};
export const SUMMARY_MATRIX_LIMITS: MatrixLimits = {
  everyRow: true,
  stolenRows: 100,
  queryChars: 160,
  maxChars: 300_000,
};

/** The skills this run was about (measured, or due to be): the rows the comment shows. */
function changedSkills(run: ActionRun, report: MatrixReport): Set<string> {
  const installed = new Set(report.skills.map((s) => s.name));
  const names = run.skills.flatMap((s) =>
    s.kind === 'measured' || s.kind === 'not-run' ? [s.skill] : s.skill === undefined ? [] : [s.skill],
  );
  return new Set(names.filter((n) => installed.has(n)));
}

/** `; the 2 skills none of these runs loaded are left out`, or nothing. */
function leftOut(n: number): string {
  if (n === 0) return '';
  return n === 1
    ? '; the 1 skill none of these runs loaded is left out'
    : `; the ${n} skills none of these runs loaded are left out`;
}

function measuredSection(run: ActionRun, report: MatrixReport, limits: MatrixLimits): string[] {
  const changed = changedSkills(run, report);
  // With no changed skill among the matrix's (every one removed, say), the whole matrix is shown.
  const focus = limits.everyRow || changed.size === 0 ? undefined : changed;
  return [
    ...matrixHead(report),
    ...focusedTable(report, focus),
    ...figuresTable(report, focus),
    ...stolenLines(report, focus, limits),
  ];
}

/** The headline, and what the matrix is: simulated, one leg, merged legs, no verdict. */
function matrixHead(report: MatrixReport): string[] {
  const lines: string[] = [];
  if (report.simulated)
    lines.push('**SIMULATED**: these numbers come from the simulated model, not from a real model.', '');
  lines.push(escapeLineStart(matrixHeadline(report)));
  if (report.shard !== null)
    lines.push(
      '',
      `This is leg ${shardText(report.shard)} of the routing matrix: its slice of the queries, every skill installed. The merge step (mode: merge) shows the whole matrix.`,
    );
  if (report.mergedLegs !== undefined)
    lines.push('', `Merged from ${report.mergedLegs} legs of a workflow matrix.`);
  if (report.verdict === 'no-verdict')
    lines.push(
      '',
      '**No verdict — this matrix is not a measurement:**',
      '',
      ...report.noVerdictReasons.map((r) => `- ${escapeLineStart(r)}`),
    );
  return lines;
}

/** The matrix itself: the changed skills' rows (`focus`) and the columns their runs loaded, or all. */
function focusedTable(report: MatrixReport, focus: Set<string> | undefined): string[] {
  const rows = focus === undefined ? report.rows : report.rows.filter((r) => focus.has(r.owner));
  const names = report.skills.map((s) => s.name);
  const columns =
    focus === undefined
      ? names
      : names.filter((n) => focus.has(n) || rows.some((r) => (r.cells[n] ?? 0) > 0));
  return [
    '',
    focus === undefined
      ? 'Rows: the skill a query belongs to and its label. Columns: which skill each measured run loaded.'
      : `Rows of the changed skills (${[...focus].map(escapeInline).join(', ')}). Columns: which skill each measured run loaded${leftOut(names.length - columns.length)}.`,
    '',
    ...matrixTable(report, rows, columns),
  ];
}

/** Each skill's recall and precision (of the changed skills, with a focus). */
function figuresTable(report: MatrixReport, focus: Set<string> | undefined): string[] {
  const figures = report.figures.filter((f) => focus === undefined || focus.has(f.skill));
  const noSet = new Set(report.skills.filter((s) => s.evalSet === null).map((s) => s.name));
  return [
    '',
    ...markdownTable(
      ['skill', 'recall', 'precision'],
      figures.map((f) => [
        escapeInline(f.skill),
        noSet.has(f.skill) ? 'no eval set' : shareText(f.recall),
        shareText(f.precision),
      ]),
    ),
  ];
}

/** The stolen queries (of or by the changed skills, with a focus), cut at the limit, or that there are none. */
function stolenLines(report: MatrixReport, focus: Set<string> | undefined, limits: MatrixLimits): string[] {
  const stolen = report.stolen.filter((s) => focus === undefined || focus.has(s.owner) || focus.has(s.thief));
  if (stolen.length === 0) return ['', 'No positive loaded another skill more often than its own.'];
  const shown = stolen.slice(0, limits.stolenRows);
  return [
    '',
    `Stolen queries: positives that loaded another skill more often than their own${focus === undefined ? '' : ' (of or by the changed skills)'}.`,
    '',
    ...stolenTable(shown, limits.queryChars),
    ...(shown.length < stolen.length
      ? ['', `… and ${stolen.length - shown.length} more stolen queries.`]
      : []),
  ];
}

/** The section, or nothing when the run has no routing matrix. */
export function routingMatrixSection(run: ActionRun, limits: MatrixLimits): string[] {
  const matrix = run.matrix;
  if (matrix === undefined) return [];
  const head = ['### Routing matrix', ''];
  switch (matrix.kind) {
    case 'invalid':
      return [
        ...head,
        '⛔ Not measured: its inputs have problems (annotated on the files).',
        '',
        ...matrix.problems.map((p) => `- ${escapeLineStart(p)}`),
      ];
    case 'not-run':
      return [...head, `⏭️ Not measured: ${escapeInline(matrix.why)}.`];
    case 'measured': {
      const fits = (lines: string[]) => lines.join('\n').length <= limits.maxChars;
      const full = measuredSection(run, matrix.report, limits);
      if (fits(full)) return [...head, ...full];
      const focused = measuredSection(run, matrix.report, { ...limits, everyRow: false });
      if (fits(focused)) return [...head, ...focused];
      return [
        ...head,
        escapeLineStart(matrixHeadline(matrix.report)),
        '',
        'The matrix is too large to show here: see the routing matrix report (JSON, Markdown and HTML) among the report files.',
      ];
    }
  }
}
