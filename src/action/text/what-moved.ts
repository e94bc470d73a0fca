/**
 * What a reader of the comment looks for first and last (pure): the count line across skills, and
 * the closing lines, where to read more (the workflow run, its job summary, the HTML pages'
 * artifact) and what to do next (the local command that reproduces a measurement, and how to
 * accept a deliberate change). User text is escaped and kept out of code spans.
 */

import { escapeInline } from '../../escape.js';
import { type ActionRun, type SkillStanding, standingOf } from '../results/results.js';
import { standingText } from './cells.js';

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * `**1 regression** · 0 improvements · 2 noise · 1 not measured · 4 listing changes`: the four
 * counts always (a zero says as much as a one), the other standings when any skill has one, and
 * how many SKILL.md files changed what the model reads (a body-only edit is not a listing change).
 */
export function countLine(run: ActionRun): string {
  const count = (standing: SkillStanding) => run.skills.filter((s) => standingOf(s) === standing).length;
  const bold = (text: string, n: number) => (n > 0 ? `**${text}**` : text);
  const regressions = count('regression');
  const parts = [
    bold(plural(regressions, 'regression', 'regressions'), regressions),
    plural(count('improvement'), 'improvement', 'improvements'),
    `${count('noise')} noise`,
    `${count('not-measured')} not measured`,
  ];
  const others: SkillStanding[] = ['no-verdict', 'invalid', 'no-baseline', 'measured'];
  for (const standing of others) {
    const n = count(standing);
    if (n > 0)
      parts.push(
        bold(`${n} ${standingText(standing)}`, standing === 'no-baseline' || standing === 'measured' ? 0 : n),
      );
  }
  const listing = run.skills.filter((s) => s.kind !== 'skipped' || s.reason === 'removed').length;
  parts.push(plural(listing, 'listing change', 'listing changes'));
  return parts.join(' · ');
}

/** `[workflow run](…) · [job summary](…) · HTML pages: [artifact name](…)`, or empty without links. */
export function linksLine(run: ActionRun): string {
  const links = run.links;
  if (!links) return '';
  const parts: string[] = [];
  // The URLs are built from the runner's own variables, checked to be https (safe-links below).
  if (links.run !== undefined && safeUrl(links.run)) {
    parts.push(`[workflow run](${links.run})`, `[job summary](${links.run}#summary)`);
  }
  if (links.artifact) {
    const name = escapeInline(links.artifact.name);
    const url = links.artifact.url;
    parts.push(
      url !== undefined && safeUrl(url)
        ? `HTML pages: [${name}](${url})`
        : `HTML pages: the artifact ${name}`,
    );
  }
  return parts.length === 0 ? '' : `More: ${parts.join(' · ')}`;
}

/** An https URL with nothing that could close a Markdown link or open HTML. */
function safeUrl(url: string): boolean {
  return /^https:\/\/[^\s()<>[\]"'`\\]+$/.test(url);
}

/** The folder of a SKILL.md path, as the CLI's `--skill` takes it. */
function skillFolder(file: string): string {
  const cut = file.lastIndexOf('/');
  return cut < 0 ? '.' : file.slice(0, cut);
}

/**
 * The next step: the local command that measures a skill as this job did (the first skill that
 * regressed, else the first measured; each path escaped, none in a code span), then how to accept
 * a deliberate change. Empty when nothing was measured.
 */
export function nextLine(run: ActionRun): string {
  const measured = run.skills.flatMap((s) => (s.kind === 'measured' ? [s] : []));
  const first = measured.find((s) => standingOf(s) === 'regression') ?? measured[0];
  if (first === undefined) return '';
  const model = first.report.settings.models?.join(',') ?? run.settings.model;
  const command = [
    'npx skilltrigger run --skill',
    escapeInline(skillFolder(first.file)),
    ...(first.report.siblings ? ['--siblings .'] : []),
    `--runs ${run.settings.runs}`,
    ...(model === undefined ? [] : [`--model ${escapeInline(model)}`]),
    ...(run.settings.roster === undefined ? [] : [`--roster ${escapeInline(run.settings.roster)}`]),
  ].join(' ');
  const others = measured.length > 1 ? ' (the same for the other skills, each with its own folder)' : '';
  const accept =
    run.event === 'pull_request'
      ? ' To accept a deliberate change (a skill narrowed on purpose), mark the queries it should no longer serve `should_trigger: false` in its eval set in this pull request: a query whose class changed is left out of the comparison, and the merge saves the new baseline.'
      : '';
  return `**Next:** reproduce a measurement locally with ${command}${others}.${accept}`;
}
