/**
 * The drift issue and the drift lines of the job summary (pure): which skills moved against their
 * stored baselines and by how much, what changed in the environment between each baseline and this
 * run, what happens to the baselines, and how to accept the change. Skill names, paths and model
 * names are escaped; shas are checked to be hex (safe-text.ts); nothing user-made is in a code span.
 */

import type { ClassComparison } from '../../compare/compare.js';
import { escapeInline } from '../../escape.js';
import { percentOf, points, markdownTable as table, utcDate } from '../../format.js';
import type { DriftFindings, EnvironmentChange, MovedSkill } from '../results/drift.js';
import type { ActionRun } from '../results/results.js';
import { labelCell } from './cells.js';
import { shortSha } from './safe-text.js';
import { linksLine } from './what-moved.js';

/** How many skill names a title spells out before `and N more`. */
const TITLE_NAMES = 3;

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function modelName(model: string | null): string {
  return model === null ? 'the CLI default' : model;
}

/** The environment change in words (plain text; the caller escapes): `model a → b; Claude Code 1 → 2`. */
export function environmentText(e: EnvironmentChange): string {
  const parts: string[] = [];
  if (e.requested)
    parts.push(`model asked for ${modelName(e.requested.before)} → ${modelName(e.requested.after)}`);
  if (e.answering)
    parts.push(
      `model answering ${e.answering.before.join(', ') || 'none reported'} → ${e.answering.after.join(', ') || 'none reported'}`,
    );
  for (const cli of e.cli) parts.push(`${cli.label} ${cli.before ?? 'unknown'} → ${cli.after ?? 'unknown'}`);
  if (e.roster === 'unknown') parts.push('roster not recorded on one side');
  else if (e.roster) parts.push(`roster ${e.roster.added} added, ${e.roster.removed} removed`);
  return parts.length === 0 ? 'no change seen in the model, the CLI or the roster' : parts.join('; ');
}

/** The change a title names: the model's first, then the CLI's, then the roster's. */
function causeText(moved: readonly MovedSkill[]): string {
  const changes = moved.map((m) => m.environment);
  const model = changes.find((e) => e.requested ?? e.answering);
  if (model?.requested)
    return `after the model changed (${modelName(model.requested.before)} → ${modelName(model.requested.after)})`;
  if (model?.answering)
    return `after the model answering changed (${model.answering.before.join(', ') || 'none'} → ${model.answering.after.join(', ') || 'none'})`;
  const cli = changes.flatMap((e) => e.cli)[0];
  if (cli) return `after ${cli.label} ${cli.before ?? 'unknown'} → ${cli.after ?? 'unknown'}`;
  if (changes.some((e) => e.roster !== undefined && e.roster !== 'unknown'))
    return 'after the roster of skills and commands changed';
  return 'with no change seen in the model, the CLI or the roster';
}

/** `skilltrigger drift: handoff and pdf moved after the model changed (a → b)` (plain text, for the issue's title). */
export function driftIssueTitle(findings: DriftFindings): string {
  const names = findings.moved.map((m) => m.skill);
  const shown = names.slice(0, TITLE_NAMES);
  const more = names.length - shown.length;
  const list =
    more > 0
      ? `${shown.join(', ')} and ${more} more`
      : shown.length > 1
        ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`
        : (shown[0] ?? 'no skill');
  return `skilltrigger drift: ${list} moved ${causeText(findings.moved)}`;
}

function classCell(c: ClassComparison): string {
  const delta = c.deltaRate === null ? '' : `, ${points(c.deltaRate)}`;
  return `${c.base.hits}/${c.base.runs} → ${c.cand.hits}/${c.cand.runs} (${percentOf(c.base.hits, c.base.runs)} → ${percentOf(c.cand.hits, c.cand.runs)}${delta}) ${labelCell(c.label)}`;
}

function movedRows(moved: readonly MovedSkill[]): string[] {
  return table(
    ['Skill', 'Positives triggered', 'Negatives fired', 'Baseline', 'What changed since'],
    moved.map((m) => {
      const c = m.result.comparison;
      const use = m.result.baseline;
      const from =
        use?.kind === 'cache' ? `${shortSha(use.sha)}, ${utcDate(use.createdAt)}` : 'the stored baseline';
      return [
        `${m.standing === 'regression' ? '❌' : '✅'} ${escapeInline(m.skill)}`,
        c ? classCell(c.positives) : '–',
        c ? classCell(c.negatives) : '–',
        from,
        escapeInline(environmentText(m.environment)),
      ];
    }),
  );
}

function otherLines(findings: DriftFindings): string[] {
  const names = (list: readonly string[]) => list.map(escapeInline).join(', ');
  return [
    ...(findings.steady.length > 0 ? [`- Noise (no change): ${names(findings.steady)}`] : []),
    ...(findings.fresh.length > 0
      ? [
          `- No stored baseline to compare with, so this run's measurement is their first: ${names(findings.fresh)}`,
        ]
      : []),
    ...(findings.unsettled.length > 0
      ? [
          `- Not judged this run (no verdict, stopped at max-cost-usd, or not measured): ${names(findings.unsettled)}`,
        ]
      : []),
  ];
}

/** ` 1 of 2 could not be saved (see the job summary).`, or empty when every skill meant to be saved was. */
function unsavedText(run: ActionRun): string {
  const measured = run.skills.flatMap((s) => (s.kind === 'measured' && s.report.verdict === 'ok' ? [s] : []));
  const unsaved = measured.filter((s) => s.saved?.saved !== true).length;
  return unsaved === 0
    ? ''
    : ` ${unsaved} of ${measured.length} could not be saved (the job summary says why).`;
}

function refreshLine(run: ActionRun, findings: DriftFindings): string {
  switch (findings.refresh) {
    case 'withheld':
      return findings.outcome === 'drift'
        ? '**The stored baselines were not refreshed**: a drift is never adopted silently. Pull requests are still compared with the baselines from before it.'
        : '**The stored baselines were not refreshed**: a skill could not be judged this run.';
    case 'no-drift':
      return `No skill moved, so the stored baselines were refreshed with this run’s measurements.${unsavedText(run)}`;
    case 'accepted':
      return `The drift was accepted (accept-drift: true): this run’s measurements are now the stored baselines.${unsavedText(run)}`;
  }
}

/** The run's links when the runner gave them, then `Checked on commit abc1234, 2026-12-06.` and `more`, small. */
function checkedLines(run: ActionRun, more = ''): string[] {
  const when = run.skills.flatMap((s) => (s.kind === 'measured' ? [s.report.createdAt] : []))[0];
  const links = linksLine(run);
  return [
    ...(links === '' ? [] : [links, '']),
    `<sub>Checked on commit ${shortSha(run.headSha)}${when ? `, ${utcDate(when)}` : ''}.${more}</sub>`,
  ];
}

const ACCEPT =
  '**Next:** if the change is expected (a new model you mean to keep), accept it: run the workflow by hand with `accept-drift: true` on its drift step, which saves this measurement as every skill’s baseline and closes this issue. Otherwise fix the descriptions (each pull request is measured as usual) or pin the model and the CLI, and the next scheduled run closes this issue once every skill is back to noise.';

/** The body of the open issue: what moved, by how much, what changed, the baselines, what to do. */
export function driftIssueBody(run: ActionRun, findings: DriftFindings): string {
  const moved = findings.moved;
  const head =
    moved.length > 0
      ? `The scheduled measurement of the default branch found ${plural(moved.length, 'skill', 'skills')} loading differently from ${moved.length === 1 ? 'its' : 'their'} stored baseline, with the description unchanged: the model, the CLI or the skills around it moved, not the text. Each is compared query by query with the same exact test a pull request gets; anything smaller is noise.`
      : 'No skill moved in the latest scheduled measurement, but not every skill could be judged, so this issue stays open until one run measures them all back to noise.';
  const simulated = run.skills.some((s) => s.kind === 'measured' && s.report.simulated)
    ? [
        '',
        "> [!NOTE]\n> **Simulated:** these runs were answered by skilltrigger's simulated model, not by a real one.",
      ]
    : [];
  return [
    '## skilltrigger: drift on the default branch',
    ...simulated,
    '',
    head,
    '',
    ...(moved.length > 0 ? [...movedRows(moved), ''] : []),
    ...otherLines(findings),
    ...(otherLines(findings).length > 0 ? [''] : []),
    refreshLine(run, findings),
    '',
    ACCEPT,
    '',
    ...checkedLines(
      run,
      " This issue is kept by skilltrigger's drift watch: updated in place by each run, closed when every skill is back to noise.",
    ),
  ].join('\n');
}

/** The body an issue is closed with: every skill back to noise, or the drift accepted. */
export function driftClosingBody(run: ActionRun, findings: DriftFindings): string {
  const why =
    findings.refresh === 'accepted'
      ? 'The drift was accepted (accept-drift: true): this run’s measurements are now the stored baselines, and later runs compare with them.'
      : 'Every skill is back to noise against its stored baseline, so the drift is over, and the stored baselines were refreshed with this run’s measurements.';
  return [
    '## skilltrigger: drift on the default branch — closed',
    '',
    `${why}${unsavedText(run)}`,
    '',
    ...otherLines(findings),
    ...(otherLines(findings).length > 0 ? [''] : []),
    ...checkedLines(run),
  ].join('\n');
}

/**
 * The drift lines of the job summary when nothing was measured (a failed gate, max-cost-usd's
 * refusal): a run with nothing to judge neither touches the issue nor refreshes a baseline.
 */
export const DRIFT_UNMEASURED: readonly string[] = [
  '### Drift watch',
  '',
  'Nothing was measured, so the drift issue and the stored baselines were left as they were.',
];

/** The drift lines of the job summary, after its head. */
export function driftSummaryLines(run: ActionRun, findings: DriftFindings): string[] {
  const issue = run.drift?.issue;
  const issueLine =
    issue === undefined
      ? 'No drift issue was kept (no github-token).'
      : issue.kind === 'failed'
        ? `The drift issue could not be kept: ${escapeInline(issue.why)}.`
        : issue.action === 'none'
          ? 'No drift issue is open.'
          : `The drift issue was ${issue.action}${issue.number === undefined ? '' : `: #${issue.number}`}.`;
  const verdict =
    findings.moved.length > 0
      ? `**Drift: ${plural(findings.moved.length, 'skill', 'skills')} moved against ${findings.moved.length === 1 ? 'its' : 'their'} stored baseline.**`
      : findings.outcome === 'clear'
        ? '**No drift:** every skill compared is noise against its stored baseline.'
        : '**No drift seen**, but not every skill could be judged.';
  return [
    '### Drift watch',
    '',
    verdict,
    '',
    ...(findings.moved.length > 0 ? [...movedRows(findings.moved), ''] : []),
    ...otherLines(findings),
    ...(otherLines(findings).length > 0 ? [''] : []),
    refreshLine(run, findings),
    '',
    issueLine,
  ];
}
