/**
 * A skill's per-query table in the comment and the summary (pure), folded in a `<details>`: each
 * query's runs, baseline against this side when there is a comparison, model by model when several
 * were measured. Query text is masked, escaped and cut to the section's limits.
 */

import { measurementOfModel } from '../../compare/by-model.js';
import type { QueryComparison } from '../../compare/compare.js';
import { escapeInline, truncate } from '../../escape.js';
import { points, markdownTable as table } from '../../format.js';
import { maskSecrets } from '../../mask.js';
import { OUTCOME_LEGEND, outcomeSymbols } from '../../report/headline.js';
import type { Measurement, ModelCounts, QueryResult } from '../../schemas/report.js';
import type { ActionRun, MeasuredSkill } from '../results/results.js';
import { labelCell } from './cells.js';

/** How much of each skill a rendering shows. */
export interface SectionLimits {
  /** Per-query rows shown (the rest are counted). */
  queryRows: number;
  /** A query's text is cut to this many characters. */
  queryChars: number;
}

/** What the measured side is called: the PR, or the commit a push measured. */
export function subjectName(run: ActionRun): string {
  return run.event === 'pull_request' ? 'This PR' : 'This commit';
}

function queryCell(q: QueryResult | undefined, hits: number, runs: number): string {
  if (q && q.outcomes.length === 0) return 'not run';
  const symbols = q ? `${outcomeSymbols(q.outcomes)} ` : '';
  return `${symbols}${hits}/${runs}`;
}

/** A query's counts for one model, or for one agent when the comparison went agent by agent. */
function countsOf(q: QueryResult | undefined, key: string): ModelCounts | undefined {
  return q?.byModel?.[key] ?? q?.byAgent?.[key];
}

/** One model's hits/runs of a query, its lost and late runs noted. */
function modelCell(c: ModelCounts | undefined): string {
  if (!c) return '–';
  const lost = c.timeouts + c.errors;
  return `${c.hits}/${c.runs}${lost > 0 ? `, ${lost} lost` : ''}${c.late > 0 ? `, ${c.late} late` : ''}`;
}

export function queryRows(
  run: ActionRun,
  s: MeasuredSkill,
  baseline: Measurement | undefined,
  limits: SectionLimits,
): string[] {
  const subject = subjectName(run);
  // Masked before it is escaped and cut: `\_` or a cut would hide a key from the mask of the whole body.
  const text = (query: string) => truncate(escapeInline(maskSecrets(query)), limits.queryChars);
  if (s.comparison && baseline)
    return comparedRows(s, s.comparison.rows, baseline, limits, { subject, text });
  const models = s.report.settings.models ?? [];
  if (models.length > 1) return modelRows(s, models, limits, text);
  const cand = s.report.candidate.queries;
  const rows: string[][] = [];
  for (const q of cand.slice(0, limits.queryRows)) {
    rows.push([
      escapeInline(q.id),
      text(q.query),
      q.shouldTrigger ? 'yes' : 'no',
      queryCell(q, q.hits, q.runs),
      passText(q.pass),
    ]);
  }
  return wrapDetails(table(['Id', 'Query', 'Should load', subject, 'Pass'], rows), cand.length, rows.length);
}

/** The rows of a skill compared with its baseline: both sides and the label, or model by model. */
function comparedRows(
  s: MeasuredSkill,
  compared: readonly QueryComparison[],
  baseline: Measurement,
  limits: SectionLimits,
  say: { subject: string; text: (query: string) => string },
): string[] {
  const baseByQuery = new Map(baseline.queries.map((q) => [q.query, q]));
  const candByQuery = new Map(s.report.candidate.queries.map((q) => [q.query, q]));
  // Several models (or agents) compared one by one: a column per model, baseline → this side and
  // that model's own label; pooled Baseline, This PR and Label cells would describe no model.
  const several = s.byModel && s.byModel.length > 1 ? s.byModel : undefined;
  const own = several?.map((m) => new Map(m.comparison.rows.map((r) => [r.query, r]))) ?? [];
  const models = several?.map((m) => m.model) ?? [];
  const cells = (r: QueryComparison, b: QueryResult | undefined, c: QueryResult | undefined) =>
    several
      ? models.map((m, k) => {
          const mine = own[k]?.get(r.query);
          return `${modelCell(countsOf(b, m))} → ${modelCell(countsOf(c, m))} · ${mine ? labelCell(mine.label) : '–'}`;
        })
      : [queryCell(b, r.base.hits, r.base.runs), queryCell(c, r.cand.hits, r.cand.runs), labelCell(r.label)];
  const row = (r: QueryComparison) => [
    escapeInline(r.id),
    say.text(r.query),
    r.shouldTrigger ? 'yes' : 'no',
    ...cells(r, baseByQuery.get(r.query), candByQuery.get(r.query)),
  ];
  if (!several) return movedFirst(compared, row, say.subject, limits.queryRows);
  const rows = compared.slice(0, limits.queryRows).map(row);
  const header = [
    'Id',
    'Query',
    'Should load',
    ...models.map((m) => `${escapeInline(m)}: baseline → ${say.subject}`),
  ];
  return wrapDetails(table(header, rows), compared.length, rows.length);
}

/**
 * Several models: a column per model, each with that model's hits/runs and its own pass, as the
 * per-model headline counts them; a pass over the models pooled would describe no model.
 */
function modelRows(
  s: MeasuredSkill,
  models: readonly string[],
  limits: SectionLimits,
  text: (query: string) => string,
): string[] {
  const cand = s.report.candidate.queries;
  const own = models.map((model) =>
    measurementOfModel(s.report.candidate, model, s.report.settings.triggerThreshold),
  );
  const rows = cand
    .slice(0, limits.queryRows)
    .map((q, i) => [
      escapeInline(q.id),
      text(q.query),
      q.shouldTrigger ? 'yes' : 'no',
      ...models.map((m, k) => `${modelCell(q.byModel?.[m])} · ${passText(own[k]?.queries[i]?.pass ?? null)}`),
    ]);
  return wrapDetails(
    table(['Id', 'Query', 'Should load', ...models.map(escapeInline)], rows),
    cand.length,
    rows.length,
  );
}

/** A query's pass in a cell: `pass`, `**fail**`, or `–` when no run was measured. */
function passText(pass: boolean | null): string {
  return pass === null ? '–' : pass ? 'pass' : '**fail**';
}

/** How a query's trigger rate moved: ▲ up, ▼ down, and whether that is the bad way for its class. */
export function moveOf(r: QueryComparison): { mark: string; worse: boolean } | undefined {
  if (r.deltaRate === null || r.deltaRate === 0) return undefined;
  const up = r.deltaRate > 0;
  return { mark: `${up ? '▲' : '▼'} ${points(r.deltaRate)}`, worse: r.shouldTrigger !== up };
}

/**
 * The compared queries, those that moved first (the bad way first, then the larger move) in a
 * table of their own with the move marked, the rest folded. A query's label stays the exact test's:
 * 0/2 → 2/2 moved, and is still noise at 2 runs.
 */
function movedFirst(
  compared: readonly QueryComparison[],
  row: (r: QueryComparison) => string[],
  subject: string,
  limit: number,
): string[] {
  const moved = compared
    .flatMap((r, i) => {
      const move = moveOf(r);
      return move ? [{ r, i, move }] : [];
    })
    .sort(
      (a, b) =>
        Number(b.move.worse) - Number(a.move.worse) ||
        Math.abs(b.r.deltaRate ?? 0) - Math.abs(a.r.deltaRate ?? 0) ||
        a.i - b.i,
    );
  const still = compared.filter((r) => moveOf(r) === undefined);
  const header = ['Id', 'Query', 'Should load', 'Baseline', subject, 'Label'];
  const shownMoved = moved.slice(0, limit);
  const shownStill = still.slice(0, Math.max(0, limit - shownMoved.length));
  const lines: string[] = [];
  if (moved.length > 0) {
    const n = moved.length;
    lines.push(
      `${n} of ${compared.length} ${compared.length === 1 ? 'query' : 'queries'} moved (▲ triggered more often, ▼ less; the label says whether a move is beyond noise; ${OUTCOME_LEGEND}):`,
      '',
      ...table(
        ['Moved', ...header],
        shownMoved.map(({ r, move }) => [move.worse ? `**${move.mark}**` : move.mark, ...row(r)]),
      ),
    );
    if (n > shownMoved.length) {
      lines.push('', `… and ${n - shownMoved.length} more moved (in the report file).`);
    }
    if (still.length === 0) return lines;
    lines.push('');
  }
  const title =
    moved.length === 0
      ? `Per query (${compared.length} ${compared.length === 1 ? 'query' : 'queries'}, none moved; ${OUTCOME_LEGEND})`
      : `The other ${still.length} ${still.length === 1 ? 'query' : 'queries'}, unmoved`;
  const more = still.length - shownStill.length;
  return [
    ...lines,
    '<details>',
    `<summary>${title}</summary>`,
    '',
    ...(shownStill.length > 0 ? table(header, shownStill.map(row)) : []),
    ...(more > 0 ? ['', `… and ${more} more ${more === 1 ? 'query' : 'queries'} (in the report file).`] : []),
    '',
    '</details>',
  ];
}

function wrapDetails(lines: string[], total: number, shown: number): string[] {
  const more = total - shown;
  return [
    '<details>',
    `<summary>Per query (${total} ${total === 1 ? 'query' : 'queries'}; ${OUTCOME_LEGEND})</summary>`,
    '',
    ...lines,
    ...(more > 0 ? ['', `… and ${more} more ${more === 1 ? 'query' : 'queries'} (in the report file).`] : []),
    '',
    '</details>',
  ];
}
