/**
 * The Markdown both the PR comment and the job summary are built from: a section per skill with
 * its tables (the per-query one is query-table.ts; the run's headline and footer, run-blocks.ts).
 * Pure. Every string that came from a user (skill names, paths, queries, notes, model names,
 * reasons quoting files) goes through `escapeInline`; nothing user-made is put in a code span (code
 * spans do not read escapes). Commit shas are checked to be hex first (safe-text.ts).
 */

import { asAgentsReport, comparesByAgent } from '../../compare/by-agent.js';
import type { ClassComparison } from '../../compare/compare.js';
import { escapeInline } from '../../escape.js';
import { points, markdownTable as table, utcDate } from '../../format.js';
import { hasSeveralModels, POOLED_MARK } from '../../report/headline.js';
import { listingWarnings } from '../../report/listing-text.js';
import type { Measurement, Report } from '../../schemas/report.js';
import {
  type ActionRun,
  type BaselineUse,
  type MeasuredSkill,
  type SkillChange,
  type SkillResult,
  type SkillStanding,
  type SkipReason,
  standingOf,
} from '../results/results.js';
import { counts, labelCell, standingText } from './cells.js';
import { competitionLines } from './competition-lines.js';
import { lateLines } from './cost-lines.js';
import { listingStateLines } from './listing-lines.js';
import { modelComparisonTable } from './model-table.js';
import { queryRows, type SectionLimits, subjectName } from './query-table.js';
import { escapeLineStart, sentence, shortSha } from './safe-text.js';
import { placedSubsetRows, subsetRows } from './subset-rows.js';

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

/** Where the baseline came from, in one or two plain sentences. */
export function baselineText(use: BaselineUse, baseSha: string | undefined, drift = false): string[] {
  switch (use.kind) {
    case 'cache': {
      const when = `measured ${utcDate(use.createdAt)}`;
      if (drift) {
        // A drift run's baseline is the last one stored, whatever commit it measured; the
        // environment's changes are the drift issue's subject, listed under Warnings.
        return [
          `Baseline: the last report stored for this skill, from commit ${shortSha(use.sha)} (${when}).`,
        ];
      }
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

function totalsTable(run: ActionRun, s: MeasuredSkill, baseline: Measurement | undefined): string[] {
  const subject = subjectName(run);
  const m = s.report.candidate;
  const t = m.totals;
  const c = s.comparison;
  if ((!c || !baseline) && m.byModel && hasSeveralModels(m)) return modelsTotalsTable(m);
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
    `${points(x.deltaRate)}${x.interval === null ? '' : ` (95% ${points(x.interval.lower)} to ${points(x.interval.upper)})`}`,
    labelCell(x.label),
  ];
  // The two deciding rows, each with its interval; the subsets folded unless train and holdout disagree.
  const header = ['', 'Baseline', subject, 'Change', 'Label'];
  const subsets = placedSubsetRows(c, header);
  return [
    ...table(header, [
      classRow('Positives triggered (should load)', c.positives),
      classRow('Negatives fired (should not load)', c.negatives),
      ...subsets.inTable,
      ['Lost runs (counted apart)', lostCell(baseline), lostCell(m), '', ''],
    ]),
    ...(subsets.disagree.length > 0
      ? [
          '',
          `⚠️ Train and holdout disagree on the ${subsets.disagree.join(' and ')}: the description may fit the queries it was tuned on better than new ones.`,
        ]
      : []),
    ...(subsets.folded.length > 0 ? ['', ...subsets.folded] : []),
  ];
}

/**
 * Several models without a baseline: a column per model with its own counts and passes, then the
 * pooled column, marked as never deciding (a pooled count describes no model).
 */
function modelsTotalsTable(m: Measurement): string[] {
  const models = Object.entries(m.byModel ?? {});
  const t = m.totals;
  const column = (x: Measurement['totals']) => [
    counts(x.positives.triggered, x.positives.runs),
    counts(x.negatives.fired, x.negatives.runs),
    `${x.passed}/${x.queries}`,
    `${x.timeouts} timeout${x.timeouts === 1 ? '' : 's'}, ${x.errors} error${x.errors === 1 ? '' : 's'}`,
  ];
  // A pooled pass count would describe no model: left blank.
  const pooled = column(t).map((cell, row) => (row === 2 ? '—' : cell));
  const columns = [...models.map(([, own]) => column(own.totals)), pooled];
  const titles = [
    'Positives triggered (should load)',
    'Negatives fired (should not load)',
    'Queries pass',
    'Lost runs (counted apart)',
  ];
  return table(
    ['', ...models.map(([model]) => escapeInline(model)), POOLED_MARK],
    titles.map((title, row) => [title, ...columns.map((col) => col[row] ?? '')]),
  );
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
  return lines.concat(measuredLines(run, bySplit(s), limits, compact));
}

/**
 * Several agents read as several models (compare/by-agent.ts): each agent's own columns in the
 * totals and the per-query table, as several models get theirs.
 */
function bySplit(s: MeasuredSkill): MeasuredSkill & { split: 'Model' | 'Agent' } {
  if (!comparesByAgent(s.report)) return { ...s, split: 'Model' };
  return {
    ...s,
    report: asAgentsReport(s.report),
    ...(s.baselineReport ? { baselineReport: asAgentsReport(s.baselineReport) } : {}),
    split: 'Agent',
  };
}

function measuredLines(
  run: ActionRun,
  s: MeasuredSkill & { split: 'Model' | 'Agent' },
  limits: SectionLimits,
  compact: boolean,
): string[] {
  const lines: string[] = [];
  const baseline = baselineMeasurement(s);
  lines.push(`${escapeLineStart(s.file)} (${changeText(s.change, s.previousPath)})`, '');
  const said = [
    // How the PR's stub was listed comes first: listed name-only, the rate is the name's.
    ...listingWarnings(s.report.candidate).map((w) => `**${w}**`),
    // Under a roster, how the skill is listed there; a description that goes name-only regressed.
    ...listingStateLines(s, subjectName(run).replace(/^This/, 'this')),
    ...noVerdictText(s.report),
    ...(s.baseline ? baselineText(s.baseline, run.baseSha, run.drift !== undefined) : []),
    ...savedText(s, run.headSha),
  ];
  if (said.length > 0) lines.push(...said.flatMap((line) => [line, '']));
  if (s.byModel && s.byModel.length > 0) {
    // Each model's own comparison decides; the pooled totals follow, marked as never deciding.
    const title = s.split === 'Agent' ? 'Agent by agent:' : 'Model by model:';
    const pooled = s.split === 'Agent' ? POOLED_MARK.replaceAll('model', 'agent') : POOLED_MARK;
    lines.push(title, '', ...modelComparisonTable(s.byModel, s.split), '', `Totals, ${pooled}:`, '');
  }
  lines.push(...totalsTable(run, s, baseline));
  const competition = competitionLines(s.report, [
    { label: 'Baseline', m: baseline },
    { label: subjectName(run), m: s.report.candidate },
  ]);
  if (competition.length > 0) lines.push('', ...competition);
  // `late`: the misses that loaded the skill later, where the CLI's Markdown says it.
  const late = lateLines([
    { label: 'Baseline', m: baseline },
    { label: subjectName(run), m: s.report.candidate },
  ]);
  if (late.length > 0) lines.push('', ...late);
  lines.push(...warningLines(s));
  if (!compact) lines.push('', ...queryRows(run, s, baseline, limits));
  return lines;
}
