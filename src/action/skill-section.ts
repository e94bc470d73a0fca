import type { ClassComparison, Comparison, QueryComparison } from '../compare/compare.js';
import { labelText } from '../compare/render.js';
import { formatUsd } from '../cost/cost.js';
import { markdownTable as table, utcDate } from '../format.js';
import { maskSecrets } from '../mask.js';
import { escapeInline, truncate } from '../report/escape.js';
import { OUTCOME_LEGEND, outcomeSymbols } from '../report/markdown.js';
import type { Measurement, ModelCounts, QueryResult, Report } from '../report/schema.js';
import { counts, labelCell, pp } from './cells.js';
import type { SkillChange, SkipReason } from './changed-skills.js';
import { competitionLines } from './competition-lines.js';
import { budgetFooterText, budgetRefusalBlock, lateLines } from './cost-lines.js';
import { modelComparisonTable } from './model-compare.js';
import {
  type ActionRun,
  type BaselineUse,
  type MeasuredSkill,
  type SkillResult,
  type SkillStanding,
  standingOf,
  standingText,
} from './results.js';
import { comparedSubsetRows, subsetRows } from './subset-rows.js';

/**
 * The Markdown both the PR comment and the job summary are built from: a headline, and a section
 * per skill with its table. Pure. Every string that came from a user (skill names, paths, queries,
 * notes, model names, reasons quoting files) goes through `escapeInline`; nothing user-made is put
 * in a code span (code spans do not read escapes). Commit shas are checked to be hex first.
 */

/** How much of each skill a rendering shows. */
export interface SectionLimits {
  /** Per-query rows shown (the rest are counted). */
  queryRows: number;
  /** A query's text is cut to this many characters. */
  queryChars: number;
}

const HEX = /^[0-9a-f]{7,64}$/i;

/**
 * User text that starts a Markdown line (a list item's text, a paragraph): `escapeInline` keeps it
 * inline only after other text, so here the openers it leaves alone at a block start are broken
 * too — `1. `/`1) ` (an ordered list), `+ ` (a bullet list) and leading spaces (indented code).
 */
export function escapeLineStart(text: string): string {
  return escapeInline(text.trimStart())
    .replace(/^(\d+)([.)])/, '$1\\$2')
    .replace(/^\+/, '\\+');
}

/** A commit as `abc1234` in a code span, or nothing when it is not a sha (so no user text reaches a code span). */
export function shortSha(sha: string | undefined): string {
  return sha !== undefined && HEX.test(sha) ? `\`${sha.slice(0, 7)}\`` : 'an unknown commit';
}

const STANDING_MARK: Record<SkillStanding, string> = {
  regression: '❌',
  improvement: '✅',
  noise: '➖',
  'no-verdict': '⚠️',
  'no-baseline': 'ℹ️',
  measured: '📏',
  'not-measured': '⏭️',
  invalid: '⛔',
};

function changeText(change: SkillChange, previousPath: string | undefined): string {
  switch (change) {
    case 'added':
      return 'added';
    case 'modified':
      return 'modified';
    case 'renamed':
      return previousPath === undefined ? 'renamed' : `renamed from ${escapeInline(previousPath)}`;
    case 'removed':
      return 'removed';
    case 'all':
      return 'every skill measured';
  }
}

export function skipText(reason: SkipReason): string {
  switch (reason) {
    case 'body-only':
      return 'only the body changed; the name, description and when_to_use the model reads are the same, so there is nothing to measure';
    case 'renamed-unchanged':
      return 'moved without a change to what the model reads; nothing to measure';
    case 'removed':
      return 'the skill was removed; nothing to measure';
  }
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** Where the baseline came from, in one or two plain sentences. */
export function baselineText(use: BaselineUse, baseSha: string | undefined): string[] {
  switch (use.kind) {
    case 'cache': {
      const when = `measured ${utcDate(use.createdAt)}`;
      const lines = [
        use.hit === 'exact'
          ? `Baseline: the report cached for the base commit ${shortSha(use.sha ?? baseSha)} (${when}).`
          : `Baseline: the newest report cached for this skill, from commit ${shortSha(use.sha)} (${when}); the base commit ${shortSha(baseSha)} has none of its own.`,
      ];
      if (use.stale) {
        lines.push(
          '⚠️ That report measured another description than the base branch holds, so the change shown is not this PR’s alone. `baseline: measure` re-measures the base in the same job.',
        );
      }
      if (use.drift.length > 0) {
        lines.push(
          '⚠️ This run’s environment differs from the baseline’s (see Warnings), so the numbers may differ for that reason alone. `baseline: measure` measures both in this job.',
        );
      }
      return lines;
    }
    case 'paired':
      return [
        `Baseline: the base branch’s description, measured in this job interleaved with this PR’s (paired), because ${sentence(escapeInline(use.why))}`,
      ];
    case 'none':
      return [`**No baseline:** ${sentence(escapeInline(use.why))}`];
  }
}

function savedText(s: MeasuredSkill, headSha: string | undefined): string[] {
  if (!s.saved) return [];
  return s.saved.saved
    ? [`Saved as the baseline for commit ${shortSha(headSha)} (cache key ${escapeInline(s.saved.key)}).`]
    : [`Not saved as a baseline: ${sentence(escapeInline(s.saved.why))}`];
}

function noVerdictText(report: Report): string[] {
  if (report.verdict !== 'no-verdict') return [];
  const reasons = [...report.candidate.noVerdictReasons, ...(report.baseline?.noVerdictReasons ?? [])];
  const why = [...new Set(reasons)].map(escapeInline).join('; ') || 'too many runs were lost';
  return [`**No verdict: this is not a measurement.** ${sentence(why)}`];
}

function lostCell(m: Measurement): string {
  const t = m.totals;
  return `${t.timeouts} timeout${t.timeouts === 1 ? '' : 's'}, ${t.errors} error${t.errors === 1 ? '' : 's'}`;
}

/** The baseline measurement a comparison used: a paired report's own, or the cached report's. */
function baselineMeasurement(s: MeasuredSkill): Measurement | undefined {
  return s.report.baseline ?? s.baselineReport?.candidate;
}

/** What the measured side is called: the PR, or the commit a push measured. */
export function subjectName(run: ActionRun): string {
  return run.event === 'pull_request' ? 'This PR' : 'This commit';
}

function totalsTable(run: ActionRun, s: MeasuredSkill, baseline: Measurement | undefined): string[] {
  const subject = subjectName(run);
  const m = s.report.candidate;
  const t = m.totals;
  const c = s.comparison;
  if (!c || !baseline) {
    return table(
      ['', subject],
      [
        ['Positives triggered (should load)', counts(t.positives.triggered, t.positives.runs)],
        ['Negatives fired (should not load)', counts(t.negatives.fired, t.negatives.runs)],
        ...subsetRows(m),
        ['Lost runs (counted apart)', lostCell(m)],
      ],
    );
  }
  const classRow = (title: string, x: ClassComparison): string[] => [
    x.queries === 0 ? `${title}, none shared` : title,
    counts(x.base.hits, x.base.runs),
    counts(x.cand.hits, x.cand.runs),
    pp(x.deltaRate),
    labelCell(x.label),
  ];
  return table(
    ['', 'Baseline', subject, 'Change', 'Label'],
    [
      classRow('Positives triggered (should load)', c.positives),
      classRow('Negatives fired (should not load)', c.negatives),
      ...comparedSubsetRows(c),
      ['Lost runs (counted apart)', lostCell(baseline), lostCell(m), '', ''],
    ],
  );
}

function queryCell(q: QueryResult | undefined, hits: number, runs: number): string {
  if (q && q.outcomes.length === 0) return 'not run';
  const symbols = q ? `${outcomeSymbols(q.outcomes)} ` : '';
  return `${symbols}${hits}/${runs}`;
}

/** One model's hits/runs of a query, its lost and late runs noted. */
function modelCell(c: ModelCounts | undefined): string {
  if (!c) return '–';
  const lost = c.timeouts + c.errors;
  return `${c.hits}/${c.runs}${lost > 0 ? `, ${lost} lost` : ''}${c.late > 0 ? `, ${c.late} late` : ''}`;
}

function queryRows(
  run: ActionRun,
  s: MeasuredSkill,
  baseline: Measurement | undefined,
  limits: SectionLimits,
): string[] {
  const subject = subjectName(run);
  const cand = s.report.candidate.queries;
  // Masked before it is escaped and cut: `\_` or a cut would hide a key from the mask of the whole body.
  const text = (query: string) => truncate(escapeInline(maskSecrets(query)), limits.queryChars);
  const rows: string[][] = [];
  let total: number;
  if (s.comparison && baseline) {
    const baseByQuery = new Map(baseline.queries.map((q) => [q.query, q]));
    const candByQuery = new Map(cand.map((q) => [q.query, q]));
    const compared: readonly QueryComparison[] = s.comparison.rows;
    total = compared.length;
    // Several models compared model by model: a column per model, baseline → this side (issue 14).
    const models = s.byModel && s.byModel.length > 0 ? s.byModel.map((m) => m.model) : [];
    for (const r of compared.slice(0, limits.queryRows)) {
      const b = baseByQuery.get(r.query);
      const c = candByQuery.get(r.query);
      rows.push([
        escapeInline(r.id),
        text(r.query),
        r.shouldTrigger ? 'yes' : 'no',
        queryCell(b, r.base.hits, r.base.runs),
        queryCell(c, r.cand.hits, r.cand.runs),
        ...models.map((m) => `${modelCell(b?.byModel?.[m])} → ${modelCell(c?.byModel?.[m])}`),
        r.label === 'regression' ? '**regression**' : labelText(r.label),
      ]);
    }
    const header = ['Id', 'Query', 'Should load', 'Baseline', subject, ...models.map(escapeInline), 'Label'];
    return wrapDetails(table(header, rows), total, rows.length);
  }
  total = cand.length;
  // Several models (`models`): one column per model, each with that model's hits/runs.
  const models = s.report.settings.models ?? [];
  for (const q of cand.slice(0, limits.queryRows)) {
    rows.push([
      escapeInline(q.id),
      text(q.query),
      q.shouldTrigger ? 'yes' : 'no',
      ...(models.length > 1 ? models.map((m) => modelCell(q.byModel?.[m])) : [queryCell(q, q.hits, q.runs)]),
      q.pass === null ? '–' : q.pass ? 'pass' : '**fail**',
    ]);
  }
  const columns = models.length > 1 ? models.map(escapeInline) : [subject];
  return wrapDetails(table(['Id', 'Query', 'Should load', ...columns, 'Pass'], rows), total, rows.length);
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

function warningLines(s: MeasuredSkill): string[] {
  const warnings = [...(s.comparison?.warnings.map((w) => w.message) ?? []), ...s.warnings];
  if (warnings.length === 0) return [];
  return ['', 'Warnings:', ...[...new Set(warnings)].map((w) => `- ${escapeLineStart(w)}`)];
}

export function skillHeading(s: SkillResult): string {
  const standing = standingOf(s);
  const name = s.kind === 'measured' || s.kind === 'not-run' ? s.skill : (s.skill ?? s.file);
  return `### ${STANDING_MARK[standing]} ${escapeInline(name)} · ${standingText(standing)}`;
}

/** One skill's section; `compact` leaves out the per-query table. */
export function skillSection(
  run: ActionRun,
  s: SkillResult,
  limits: SectionLimits,
  compact = false,
): string[] {
  const lines = [skillHeading(s), ''];
  switch (s.kind) {
    case 'skipped':
      lines.push(
        `${escapeLineStart(s.file)} (${changeText(s.change, s.previousPath)}): ${skipText(s.reason)}.`,
      );
      return lines;
    case 'invalid':
      lines.push(`${escapeLineStart(s.file)}: nothing was measured because of these input problems:`, '');
      lines.push(...s.problems.map((p) => `- ${escapeLineStart(p)}`));
      return lines;
    case 'not-run':
      lines.push(`${escapeLineStart(s.file)}: not measured, the run stopped before this skill (see above).`);
      return lines;
    case 'measured':
      break;
  }
  const baseline = baselineMeasurement(s);
  lines.push(`${escapeLineStart(s.file)} (${changeText(s.change, s.previousPath)})`, '');
  const said = [
    ...noVerdictText(s.report),
    ...(s.baseline ? baselineText(s.baseline, run.baseSha) : []),
    ...savedText(s, run.headSha),
  ];
  if (said.length > 0) lines.push(...said.flatMap((line) => [line, '']));
  lines.push(...totalsTable(run, s, baseline));
  if (s.byModel && s.byModel.length > 0)
    lines.push('', 'Model by model:', '', ...modelComparisonTable(s.byModel));
  const competition = competitionLines(s.report, [
    { label: 'Baseline', m: baseline },
    { label: subjectName(run), m: s.report.candidate },
  ]);
  if (competition.length > 0) lines.push('', ...competition);
  // `late`: the misses that loaded the skill later, where the CLI's Markdown says it (issue 14).
  const late = lateLines([
    { label: 'Baseline', m: baseline },
    { label: subjectName(run), m: s.report.candidate },
  ]);
  if (late.length > 0) lines.push('', ...late);
  lines.push(...warningLines(s));
  if (!compact) lines.push('', ...queryRows(run, s, baseline, limits));
  return lines;
}

/** `1 regression · 2 noise · 1 not measured` (pure). */
export function tally(run: ActionRun): string {
  const order: SkillStanding[] = [
    'regression',
    'no-verdict',
    'invalid',
    'improvement',
    'noise',
    'no-baseline',
    'measured',
    'not-measured',
  ];
  const counts = new Map<SkillStanding, number>();
  for (const s of run.skills) counts.set(standingOf(s), (counts.get(standingOf(s)) ?? 0) + 1);
  return order
    .filter((k) => (counts.get(k) ?? 0) > 0)
    .map((k) => {
      const text = `${counts.get(k)} ${standingText(k)}`;
      return k === 'regression' || k === 'no-verdict' || k === 'invalid' ? `**${text}**` : text;
    })
    .join(' · ');
}

/** Said first when any number came from the simulated model (tests, demos), so nobody reads it as Claude's. */
export function simulatedBlock(run: ActionRun): string[] {
  if (!run.skills.some((s) => s.kind === 'measured' && s.report.simulated)) return [];
  return [
    '> [!NOTE]',
    "> **Simulated:** these runs were answered by skilltrigger's simulated model, not by Claude. The numbers show the tool at work, not how these descriptions perform.",
  ];
}

/** What stopped the run, as a GitHub alert block (empty when nothing did). */
export function stopBlock(run: ActionRun): string[] {
  if (run.stage === 'gate-failed') {
    const failed = run.gates.filter((g) => g.status === 'fail');
    return [
      '> [!WARNING]',
      '> **Nothing was measured: a gate failed.**',
      ...failed.flatMap((g) => [
        `> - ${escapeInline(g.gate)}: ${sentence(escapeInline(g.reason))}${g.fix ? ` Fix: ${sentence(escapeInline(g.fix))}` : ''}`,
      ]),
    ];
  }
  if (run.stage === 'input-error') {
    const refused = budgetRefusalBlock(run);
    if (refused.length > 0) return refused;
    return ['> [!WARNING]', '> **Nothing was measured: the inputs below have problems.**'];
  }
  return [];
}

/** The models of the measured reports (`models`), when several were measured. */
function modelsText(run: ActionRun): string | undefined {
  const models = [...new Set(measuredReports(run).flatMap((r) => r.settings.models ?? []))];
  return models.length > 1 ? models.map(escapeInline).join(', ') : undefined;
}

function measuredReports(run: ActionRun): Report[] {
  return run.skills.flatMap((s) => (s.kind === 'measured' ? [s.report] : []));
}

/** ` · cost $0.0123 (haiku $0.0040, sonnet $0.0083)` over every measured report, or tokens and "price unknown". */
export function costText(run: ActionRun): string {
  const measurements = measuredReports(run).flatMap((r) => [
    r.candidate,
    ...(r.baseline ? [r.baseline] : []),
  ]);
  const costs = measurements.flatMap((m) => (m.cost ? [m.cost] : []));
  if (costs.length === 0) return '';
  const usd = costs.reduce((n, c) => n + c.usd, 0);
  const byModel: Record<string, number> = {};
  for (const c of costs) for (const [m, v] of Object.entries(c.byModel)) byModel[m] = (byModel[m] ?? 0) + v;
  const unknown = [...new Set(costs.flatMap((c) => c.unknownModels))];
  const split = Object.entries(byModel);
  const perModel =
    split.length > 1 ? ` (${split.map(([m, v]) => `${escapeInline(m)} ${formatUsd(v)}`).join(', ')})` : '';
  const late = measurements.reduce((n, m) => n + (m.totals.late ?? 0), 0);
  const lateText = measurements.some((m) => m.totals.late !== undefined) ? ` · ${late} late loads` : '';
  if (unknown.length === 0) return ` · cost ${formatUsd(usd)}${perModel}${lateText}`;
  const tokens = measurements.reduce(
    (n, m) =>
      n +
      m.totals.usage.inputTokens +
      m.totals.usage.cacheReadInputTokens +
      m.totals.usage.cacheCreationInputTokens +
      m.totals.usage.outputTokens,
    0,
  );
  return ` · cost ${usd > 0 ? `${formatUsd(usd)}${perModel} + ` : ''}price unknown for ${unknown.map(escapeInline).join(', ')} (${tokens.toLocaleString('en-US')} tokens)${lateText}`;
}

/** The footer: what was run, and how labels are decided. */
export function footer(run: ActionRun, comparison: Comparison | undefined, toolVersion: string): string {
  const model = run.settings.model ? escapeInline(run.settings.model) : 'the CLI default model';
  const cli = run.cliVersion ? `Claude Code ${escapeInline(run.cliVersion)}` : 'Claude Code';
  const alpha = comparison ? comparison.method.alpha : 0.05;
  return (
    `<sub>skilltrigger ${escapeInline(toolVersion)} · ${cli} · ${modelsText(run) ?? model} · ${run.settings.runs} run${run.settings.runs === 1 ? '' : 's'} per query${costText(run)}${budgetFooterText(run)}. ` +
    `A change is labelled a regression or an improvement only when an exact test finds it at α = ${alpha}; anything smaller is noise.</sub>`
  );
}
