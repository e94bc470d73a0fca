import { sessionCostText } from '../../improve/cost-text.js';
import { RECOMMENDATION_TEXT } from '../../improve/recommendation.js';
import type { CandidateRecord, ImproveReport } from '../../schemas/improve.js';
import { intervalText, percent, rateBar, rateInterval } from './charts.js';
import { improveChart, improveLegend, winnerIteration } from './improve-chart.js';
import { html, type Markup } from './markup.js';
import { labelBadge, simulatedBanner, utcDate } from './parts.js';

/**
 * The page of an `improve` session (`<date>-<skill>-improve.html`, beside its JSON). Like that
 * JSON it holds the description texts, the original and every candidate (docs/author-loop.md), and says so
 * first. Then the recommendation with the holdout check (and what the session spent, of its
 * `--max-cost-usd` budget, as the Markdown says it), the train rates of every candidate over
 * the iterations with the accepted path, and each candidate's text, figures and reason. Every
 * text is escaped by `html`.
 */

type Figures = ImproveReport['original']['train'];

function rateCell(hits: number, runs: number): Markup {
  if (runs === 0) return html`<span class="muted">no measured run</span>`;
  return html`${hits}/${runs} (${percent(hits / runs)}) <span class="muted">${intervalText(rateInterval(hits, runs))}</span>`;
}

/** Both classes of one description's figures: a bar and the numbers each. */
function figuresCell(f: Figures, tone?: 'base'): Markup {
  const one = (name: string, c: { hits: number; runs: number }, verb: string) =>
    html`<div class="side"><span>${name}</span>${rateBar({ hits: c.hits, runs: c.runs, verb, ...(tone ? { tone } : {}) })}<span></span><span class="num">${rateCell(c.hits, c.runs)}</span></div>`;
  return html`${one('positives', f.positives, 'triggered')}${one('negatives', f.negatives, 'fired')}`;
}

function decisionBadge(c: CandidateRecord): Markup {
  return c.decision === 'accepted'
    ? html`<span class="badge good">accepted</span>`
    : html`<span class="badge bad">rejected</span>`;
}

const PROPOSAL_WORDS: Record<CandidateRecord['proposal'], string> = {
  measured: 'measured',
  'no-answer': 'no answer',
  invalid: 'invalid',
  repeat: 'a repeat',
};

function candidateRow(c: CandidateRecord, winnerAt: number | null): Markup {
  return html`<tr>
<td class="num">${c.iteration}${c.iteration === winnerAt ? html`<div class="muted">winner</div>` : ''}</td>
<td>${c.description === null ? html`<span class="muted">no text proposed</span>` : html`<div class="description-text">${c.description}</div>`}</td>
<td>${c.train ? figuresCell(c.train.incumbent, 'base') : html`<span class="muted">not measured (${PROPOSAL_WORDS[c.proposal]})</span>`}</td>
<td>${c.train ? figuresCell(c.train.candidate) : ''}</td>
<td>${c.label === null ? '' : labelBadge(c.label)}${c.pValue === null ? '' : html`<div class="num muted">p = ${c.pValue.toPrecision(3)}</div>`}</td>
<td>${decisionBadge(c)}<div class="reason">${c.reason}</div></td>
</tr>`;
}

function recommendationSection(report: ImproveReport): Markup {
  const f = report.final;
  const holdout = f.holdout;
  // The Markdown's cost line, word for word, in the same place: after the stop reason.
  const cost = sessionCostText(report);
  return html`<section id="recommendation"><h2>Recommendation</h2>
<p class="headline">${RECOMMENDATION_TEXT[f.recommendation]}</p>
${f.winner === null ? '' : html`<p>Winner:</p><div class="description-text quote">${f.winner}</div>`}
${
  holdout
    ? html`<table class="holdout"><thead><tr><th>Holdout, measured paired</th><th>Original</th><th>Winner</th><th>Label</th></tr></thead><tbody><tr><td>${holdout.reason}</td><td>${figuresCell(holdout.original, 'base')}</td><td>${figuresCell(holdout.winner)}</td><td>${labelBadge(holdout.label)}</td></tr></tbody></table>`
    : ''
}
${f.written ? html`<p>SKILL.md was updated with the winner (--write).</p>` : ''}
<p>Stopped: ${report.stopReason}.</p>
${cost === null ? '' : html`<p class="cost">${cost}</p>`}</section>`;
}

function settingsFacts(report: ImproveReport): Markup {
  const s = report.settings;
  const q = report.queries;
  const facts: [string, string][] = [
    ['Tool', `skilltrigger ${report.tool.version}`],
    ['Model', s.model ?? 'the CLI default'],
    [
      'Settings',
      [
        s.runsMode === 'auto'
          ? `up to ${s.runsPerQuery} runs per query (auto)`
          : `${s.runsPerQuery} runs per query`,
        `at most ${s.iterations} rewrites`,
        `trigger threshold ${s.triggerThreshold}`,
        `stub as a ${s.stub}`,
      ].join(' · '),
    ],
    [
      'Acceptance',
      `paired train comparison with the incumbent an improvement at α = ${Number(s.proposalAlpha.toPrecision(3))} (the session's ${s.sessionAlpha} over ${s.iterations} rewrites), no regression in either class`,
    ],
    [
      'Queries',
      `train ${q.train.positives} positives + ${q.train.negatives} negatives; holdout ${q.holdout.positives} + ${q.holdout.negatives} (never shown to the rewriter)`,
    ],
    ['Created', report.createdAt],
  ];
  return html`<dl class="facts">${facts.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>`;
}

/** The body of an improve page. */
export function improvePageBody(report: ImproveReport): Markup {
  const winnerAt = winnerIteration(report);
  const accepted = report.candidates.filter((c) => c.decision === 'accepted').length;
  return html`<header><h1>skilltrigger improve: ${report.skill}</h1><p class="muted">${utcDate(report.createdAt)} · ${report.candidates.length} candidates, ${accepted} accepted</p></header>
<div class="banner" role="note"><strong>Holds description texts.</strong> ${report.notice}</div>
${report.simulated ? simulatedBanner() : ''}
${recommendationSection(report)}
<section id="iterations"><h2>Train rates over the iterations</h2>
<p class="muted">Each candidate was measured paired with the incumbent on the train queries; the holdout was measured for the original and, at the end, for the winner against the original.</p>
${improveLegend()}
<div class="charts"><figure><figcaption>Positives triggered (higher is better)</figcaption>${improveChart(report, 'positives')}</figure><figure><figcaption>Negatives fired (lower is better)</figcaption>${improveChart(report, 'negatives')}</figure></div>
</section>
<section id="original"><h2>Original</h2><div class="description-text quote">${report.original.description}</div>
<table><thead><tr><th>Train</th><th>Holdout</th></tr></thead><tbody><tr><td>${figuresCell(report.original.train, 'base')}</td><td>${figuresCell(report.original.holdout, 'base')}</td></tr></tbody></table></section>
<section id="candidates"><h2>Candidates</h2>
${
  report.candidates.length === 0
    ? html`<p class="muted">None.</p>`
    : html`<table><thead><tr><th>#</th><th>Description</th><th>Incumbent, train</th><th>Candidate, train</th><th>Label</th><th>Decision</th></tr></thead><tbody>
${report.candidates.map((c) => candidateRow(c, winnerAt))}
</tbody></table>`
}</section>
<section id="environment"><h2>Settings</h2>${settingsFacts(report)}</section>`;
}
