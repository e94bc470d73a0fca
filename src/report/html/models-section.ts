import { formatUsd } from '../../cost/cost.js';
import type { Measurement, PairedByModel, QueryResult } from '../../schemas/report.js';
import { queryPasses } from '../../verdict/rules.js';
import { arrow, costLine, labelWords, lateLine } from '../models-text.js';
import { percent, rateBar } from './charts.js';
import { html, type Markup } from './markup.js';

/**
 * The run page's parts for several models and their cost: with several models (`--model a,b`), a column per model — each
 * model's totals and each query's hits on it — and, whenever the runs were priced, the cost. Model
 * names are the user's text and go in through `html`, escaped.
 */

function countsCell(c: {
  hits: number;
  runs: number;
  timeouts: number;
  errors: number;
  late: number;
}): Markup {
  const lost = c.timeouts + c.errors;
  const rate =
    c.runs === 0
      ? html`<span class="muted">no measured run</span>`
      : html`${c.hits}/${c.runs} (${percent(c.hits / c.runs)})`;
  return html`${rate}${lost > 0 ? html`<div class="muted">${lost} lost</div>` : ''}${c.late > 0 ? html`<div class="muted">${c.late} late</div>` : ''}`;
}

function passCell(q: QueryResult, model: string, threshold: number): Markup {
  const c = q.byModel?.[model];
  const pass =
    c === undefined ? null : queryPasses(q.shouldTrigger, c.runs === 0 ? null : c.hits / c.runs, threshold);
  if (pass === null) return html`<span class="badge neutral">unmeasured</span>`;
  return pass ? html`<span class="badge good">pass</span>` : html`<span class="badge bad">fail</span>`;
}

/** One column per model: the class totals, then each query's hits on that model. Empty with one model. */
export function modelsSection(m: Measurement, threshold: number): Markup {
  if (!m.byModel) return html``;
  const models = Object.keys(m.byModel);
  const totals = (model: string, cls: 'positives' | 'negatives') => {
    const t = m.byModel?.[model]?.totals;
    const hits = cls === 'positives' ? (t?.positives.triggered ?? 0) : (t?.negatives.fired ?? 0);
    const runs = cls === 'positives' ? (t?.positives.runs ?? 0) : (t?.negatives.runs ?? 0);
    return html`<td>${rateBar({ hits, runs, verb: cls === 'positives' ? 'triggered' : 'fired' })}<div class="num">${runs === 0 ? '' : `${hits}/${runs}`}</div></td>`;
  };
  const verdicts = models.map((model) => {
    const s = m.byModel?.[model];
    const t = s?.totals;
    return html`<td>${t ? `${t.passed}/${t.queries} queries pass` : ''}${s?.verdict === 'no-verdict' ? html` · <strong>no verdict</strong>` : ''}${s?.costUsd === undefined ? '' : html`<div class="muted">${formatUsd(s.costUsd)}</div>`}</td>`;
  });
  return html`<section id="models"><h2>By model</h2>
<p>Every query was measured on each model, interleaved; each model is judged on its own runs.</p>
<table class="models"><thead><tr><th></th>${models.map((model) => html`<th scope="col">${model}</th>`)}</tr></thead><tbody>
<tr><th scope="row">Positives triggered</th>${models.map((model) => totals(model, 'positives'))}</tr>
<tr><th scope="row">Negatives fired</th>${models.map((model) => totals(model, 'negatives'))}</tr>
<tr><th scope="row">Verdict</th>${verdicts}</tr>
</tbody></table>
<table class="models"><thead><tr><th>Query</th><th>Class</th>${models.map((model) => html`<th scope="col">${model}</th>`)}</tr></thead><tbody>
${m.queries.map(
  (q) =>
    html`<tr><td><div class="query-text">${q.query}</div><div class="id">${q.id}</div></td><td>${q.shouldTrigger ? 'positive' : 'negative'}</td>${models.map(
      (model) => {
        const c = q.byModel?.[model];
        return html`<td class="num">${c ? countsCell(c) : html`<span class="muted">—</span>`} ${passCell(q, model, threshold)}</td>`;
      },
    )}</tr>`,
)}
</tbody></table>
</section>`;
}

/** The cost (per model and in total, or tokens and "price unknown") and the late loads, as the headline says them. */
export function costAndLate(m: Measurement): Markup {
  const lines = [...lateLine(m), ...costLine(m)];
  if (lines.length === 0) return html``;
  return html`${lines.map((l) => html`<p class="cost">${l}</p>`)}`;
}

/**
 * A paired report of several models: each model's candidate against the same model's baseline,
 * the skill's standing, and what the pooled numbers below it are (or that they are not honest).
 */
export function pairedModelsSection(p: PairedByModel | undefined): Markup {
  if (!p) return html``;
  const rows = Object.entries(p.models).map(
    ([model, m]) =>
      html`<tr><th scope="row">${model}</th><td class="num">${arrow(m.positives)}</td><td>${labelWords(m.positives.label)}</td><td class="num">${arrow(m.negatives)}</td><td>${labelWords(m.negatives.label)}</td><td><strong>${labelWords(m.label)}</strong></td></tr>`,
  );
  const pooled = p.pooled
    ? `The totals and queries below pool ${p.pooled.models.join(' + ')} (their runs together, as many of each model on both sides; pooled label: ${labelWords(p.pooled.label)}). A change on one model can offset another's there, so the models' own labels decide.`
    : 'The totals and queries below pool every model, but some query ran a model more often on one side than the other, so their label does not compare like with like; the models’ own labels decide.';
  return html`<section id="models"><h2>By model</h2>
<p class="headline">Overall, by model: <strong>${labelWords(p.label)}</strong> (a regression on any model is the skill’s regression)</p>
<table class="models"><thead><tr><th>Model</th><th>Positives triggered</th><th>Label</th><th>Negatives fired</th><th>Label</th><th>Model label</th></tr></thead><tbody>
${rows}
</tbody></table>
<p class="muted">${pooled}</p>
</section>`;
}
