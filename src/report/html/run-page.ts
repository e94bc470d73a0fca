import type { Measurement, QueryResult, Report } from '../../schemas/report.js';
import { contextArmLines } from '../context-text.js';
import { hasSeveralModels, headline, headlineLines } from '../headline.js';
import { intervalText, outcomeDots, outcomeLegend, percent, rateBar, rateInterval } from './charts.js';
import { html, type Markup } from './markup.js';
import { costAndLate, modelsSection } from './models-section.js';
import {
  banners,
  classFilter,
  environmentFacts,
  filters,
  notesList,
  passBadge,
  resultOf,
  rowData,
  tally,
  utcDate,
} from './parts.js';

/**
 * The page of one measurement (`skilltrigger run` without a baseline): the headline, the class
 * totals with their intervals, and per query a bar of its trigger rate with its 95% interval and
 * the threshold, each run as a dot, with filters by class, result, split and notes.
 */

function rateCell(hits: number, runs: number): Markup {
  if (runs === 0) return html`<span class="muted">no measured run</span>`;
  return html`${hits}/${runs} (${percent(hits / runs)}) <span class="muted">${intervalText(rateInterval(hits, runs))}</span>`;
}

function totalsTable(m: Measurement): Markup {
  const t = m.totals;
  const unmeasured = t.queries - t.passed - t.failed;
  return html`<table class="totals"><thead><tr><th>Class</th><th>Rate, 95% interval</th><th>Runs</th></tr></thead><tbody>
<tr><td>Positives triggered</td><td>${rateBar({ hits: t.positives.triggered, runs: t.positives.runs, verb: 'triggered' })}</td><td class="num">${rateCell(t.positives.triggered, t.positives.runs)}</td></tr>
<tr><td>Negatives fired</td><td>${rateBar({ hits: t.negatives.fired, runs: t.negatives.runs, verb: 'fired' })}</td><td class="num">${rateCell(t.negatives.fired, t.negatives.runs)}</td></tr>
</tbody></table>
<p>Queries: ${t.passed} pass, ${t.failed} fail${unmeasured > 0 ? `, ${unmeasured} unmeasured` : ''} · runs: ${t.executed} of ${t.planned} planned ran; ${t.timeouts} timed out, ${t.errors === 1 ? '1 error' : `${t.errors} errors`} (counted apart: neither hits nor misses)</p>`;
}

function queryRow(q: QueryResult, threshold: number): Markup {
  const data = rowData(q);
  const lost = q.timeouts + q.errors;
  return html`<tr data-class="${data.class}" data-result="${resultOf(q)}" data-split="${data.split}" data-notes="${data.notes}">
<td><div class="query-text">${q.query}</div><div class="id">${q.id}</div>${notesList(q)}</td>
<td>${q.shouldTrigger ? 'positive' : 'negative'}</td>
<td>${rateBar({ hits: q.hits, runs: q.runs, threshold, verb: 'triggered' })}</td>
<td class="num">${rateCell(q.hits, q.runs)}${lost > 0 ? html`<div class="muted">${lost} lost</div>` : ''}</td>
<td>${outcomeDots(q.outcomes)}</td>
<td>${passBadge(q)}</td>
</tr>`;
}

function queriesSection(report: Report): Markup {
  const qs = report.candidate.queries;
  const threshold = report.settings.triggerThreshold;
  const byClass = tally(qs, (q) => rowData(q).class);
  const byResult = tally(qs, resultOf);
  const bySplit = tally(qs, (q) => rowData(q).split);
  const byNotes = tally(qs, (q) => rowData(q).notes);
  return html`<section class="queries" id="queries"><h2>Queries</h2>
<p>A positive passes above a trigger rate of ${threshold}, a negative below it; timeouts and errors are neither hits nor misses.</p>
${filters([
  classFilter(byClass),
  {
    key: 'result',
    title: 'Result',
    options: [
      { value: 'pass', words: 'pass', count: byResult('pass') },
      { value: 'fail', words: 'fail', count: byResult('fail') },
      { value: 'unmeasured', words: 'unmeasured', count: byResult('unmeasured') },
    ],
  },
  {
    key: 'split',
    title: 'Split',
    options: [
      { value: 'train', words: 'train', count: bySplit('train') },
      { value: 'holdout', words: 'holdout', count: bySplit('holdout') },
    ],
  },
  {
    key: 'notes',
    title: 'Notes',
    options: [
      { value: 'with', words: 'with notes', count: byNotes('with') },
      { value: 'without', words: 'without', count: byNotes('without') },
    ],
  },
])}
${outcomeLegend()}
<table><thead><tr><th>Query</th><th>Class</th><th>Trigger rate</th><th>Hits/runs, 95% interval</th><th>Runs, in order</th><th>Result</th></tr></thead>
<tbody>
${qs.map((q) => queryRow(q, threshold))}
</tbody></table>
<p class="shown muted">${qs.length} queries</p>
</section>`;
}

/** The body of a single run's page. */
export function runPageBody(report: Report): Markup {
  const sides = [{ m: report.candidate }];
  return html`<header><h1>skilltrigger: ${report.skill}</h1><p class="muted">${utcDate(report.createdAt)} · one measurement</p></header>
${banners([report], sides)}
${
  hasSeveralModels(report.candidate)
    ? headlineLines(report.candidate).map((l) => html`<p class="headline">${l}</p>`)
    : [headline(report.candidate), ...contextArmLines(report.candidate)].map(
        (l) => html`<p class="headline">${l}</p>`,
      )
}
<section id="totals"><h2>Totals</h2>${totalsTable(report.candidate)}${costAndLate(report.candidate)}</section>
${modelsSection(report.candidate, report.settings.triggerThreshold)}
${queriesSection(report)}
<section id="environment"><h2>Environment</h2>${environmentFacts(report, sides)}</section>`;
}
