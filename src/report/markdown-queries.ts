/** The report's Markdown "Queries" table (pure): every query's outcomes, side by side for a pair. */

import { escapeInline } from '../escape.js';
import { percent, markdownTable as table } from '../format.js';
import type { QueryResult, Report } from '../schemas/report.js';
import { OUTCOME_LEGEND, outcomeSymbols } from './headline.js';
import type { Side } from './sides.js';

function notes(extra: Record<string, unknown>): string {
  return Object.entries(extra)
    .map(([key, value]) =>
      escapeInline(`${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`),
    )
    .join('; ');
}

export function lostCount(q: QueryResult): number {
  return q.timeouts + q.errors;
}

function hitsCell(q: QueryResult | undefined, withRate: boolean): string {
  if (!q) return '—';
  const lost = lostCount(q);
  const rate = withRate && q.rate !== null ? ` (${percent(q.rate)})` : '';
  return `${q.hits}/${q.runs}${rate}${lost > 0 ? `, ${lost} lost` : ''}`;
}

function rateCell(q: QueryResult): string {
  return q.rate === null ? '—' : percent(q.rate);
}

function passCell(q: QueryResult | undefined): string {
  if (!q || q.pass === null) return '—';
  return q.pass ? 'pass' : '**fail**';
}

export function queriesSection(report: Report, sides: readonly Side[]): string[] {
  const withNotes = sides.some((s) => s.m.queries.some((q) => Object.keys(q.extra).length > 0));
  const lines = [
    '## Queries',
    '',
    `Outcomes of each run, in the order they ran: ${OUTCOME_LEGEND}. ` +
      `A positive passes above a trigger rate of ${report.settings.triggerThreshold}, a negative below it; ` +
      'timeouts and errors are neither hits nor misses.',
    '',
  ];
  const baseline = report.baseline;
  if (!baseline) {
    const header = ['Id', 'Query', 'Should trigger', 'Outcomes', 'Hits/runs', 'Rate', 'Pass'];
    const rows = report.candidate.queries.map((q) => [
      escapeInline(q.id),
      escapeInline(q.query),
      q.shouldTrigger ? 'yes' : 'no',
      outcomeSymbols(q.outcomes),
      hitsCell(q, false),
      rateCell(q),
      passCell(q),
      ...(withNotes ? [notes(q.extra)] : []),
    ]);
    return [...lines, ...table(withNotes ? [...header, 'Notes'] : header, rows)];
  }
  // Side by side by id; a query only one side holds (the eval set changed between them) still gets a row.
  const byId = (qs: readonly QueryResult[]) => new Map(qs.map((q) => [q.id, q]));
  const base = byId(baseline.queries);
  const cand = byId(report.candidate.queries);
  const ids = [...new Set([...cand.keys(), ...base.keys()])];
  const header = [
    'Id',
    'Query',
    'Should trigger',
    'Baseline outcomes',
    'Baseline hits/runs',
    'Baseline pass',
    'Candidate outcomes',
    'Candidate hits/runs',
    'Candidate pass',
  ];
  const rows = ids.map((id) => {
    const b = base.get(id);
    const c = cand.get(id);
    const q = (c ?? b) as QueryResult;
    return [
      escapeInline(id),
      escapeInline(q.query),
      q.shouldTrigger ? 'yes' : 'no',
      b ? outcomeSymbols(b.outcomes) : '—',
      hitsCell(b, true),
      passCell(b),
      c ? outcomeSymbols(c.outcomes) : '—',
      hitsCell(c, true),
      passCell(c),
      ...(withNotes ? [notes(q.extra)] : []),
    ];
  });
  return [...lines, ...table(withNotes ? [...header, 'Notes'] : header, rows)];
}
