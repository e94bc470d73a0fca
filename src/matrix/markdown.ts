import { chartLabel, escapeInline } from '../escape.js';
import { launchText, percent } from '../format.js';
import {
  type MatrixReport,
  type MatrixRow,
  type MatrixRun,
  NONE_OTHER,
  type SkillFigures,
  type Stolen,
} from '../schemas/matrix.js';
import type { MatrixProgress } from './plan.js';

/**
 * The Markdown rendering of a matrix report, and its terminal lines (pure). Every name and query
 * is the user's text: it goes through `escapeInline` in the tables and through `chartLabel` into
 * the mermaid chart, which has no escaping of its own.
 */

/** A rate as the one percent rule writes it (src/format.ts), or `–` without one. */
const rateText = (rate: number | null) => (rate === null ? '–' : percent(rate));

/** `3/4 = 75% [30%, 95%]`, or `–  (0 runs)`. */
export function shareText(s: SkillFigures['recall']): string {
  if (s.rate === null || s.interval === null) return `–  (0 runs)`;
  const i = s.interval;
  return `${s.hits}/${s.of} = ${rateText(s.rate)} [${rateText(i.lower)}, ${rateText(i.upper)}]`;
}

/** `3 skills (1 with no eval set) · 14 queries · 28 runs, 1 timeout and 0 errors counted apart`. */
export function matrixHeadline(report: MatrixReport): string {
  const noSet = report.skills.filter((s) => s.evalSet === null).length;
  const t = report.totals;
  return [
    `${report.skills.length} skills${noSet > 0 ? ` (${noSet} with no eval set)` : ''}`,
    `${report.queries.length} queries`,
    `${t.measured} runs measured, ${t.timeouts} timeout${t.timeouts === 1 ? '' : 's'} and ${t.errors} error${t.errors === 1 ? '' : 's'} counted apart`,
  ].join(' · ');
}

/** The terminal's lines: the headline, each skill's recall and precision, and the stolen queries. */
export function matrixTextLines(report: MatrixReport): string[] {
  const lines = [matrixHeadline(report)];
  if (report.shard) lines.push(`leg ${report.shard.index}/${report.shard.count} of a sharded matrix`);
  if (report.verdict === 'no-verdict')
    lines.push(`NO VERDICT — this is not a measurement: ${report.noVerdictReasons.join('; ')}`);
  const width = Math.max(...report.skills.map((s) => s.name.length), 5);
  for (const f of report.figures) {
    const skill = report.skills.find((s) => s.name === f.skill);
    const recall = skill?.evalSet === null ? 'no eval set' : `recall ${shareText(f.recall)}`;
    lines.push(`${f.skill.padEnd(width)}  ${recall} · precision ${shareText(f.precision)}`);
  }
  for (const s of report.stolen)
    lines.push(
      `stolen: ${s.owner}/${s.id} went to ${s.thief} ${s.thiefRuns}/${s.runs}, to ${s.owner} ${s.ownerRuns}/${s.runs}`,
    );
  return lines;
}

/**
 * The matrix as a Markdown table: `rows` (all of them by default) against `columns` (every
 * installed skill by default), then none/other; the diagonal of the positives in bold.
 */
export function matrixTable(
  report: MatrixReport,
  rows: readonly MatrixRow[] = report.rows,
  columns: readonly string[] = report.skills.map((s) => s.name),
): string[] {
  return table(
    ['queries of', 'label', 'runs', ...columns.map(escapeInline), NONE_OTHER],
    rows.map((r) => [
      escapeInline(r.owner),
      r.label,
      String(r.runs),
      ...columns.map((n) => {
        const cell = String(r.cells[n] ?? 0);
        return n === r.owner && r.label === 'positive' ? `**${cell}**` : cell;
      }),
      String(r.noneOther),
    ]),
  );
}

/** The stolen queries as a Markdown table, each query cut to `queryChars`. */
export function stolenTable(stolen: readonly Stolen[], queryChars = Number.POSITIVE_INFINITY): string[] {
  const cut = (text: string) => (text.length > queryChars ? `${text.slice(0, queryChars - 1)}…` : text);
  return table(
    ['owner', 'query', 'taken by', 'runs to the thief', 'runs to the owner', 'runs'],
    stolen.map((s) => [
      escapeInline(s.owner),
      `${escapeInline(s.id)}: ${escapeInline(cut(s.query))}`,
      escapeInline(s.thief),
      String(s.thiefRuns),
      String(s.ownerRuns),
      String(s.runs),
    ]),
  );
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => ' --- ').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ];
}

/** A mermaid flowchart of where each skill's positives went (edges with their runs). */
export function matrixChart(report: MatrixReport): string[] {
  const positives = report.rows.filter((r) => r.label === 'positive');
  if (positives.length === 0) return [];
  const names = report.skills.map((s) => s.name);
  const target = (name: string) => (name === NONE_OTHER ? 'none' : `k${names.indexOf(name)}`);
  const lines = ['```mermaid', 'flowchart LR'];
  for (const row of positives)
    lines.push(`  p${names.indexOf(row.owner)}["${chartLabel(row.owner)} positives"]`);
  for (const [k, name] of names.entries()) lines.push(`  k${k}["${chartLabel(name)}"]`);
  lines.push(`  none["none or other"]`);
  for (const row of positives) {
    const from = `p${names.indexOf(row.owner)}`;
    for (const [name, runs] of [...Object.entries(row.cells), [NONE_OTHER, row.noneOther] as const])
      if (runs > 0) lines.push(`  ${from} -->|${runs}| ${target(name)}`);
  }
  lines.push('```');
  return lines;
}

/** The report as a Markdown page: its head, then one section per part, then the footer. */
export function renderMatrixMarkdown(report: MatrixReport): string {
  const chart = matrixChart(report);
  return [
    ...headSection(report),
    ...skillsSection(report),
    ...matrixSection(report),
    ...figuresSection(report),
    ...stolenSection(report),
    ...(chart.length > 0 ? ['## Where the positives went', '', ...chart, ''] : []),
    `skilltrigger ${escapeInline(report.tool.version)} · Claude CLI ${escapeInline(report.cli.version ?? 'unknown')} · ${report.settings.runsPerQuery} runs per query · ${report.settings.stub} stubs · ${launchText(report.settings.launch)}`,
    '',
  ].join('\n');
}

/** The title, the simulated banner, the headline, the leg or the merge, and why there is no verdict. */
function headSection(report: MatrixReport): string[] {
  const out: string[] = ['# skilltrigger routing matrix', ''];
  if (report.simulated)
    out.push('> **SIMULATED**: these numbers come from the simulated model, not from a real model.', '');
  out.push(escapeInline(matrixHeadline(report)), '');
  if (report.shard) out.push(`Leg ${report.shard.index}/${report.shard.count} of a sharded matrix.`, '');
  if (report.mergedLegs !== undefined) out.push(`Merged from ${report.mergedLegs} legs.`, '');
  if (report.verdict === 'no-verdict') {
    out.push('**No verdict — this is not a measurement:**', '');
    for (const reason of report.noVerdictReasons) out.push(`- ${escapeInline(reason)}`);
    out.push('');
  }
  return out;
}

function skillsSection(report: MatrixReport): string[] {
  return [
    '## Skills',
    '',
    ...table(
      ['skill', 'eval set', 'listed description'],
      report.skills.map((s) => [
        escapeInline(s.name),
        s.evalSet === null
          ? 'no eval set (installed as a competitor)'
          : `${s.evalSet.queries} queries (${s.evalSet.positives} positive, ${s.evalSet.negatives} negative)`,
        `${s.description.bytes} bytes · sha256 ${s.description.sha256.slice(0, 12)}`,
      ]),
    ),
    '',
  ];
}

function matrixSection(report: MatrixReport): string[] {
  return [
    '## Matrix',
    '',
    'Rows: the skill a query belongs to and its label. Columns: which skill each measured run loaded. The diagonal of the positives is what should happen; for negatives, none/other.',
    '',
    ...matrixTable(
      report,
      report.rows,
      report.skills.map((s) => s.name),
    ),
    '',
  ];
}

function figuresSection(report: MatrixReport): string[] {
  return [
    '## Precision and recall',
    '',
    "Recall: runs of the skill's own positives that loaded it. Precision: of every run that loaded the skill, those that were its own positives. Brackets: 95% Wilson interval.",
    '',
    ...table(
      ['skill', 'recall', 'precision'],
      report.figures.map((f) => [
        escapeInline(f.skill),
        report.skills.find((s) => s.name === f.skill)?.evalSet === null ? 'no eval set' : shareText(f.recall),
        shareText(f.precision),
      ]),
    ),
    '',
  ];
}

function stolenSection(report: MatrixReport): string[] {
  if (report.stolen.length === 0)
    return ['## Stolen queries', '', 'No positive loaded another skill more often than its own.', ''];
  return [
    '## Stolen queries',
    '',
    'Positives that loaded another skill more often than their own.',
    '',
    ...stolenTable(report.stolen),
    '',
  ];
}

function wentText(went: MatrixRun): string {
  switch (went.to) {
    case 'skill':
      return `→ ${went.skill}`;
    case 'none-other':
      return '→ none/other';
    case 'lost':
      return went.outcome;
  }
}

/** The per-run progress line (the CLI's stderr, the Action's log): `query 7/20 · alpha · run 2/2 · → beta · 1.4 s`. Pure, for tests. */
export function matrixProgressLine(p: MatrixProgress): string {
  return [
    `query ${p.query + 1}/${p.queries}`,
    p.owner,
    `run ${p.pass + 1}/${p.runsPerQuery}`,
    wentText(p.went),
    `${(p.durationMs / 1000).toFixed(1)} s`,
  ].join(' · ');
}
