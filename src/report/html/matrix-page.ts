import { launchText } from '../../format.js';
import { type MatrixReport, type MatrixRow, NONE_OTHER } from '../../schemas/matrix.js';
import { intervalText, percent, rateBar, rateInterval } from './charts.js';
import { html, type Markup } from './markup.js';
import { simulatedBanner, utcDate } from './parts.js';

/**
 * The page of a routing matrix (`skilltrigger matrix`): a heatmap whose rows are each skill's
 * positives and negatives (the owners) and whose columns are the installed skills a run loaded,
 * plus "none/other"; each skill's recall and precision with their 95% intervals; and the stolen
 * queries, listed. Drawn from the matrix JSON alone: skill names and query texts are the user's
 * own and escaped by `html`; descriptions appear as bytes and SHA-256 only, as in the JSON.
 */

/** Six shades, from an empty cell to every run of the row. */
function heatLevel(cell: number, runs: number): number {
  if (runs === 0 || cell === 0) return 0;
  return Math.max(1, Math.ceil((cell / runs) * 5));
}

function heatCell(cell: number, runs: number, own: boolean): Markup {
  const share = runs === 0 ? '' : ` (${percent(cell / runs)})`;
  return html`<td class="heat h${heatLevel(cell, runs)}${own ? ' own' : ''}"><span class="num">${cell}${share}</span></td>`;
}

function heatRow(row: MatrixRow, columns: readonly string[]): Markup {
  return html`<tr><th>${row.owner}<div class="muted">${row.label === 'positive' ? 'positives' : 'negatives'} · ${row.queries === 1 ? '1 query' : `${row.queries} queries`}, ${row.runs === 1 ? '1 run' : `${row.runs} runs`}</div></th>${columns.map(
    (skill) => heatCell(row.cells[skill] ?? 0, row.runs, skill === row.owner),
  )}${heatCell(row.noneOther, row.runs, false)}</tr>`;
}

function heatmapSection(report: MatrixReport): Markup {
  const columns = report.skills.map((s) => s.name);
  return html`<section id="heatmap"><h2>Where the runs went</h2>
<p class="muted">Rows: each skill's own queries, positives and negatives. Columns: the installed skill a run loaded, or none of them. A cell counts measured runs (its share of the row's); the owner's own column is outlined: there a positive's runs should go, and a negative's should not.</p>
<div class="legend heat-legend">${[0, 1, 2, 3, 4, 5].map(
    (level) =>
      html`<span><span class="swatch heat h${level}"></span>${level === 0 ? 'none' : `up to ${level * 20}%`}</span>`,
  )}<span><span class="swatch own"></span>the owner's own column</span></div>
<table class="heatmap"><thead><tr><th>Owner</th>${columns.map((c) => html`<th>${c}</th>`)}<th>${NONE_OTHER}</th></tr></thead><tbody>
${report.rows.map((row) => heatRow(row, columns))}
</tbody></table></section>`;
}

function shareCell(share: { hits: number; of: number }, verb: string): Markup {
  if (share.of === 0) return html`<span class="muted">nothing to divide by</span>`;
  return html`${rateBar({ hits: share.hits, runs: share.of, verb })}<div class="num">${share.hits}/${share.of} (${percent(share.hits / share.of)}) <span class="muted">${intervalText(rateInterval(share.hits, share.of))}</span></div>`;
}

function figuresSection(report: MatrixReport): Markup {
  const evalSets = new Map(report.skills.map((s) => [s.name, s.evalSet]));
  return html`<section id="figures"><h2>Recall and precision</h2>
<p class="muted">Recall: runs of a skill's own positives that loaded it. Precision: of every measured run that loaded a skill, those that were its own positives. 95% Wilson intervals.</p>
<table><thead><tr><th>Skill</th><th>Recall</th><th>Precision</th></tr></thead><tbody>
${report.figures.map(
  (f) =>
    html`<tr><td>${f.skill}${evalSets.get(f.skill) === null ? html`<div class="muted">no eval set: installed as a competitor</div>` : ''}</td><td>${evalSets.get(f.skill) === null ? html`<span class="muted">no eval set</span>` : shareCell(f.recall, 'loaded it')}</td><td>${shareCell(f.precision, 'were its own positives')}</td></tr>`,
)}
</tbody></table></section>`;
}

function stolenSection(report: MatrixReport): Markup {
  return html`<section id="stolen"><h2>Stolen queries</h2>
${
  report.stolen.length === 0
    ? html`<p class="muted">None: no positive loaded another skill more often than its owner.</p>`
    : html`<p class="muted">Positives that loaded another installed skill more often than their owner.</p>
<table><thead><tr><th>Query</th><th>Owner</th><th>Loaded instead</th><th>Runs: owner / thief / measured</th></tr></thead><tbody>
${report.stolen.map(
  (s) =>
    html`<tr><td><div class="query-text">${s.query}</div><div class="id">${s.id}</div></td><td>${s.owner}</td><td>${s.thief}</td><td class="num">${s.ownerRuns} / ${s.thiefRuns} / ${s.runs}</td></tr>`,
)}
</tbody></table>`
}</section>`;
}

function banners(report: MatrixReport): Markup {
  const out: Markup[] = [];
  if (report.verdict === 'no-verdict') {
    out.push(
      html`<div class="banner stop" role="alert"><strong>No verdict: this is not a measurement.</strong> ${
        report.noVerdictReasons.length > 0 ? report.noVerdictReasons.join('; ') : 'No reason was recorded.'
      }</div>`,
    );
  }
  if (report.simulated) out.push(simulatedBanner());
  if (report.interrupted) {
    out.push(html`<div class="banner">The run was interrupted before every planned run was made.</div>`);
  } else if (report.aborted) {
    out.push(
      html`<div class="banner">The run was stopped early: too many runs were lost for a verdict to be possible.</div>`,
    );
  }
  if (report.shard !== null) {
    out.push(
      html`<div class="banner">This is leg ${report.shard.index} of ${report.shard.count} of a sharded matrix: it holds only that leg's queries.</div>`,
    );
  }
  return html`${out}`;
}

function facts(report: MatrixReport): Markup {
  const s = report.settings;
  const t = report.totals;
  const reported = Object.entries(report.model.reported).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const rows: [string, string][] = [
    ['Tool', `skilltrigger ${report.tool.version} · Claude Code CLI ${report.cli.version ?? 'unknown'}`],
    [
      'Model',
      `requested ${report.model.requested ?? 'the CLI default'} · reported ${
        reported.length === 0 ? 'none' : reported.map(([m, n]) => `${m} (${n} runs)`).join(', ')
      }`,
    ],
    [
      'Runs',
      `${t.executed} of ${t.planned} planned ran, ${t.measured} measured; ${t.timeouts} timed out, ${t.errors} errors (counted apart)`,
    ],
    [
      'Settings',
      `${s.runsPerQuery} runs per query · timeout ${s.timeoutSeconds} s · no verdict above ${percent(s.noVerdictShare)} lost runs · stubs as ${s.stub}s · ${s.maxRetries} API retries · ${launchText(s.launch)}`,
    ],
    ...report.skills.map((skill): [string, string] => [
      skill.name,
      `description ${skill.description.bytes} bytes, SHA-256 ${skill.description.sha256.slice(0, 12)}… · ${
        skill.evalSet === null
          ? 'no eval set'
          : `eval set of ${skill.evalSet.queries} queries (${skill.evalSet.positives} positives, ${skill.evalSet.negatives} negatives)`
      }`,
    ]),
    ...(report.mergedLegs === undefined
      ? []
      : [['Merged', `from ${report.mergedLegs} legs`] as [string, string]]),
    ['Created', report.createdAt],
  ];
  return html`<dl class="facts">${rows.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>`;
}

/** The body of a matrix page. */
export function matrixPageBody(report: MatrixReport): Markup {
  const owners = report.skills.filter((s) => s.evalSet !== null).length;
  return html`<header><h1>skilltrigger matrix</h1><p class="muted">${utcDate(report.createdAt)} · ${report.skills.length} installed skills, ${owners} with an eval set · ${report.queries.length} queries</p></header>
${banners(report)}
${heatmapSection(report)}
${stolenSection(report)}
${figuresSection(report)}
<section id="environment"><h2>Environment</h2>${facts(report)}</section>`;
}
