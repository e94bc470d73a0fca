import { chartLabel, escapeInline } from '../../escape.js';
import { judgeDrift } from '../results/drift.js';
import type { ActionRun, MeasuredSkill, SkillResult } from '../results/results.js';
import { assembleBody, firstComparison } from './comment.js';
import { routingRows } from './competition-lines.js';
import { DRIFT_UNMEASURED, driftSummaryLines } from './drift-issue.js';
import { routingMatrixSection, SUMMARY_MATRIX_LIMITS } from './matrix-section.js';
import type { SectionLimits } from './query-table.js';
import { footer, runHead } from './run-blocks.js';
import { skillSection } from './skill-section.js';

/**
 * The job summary (pure): the comment's tables with more rows, plus a chart of each skill's
 * per-query trigger rates, baseline against this run. It is the only output a fork PR gets, so it
 * says everything the comment would.
 */

export const SUMMARY_LIMITS: SectionLimits = { queryRows: 200, queryChars: 160 };
/** GitHub refuses a step summary over 1 MiB (GitHub's limit); this leaves room to spare. */
export const SUMMARY_BUDGET = 900_000;
/** More bars than this make the chart unreadable. */
export const CHART_MAX_QUERIES = 40;

interface ChartPoint {
  id: string;
  shouldTrigger: boolean;
  base?: number;
  cand: number;
}

function rate(hits: number, runs: number): number {
  return runs === 0 ? 0 : Math.round((100 * hits) / runs);
}

function chartPoints(s: MeasuredSkill): { points: ChartPoint[]; withBaseline: boolean } {
  if (s.comparison) {
    return {
      withBaseline: true,
      points: s.comparison.rows.map((r) => ({
        id: r.id,
        shouldTrigger: r.shouldTrigger,
        base: rate(r.base.hits, r.base.runs),
        cand: rate(r.cand.hits, r.cand.runs),
      })),
    };
  }
  return {
    withBaseline: false,
    points: s.report.candidate.queries.map((q) => ({
      id: q.id,
      shouldTrigger: q.shouldTrigger,
      cand: rate(q.hits, q.runs),
    })),
  };
}

/** A mermaid xychart of per-query trigger rates: bars for the baseline, a line for this run (pure). */
export function rateChart(s: MeasuredSkill, max = CHART_MAX_QUERIES): string[] {
  const { points, withBaseline } = chartPoints(s);
  if (points.length === 0) return [];
  const shown = points.slice(0, max);
  // `+` marks a query that should load the skill (high is good), `-` one that should not (low is good).
  const labels = shown.map((p) => `"${p.shouldTrigger ? '+' : '-'}${chartLabel(p.id)}"`).join(', ');
  const series = withBaseline
    ? [
        `    bar [${shown.map((p) => p.base ?? 0).join(', ')}]`,
        `    line [${shown.map((p) => p.cand).join(', ')}]`,
      ]
    : [`    bar [${shown.map((p) => p.cand).join(', ')}]`];
  const more = points.length - shown.length;
  return [
    '```mermaid',
    'xychart-beta',
    `    title "${chartLabel(s.skill, 64)}: trigger rate per query (%)"`,
    `    x-axis [${labels}]`,
    '    y-axis "triggered (%)" 0 --> 100',
    ...series,
    '```',
    '',
    (withBaseline ? 'Bars: baseline · line: this run. ' : 'Bars: this run. ') +
      '`+` marks a query that should load the skill (high is good), `-` one that should not (low is good).' +
      (more > 0 ? ` The first ${shown.length} of ${points.length} queries are shown.` : ''),
  ];
}

function section(run: ActionRun, s: SkillResult, compact: boolean): string {
  const lines = skillSection(run, s, SUMMARY_LIMITS, compact);
  // Where this skill's runs went among its siblings, as the rows of the routing matrix (docs/matrix.md).
  if (!compact && s.kind === 'measured') {
    const routing = routingRows(s.report, s.skill);
    if (routing.length > 0) lines.push('', ...routing);
  }
  // A report without a verdict has no rates worth drawing; its table already says why.
  if (!compact && s.kind === 'measured' && s.report.verdict === 'ok') lines.push('', ...rateChart(s));
  return lines.join('\n');
}

/**
 * The eval sets' findings in one line (`check`'s weak-set rules, each annotated on its eval set),
 * or empty: `Eval-set findings …: alpha: few-positives, no-holdout · beta: no-near-miss`.
 */
export function evalFindingsLine(run: ActionRun): string {
  const found = run.evalSetFindings ?? [];
  if (found.length === 0) return '';
  const each = found.map((f) => `${escapeInline(f.skill)}: ${f.codes.join(', ')}`).join(' · ');
  return `Eval-set findings (each annotated on its eval set; \`skilltrigger check\` explains them): ${each}`;
}

export function renderSummary(run: ActionRun, toolVersion: string): string {
  const findings = evalFindingsLine(run);
  // mode: drift: what moved against the stored baselines, and what became of the issue and the baselines.
  const drift = run.drift
    ? `\n\n${(run.stage === 'measured' ? driftSummaryLines(run, judgeDrift(run, run.drift.accept)) : DRIFT_UNMEASURED).join('\n')}`
    : '';
  const head = `${runHead(run, '## skilltrigger')}${findings === '' ? '' : `\n\n${findings}`}${drift}`;
  const foot = footer(run, firstComparison(run), toolVersion);
  const sections = run.skills.map((s) => ({
    full: section(run, s, false),
    compact: section(run, s, true),
    name: escapeInline(s.kind === 'measured' || s.kind === 'not-run' ? s.skill : (s.skill ?? s.file)),
  }));
  // routing-matrix: the repository's matrix after the skills (its rows of the changed skills at least).
  const matrix = routingMatrixSection(run, SUMMARY_MATRIX_LIMITS).join('\n');
  return assembleBody({ head, sections, matrix, foot }, SUMMARY_BUDGET, 'see the report files');
}
