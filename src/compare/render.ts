import { clipChars, percent, points, signedPoints } from '../format.js';
import type {
  ClassComparison,
  Comparison,
  ComparisonLabel,
  QueryComparison,
  SubsetComparison,
} from './compare.js';
import type { RenderOptions } from './render-json.js';
import { withoutText } from './subsets-text.js';

// The `--json` output lives in render-json.ts; callers import it from here too.
export {
  COMPARISON_SCHEMA_ID,
  COMPARISON_SCHEMA_VERSION,
  comparisonJson,
  type RenderOptions,
} from './render-json.js';

/** The first line of a comparison of two simulated reports, so nobody reads its numbers as Claude's. */
export const SIMULATED_LINE =
  "SIMULATED: both sides were answered by skilltrigger's simulated model, not by Claude; the numbers show the tool at work, not the skill.";

/** Longest query text shown in the text table (the JSON holds it whole). */
const QUERY_WIDTH = 60;

/**
 * The text rendering of a comparison for a terminal: warnings first, then the description
 * identity, the per-query table and the totals with their p-values and intervals, then the
 * overall label. Ends with a newline.
 */
export function renderComparisonText(c: Comparison, opts: RenderOptions = {}): string {
  const lines = [...headLines(c, opts), ...rowLines(c), ...totalsLines(c)];
  return `${lines.join('\n')}\n`;
}

/** The overall label, the two names, the warnings, the descriptions and the queries' counts. */
function headLines(c: Comparison, opts: RenderOptions): string[] {
  const lines: string[] = [];
  if (opts.simulated) lines.push(SIMULATED_LINE, '');
  // The verdict first; the tables below say base and cand for the two files named here.
  lines.push(`Overall: ${labelText(c.label)}`);
  lines.push(`skilltrigger compare · base ${c.names.base} → cand ${c.names.cand}`);
  lines.push('');
  if (c.warnings.length > 0) {
    lines.push(`Warnings (${c.warnings.length}):`);
    for (const w of c.warnings) lines.push(`  ! ${w.message} [${w.code}]`);
    lines.push('');
  }
  lines.push(describeDescription(c));
  lines.push(
    `Queries: ${c.queries.shared} shared · ${c.queries.baseOnly} only in ${c.names.base} · ${c.queries.candOnly} only in ${c.names.cand}` +
      (c.queries.shouldTriggerChanged > 0
        ? ` · ${c.queries.shouldTriggerChanged} with should_trigger changed`
        : ''),
  );
  lines.push('');
  return lines;
}

/** The per-query table, when there are shared queries. */
function rowLines(c: Comparison): string[] {
  if (c.rows.length === 0) return [];
  const lines = [
    `Per query — Fisher's exact test, one-sided in the direction of the change, Holm-adjusted over the shared queries (α = ${c.method.alpha}):`,
  ];
  const header = ['id', 'class', 'base', 'cand', 'Δ hits', 'p', 'p Holm', 'label', 'query'];
  const body = c.rows.map((r) => [
    flat(r.id),
    r.shouldTrigger ? 'pos' : 'neg',
    `${r.base.hits}/${r.base.runs}`,
    `${r.cand.hits}/${r.cand.runs}${r.partial ? '*' : ''}`,
    signed(r.deltaHits),
    formatP(rowP(r).p),
    formatP(rowP(r).adjusted),
    labelText(r.label),
    clip(r.query),
  ]);
  lines.push(...table(header, body).map((l) => `  ${l}`));
  if (c.rows.some((r) => r.partial))
    lines.push('  * measured on fewer runs than planned (lost runs are left out)');
  if (c.rows.some((r) => r.noiseBand !== null)) {
    lines.push('  At 2 runs per query a difference of one hit is noise (the seeds’ rule).');
  }
  lines.push('');
  return lines;
}

/** The totals of the two classes, then each subset's. */
function totalsLines(c: Comparison): string[] {
  const lines = [
    `Totals over the shared queries — exact test stratified by query, one-sided, α = ${c.method.alphaPerClass} per class; ${percent(c.method.confidence)} interval on the change in rate:`,
  ];
  lines.push(
    ...table(
      ['', 'base', 'cand', 'Δ rate', 'interval', 'p bad', 'p good', 'label'],
      [classRow('positives triggered', c.positives), classRow('negatives fired', c.negatives)],
    ).map((l) => `  ${l}`),
  );
  if (c.positives.noiseBand !== null || c.negatives.noiseBand !== null) {
    lines.push('  At 2 runs per query a total difference of up to two hits is noise (the seeds’ rule).');
  }
  const subsetRows = subsetClassRows(c).map(({ title, x }) => classRow(title, x));
  if (subsetRows.length > 0) {
    lines.push('');
    lines.push(
      'Subsets of the shared queries — the same tests, each labelled on its own (the overall label is the whole set’s):',
    );
    lines.push(
      ...table(['', 'base', 'cand', 'Δ rate', 'interval', 'p bad', 'p good', 'label'], subsetRows).map(
        (l) => `  ${l}`,
      ),
    );
  }
  return lines;
}

/**
 * The class rows of each subset, titled for a reader: `positives triggered, without the 3 that
 * presuppose a session`, `holdout positives triggered`. Without needs_context, a class none of
 * whose shared queries is marked is left out (its row would repeat the whole set's).
 */
export function subsetClassRows(
  c: Comparison,
): { subset: SubsetComparison; title: string; x: ClassComparison }[] {
  return (c.subsets ?? []).flatMap((s) =>
    (['positives', 'negatives'] as const).flatMap((cls) => {
      const x = s[cls];
      const verb = cls === 'positives' ? 'positives triggered' : 'negatives fired';
      if (s.name !== 'withoutContext') return [{ subset: s, title: `${s.name} ${verb}`, x }];
      const marked = c[cls].queries - x.queries;
      if (marked === 0) return [];
      return [
        {
          subset: s,
          title: `${verb}, ${withoutText(marked)}`,
          x,
        },
      ];
    }),
  );
}

/** How a label reads to a person (`no-verdict` → `no verdict`, as in the PR comment). */
export function labelText(label: ComparisonLabel): string {
  switch (label) {
    case 'noise':
      return 'noise';
    case 'improvement':
      return 'improvement';
    case 'regression':
      return 'regression';
    case 'no-verdict':
      return 'no verdict';
  }
}

function describeDescription(c: Comparison): string {
  const { base, cand, sameText } = c.description;
  if (sameText) {
    return `Description: the same text on both sides (sha256 ${base.sha256.slice(0, 12)}, ${base.bytes} bytes) — an A/A comparison: any labelled change is a false alarm.`;
  }
  return `Description: different text (sha256 ${base.sha256.slice(0, 12)} → ${cand.sha256.slice(0, 12)}, ${base.bytes} → ${cand.bytes} bytes).`;
}

/** The row's one-sided p in the direction the rate moved (the bad one when it did not move). */
export function rowP(r: QueryComparison): { p: number; adjusted: number } {
  const better = (r.shouldTrigger ? 1 : -1) * (r.deltaRate ?? 0);
  return better > 0 ? { p: r.pGood, adjusted: r.pGoodAdjusted } : { p: r.pBad, adjusted: r.pBadAdjusted };
}

function classRow(title: string, x: ClassComparison): string[] {
  const rate = (s: ClassComparison['base']) =>
    `${s.hits}/${s.runs}${s.rate === null ? '' : ` (${percent(s.rate)})`}`;
  return [
    x.queries === 0 ? `${title} (none shared)` : title,
    rate(x.base),
    rate(x.cand),
    points(x.deltaRate),
    x.interval === null ? '–' : `[${signedPoints(x.interval.lower)}, ${signedPoints(x.interval.upper)}] pp`,
    formatP(x.pBad),
    formatP(x.pGood),
    labelText(x.label),
  ];
}

function table(header: readonly string[], body: readonly (readonly string[])[]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...body.map(line)];
}

/** p-values: three decimals, or two significant digits in exponent form when smaller than 0.001. */
export function formatP(p: number): string {
  if (p >= 0.9995) return '1';
  if (p >= 0.001) return p.toFixed(3);
  return p.toExponential(1);
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : `${n}`;
}

/**
 * One line: newlines and control characters in a report's id or query would break the table, and an
 * escape sequence would reach the terminal.
 */
function flat(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
}

/** A query on one line, at most QUERY_WIDTH characters. */
function clip(text: string): string {
  return clipChars(flat(text), QUERY_WIDTH);
}
