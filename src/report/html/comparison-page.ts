import type { ClassComparison, Comparison, QueryComparison } from '../../compare/compare.js';
import { formatP, rowP } from '../../compare/render.js';
import { points } from '../../format.js';
import type { Measurement, PairedByModel, QueryResult, Report } from '../../schemas/report.js';
import { hasSeveralModels, headline, headlineLines } from '../headline.js';
import type { Side } from '../sides.js';
import {
  deltaBar,
  intervalText,
  outcomeDots,
  outcomeLegend,
  percent,
  rateBar,
  rateInterval,
} from './charts.js';
import { html, type Markup } from './markup.js';
import { pairedModelsSection } from './models-section.js';
import {
  banners,
  classFilter,
  environmentFacts,
  filters,
  labelBadge,
  notesList,
  tally,
  utcDate,
} from './parts.js';

/**
 * The page of a comparison: a paired report's baseline against its candidate, or `compare` of
 * two reports. The comparison's environment warnings come first, then the overall label, the
 * class totals with their intervals, and per query both sides' rates and runs with the label.
 */

export interface ComparisonPageInput {
  comparison: Comparison;
  /** The report(s) the comparison was made from: one paired report, or the baseline's and the candidate's. */
  reports: readonly Report[];
  base: Measurement;
  cand: Measurement;
  /** A paired report of several models: its comparison model by model, shown before the pooled numbers. */
  byModel?: PairedByModel;
}

/** The first query of a side with this text (the comparison matches queries by text). */
function byText(m: Measurement): (text: string) => QueryResult | undefined {
  const map = new Map<string, QueryResult>();
  for (const q of m.queries) if (!map.has(q.query)) map.set(q.query, q);
  return (text) => map.get(text);
}

function sideCell(
  hits: number,
  runs: number,
  threshold: number | undefined,
  tone: 'base' | undefined,
  q?: QueryResult,
): Markup {
  const rate =
    runs === 0
      ? html`<span class="muted">no measured run</span>`
      : html`${hits}/${runs} (${percent(hits / runs)}) <span class="muted">${intervalText(rateInterval(hits, runs))}</span>`;
  return html`${rateBar({ hits, runs, verb: 'triggered', ...(threshold === undefined ? {} : { threshold }), ...(tone ? { tone } : {}) })}<div class="num">${rate}</div>${q ? outcomeDots(q.outcomes) : ''}`;
}

function classRow(title: string, x: ClassComparison, verb: string): Markup {
  const side = (s: ClassComparison['base'], tone?: 'base') =>
    html`${rateBar({ hits: s.hits, runs: s.runs, verb, ...(tone ? { tone } : {}) })}<div class="num">${
      s.runs === 0
        ? 'no measured run'
        : html`${s.hits}/${s.runs} (${percent(s.hits / s.runs)}) <span class="muted">${intervalText(rateInterval(s.hits, s.runs))}</span>`
    }</div>`;
  const delta =
    x.deltaRate === null
      ? '–'
      : `${points(x.deltaRate)}${x.interval === null ? '' : ` [${points(x.interval.lower)}, ${points(x.interval.upper)}]`}`;
  return html`<tr><td>${x.queries === 0 ? `${title} (none shared)` : title}<div class="muted">${x.queries} shared queries</div></td>
<td>${side(x.base, 'base')}</td><td>${side(x.cand)}</td>
<td>${deltaBar(x.deltaRate, x.interval, x.class === 'positives' ? 'up' : 'down')}<div class="num">${delta}</div></td>
<td class="num">${formatP(x.pBad)} / ${formatP(x.pGood)}</td><td>${labelBadge(x.label)}</td></tr>`;
}

function totalsSection(c: Comparison): Markup {
  return html`<section id="totals"><h2>Totals over the shared queries</h2>
<p class="muted">Exact test stratified by query, one-sided, α = ${c.method.alphaPerClass} per class; ${percent(c.method.confidence)} Newcombe interval on the change in rate. Bars: ${c.names.base} grey, ${c.names.cand} blue.</p>
<table><thead><tr><th>Class</th><th>${c.names.base}</th><th>${c.names.cand}</th><th>Change</th><th>p bad / p good</th><th>Label</th></tr></thead><tbody>
${classRow('Positives triggered', c.positives, 'triggered')}
${classRow('Negatives fired', c.negatives, 'fired')}
</tbody></table>
${c.positives.noiseBand !== null || c.negatives.noiseBand !== null ? html`<p class="muted">At 2 runs per query a total difference of up to two hits is noise (the seeds’ rule).</p>` : ''}</section>`;
}

function queryRow(
  r: QueryComparison,
  base: QueryResult | undefined,
  cand: QueryResult | undefined,
  threshold: number | undefined,
): Markup {
  const p = rowP(r);
  return html`<tr data-class="${r.shouldTrigger ? 'positive' : 'negative'}" data-label="${r.label}">
<td><div class="query-text">${r.query}</div><div class="id">${r.id}</div>${notesList(cand ?? base)}</td>
<td>${r.shouldTrigger ? 'positive' : 'negative'}</td>
<td>${sideCell(r.base.hits, r.base.runs, threshold, 'base', base)}</td>
<td>${sideCell(r.cand.hits, r.cand.runs, threshold, undefined, cand)}</td>
<td class="num">${r.deltaHits > 0 ? `+${r.deltaHits}` : r.deltaHits}${r.partial ? html`<div class="muted">partial</div>` : ''}</td>
<td class="num">${formatP(p.adjusted)}</td>
<td>${labelBadge(r.label)}</td>
</tr>`;
}

function queriesSection(input: ComparisonPageInput, threshold: number | undefined): Markup {
  const c = input.comparison;
  const base = byText(input.base);
  const cand = byText(input.cand);
  const byClass = tally(c.rows, (r) => (r.shouldTrigger ? 'positive' : 'negative'));
  const byLabel = tally(c.rows, (r) => r.label);
  const left = [
    c.queries.baseOnly > 0 ? `${c.queries.baseOnly} only in ${c.names.base}` : '',
    c.queries.candOnly > 0 ? `${c.queries.candOnly} only in ${c.names.cand}` : '',
    c.queries.shouldTriggerChanged > 0 ? `${c.queries.shouldTriggerChanged} with should_trigger changed` : '',
  ].filter((s) => s !== '');
  return html`<section class="queries" id="queries"><h2>Queries</h2>
<p>${c.queries.shared} shared${left.length > 0 ? ` · left out: ${left.join(', ')}` : ''}. Per query: Fisher's exact test, one-sided in the direction of the change, Holm-adjusted over the shared queries (α = ${c.method.alpha}).</p>
${filters([
  classFilter(byClass),
  {
    key: 'label',
    title: 'Label',
    options: (['regression', 'improvement', 'noise', 'no-verdict'] as const).map((label) => ({
      value: label,
      words: label === 'no-verdict' ? 'no verdict' : label,
      count: byLabel(label),
    })),
  },
])}
${outcomeLegend()}
<table><thead><tr><th>Query</th><th>Class</th><th>${c.names.base}</th><th>${c.names.cand}</th><th>Δ hits</th><th>p (Holm)</th><th>Label</th></tr></thead>
<tbody>
${c.rows.map((r) => queryRow(r, base(r.query), cand(r.query), threshold))}
</tbody></table>
<p class="shown muted">${c.rows.length} queries</p>
${c.rows.some((r) => r.noiseBand !== null) ? html`<p class="muted">At 2 runs per query a difference of one hit is noise (the seeds’ rule).</p>` : ''}
</section>`;
}

function descriptionLine(c: Comparison): string {
  const { base, cand, sameText } = c.description;
  if (sameText) {
    return `The same description on both sides (SHA-256 ${base.sha256.slice(0, 12)}…, ${base.bytes} bytes): an A/A comparison, where any labelled change is a false alarm.`;
  }
  return `Different descriptions: SHA-256 ${base.sha256.slice(0, 12)}… → ${cand.sha256.slice(0, 12)}…, ${base.bytes} → ${cand.bytes} bytes.`;
}

/** The body of a comparison page. */
export function comparisonPageBody(input: ComparisonPageInput): Markup {
  const c = input.comparison;
  const [first] = input.reports;
  const sides: Side[] = [
    { label: c.names.base, m: input.base },
    { label: c.names.cand, m: input.cand },
  ];
  // A threshold drawn on the per-query bars only when both sides were judged against the same one.
  const thresholds = new Set(input.reports.map((r) => r.settings.triggerThreshold));
  const threshold = thresholds.size === 1 ? first?.settings.triggerThreshold : undefined;
  const skills = [...new Set(input.reports.map((r) => r.skill))];
  const dates = [...new Set(input.reports.map((r) => utcDate(r.createdAt)))];
  return html`<header><h1>skilltrigger: ${skills.join(' / ')}</h1><p class="muted">${dates.join(' / ')} · ${c.names.base} → ${c.names.cand}${c.mode === 'paired' ? ' · measured paired, interleaved' : ''}</p></header>
${
  c.warnings.length > 0
    ? html`<div class="banner" role="alert"><strong>${c.warnings.length === 1 ? '1 warning' : `${c.warnings.length} warnings`}</strong>: read these before the numbers.<ul>${c.warnings.map((w) => html`<li>${w.message} <span class="muted mono">${w.code}</span></li>`)}</ul></div>`
    : ''
}
${banners(input.reports, sides)}
${pairedModelsSection(input.byModel)}
<p class="headline">Overall${input.byModel ? ', all models pooled' : ''}: ${labelBadge(c.label)}</p>
<p>${descriptionLine(c)}</p>
<ul>${sides.flatMap((s) =>
    (hasSeveralModels(s.m) ? headlineLines(s.m) : [headline(s.m)]).map(
      (l) => html`<li>${s.label}: ${l}</li>`,
    ),
  )}</ul>
${totalsSection(c)}
${queriesSection(input, threshold)}
<section id="environment"><h2>Environment</h2>${
    input.reports.length === 1 && first
      ? environmentFacts(first, sides)
      : input.reports.map(
          (r, i) => html`<h3>${sides[i]?.label}</h3>${environmentFacts(r, [{ m: r.candidate }])}`,
        )
  }</section>`;
}
