import {
  contextualCount,
  INTERVAL_NOTE,
  SPLIT_HEADER,
  splitCells,
  splitsOf,
} from '../compare/subsets-text.js';
import { escapeInline } from '../escape.js';
import { markdownTable as table, utcDate } from '../format.js';
import type { Report } from '../schemas/report.js';
import { contextArmLines } from './context-text.js';
import { counted, hasSeveralModels, headline, headlineLines, passesText } from './headline.js';
import { listingWarnings } from './listing-text.js';
import { environmentSection } from './markdown-environment.js';
import { queriesSection } from './markdown-queries.js';
import { totalsSection } from './markdown-totals.js';
import { costWarnings, lateAndCostLines, modelsTable, pairedModelsMarkdown } from './models-text.js';
import { siblingsMarkdown } from './siblings.js';
import { labelled, pairTitle, type Side, sidesOf } from './sides.js';

/**
 * The Markdown rendering of a report, written beside the JSON. Pure: the report in, text out. Its
 * sections are markdown-environment.ts, markdown-queries.ts and markdown-totals.ts; the headline
 * and outcome symbols, which the CLI and the Action print too, headline.ts.
 *
 * Every string that came from outside skilltrigger's own code (skill name, queries, ids, extra
 * fields, model names, versions, no-verdict reasons) goes through `escapeInline`, and never into a
 * code span (code spans do not read escapes). The report holds no private text, and this renderer
 * adds none.
 */

/**
 * Says plainly, first thing, that there is nothing to read off the numbers, and why. Shown when
 * any side has no verdict, whatever the top-level field says: a reader must not take it for a
 * measurement.
 */
function noVerdictBlock(report: Report, sides: readonly Side[]): string[] {
  const failing = sides.filter((s) => s.m.verdict === 'no-verdict');
  if (report.verdict !== 'no-verdict' && failing.length === 0) return [];
  const reasons = (failing.length > 0 ? failing : sides).flatMap((s) =>
    s.m.noVerdictReasons.map((r) => labelled(s, escapeInline(r))),
  );
  const why = reasons.length > 0 ? reasons.join('; ').replace(/\.$/, '') : 'no reason was recorded';
  const lines = [`**No verdict: this is not a measurement.** ${why}.`];
  const lists: string[] = [];
  for (const s of sides) {
    if (s.m.lostQueries.length > 0) {
      lists.push(`- ${labelled(s, `lost every run: ${s.m.lostQueries.map(escapeInline).join(', ')}`)}`);
    }
    if (s.m.partialQueries.length > 0) {
      lists.push(`- ${labelled(s, `lost some runs: ${s.m.partialQueries.map(escapeInline).join(', ')}`)}`);
    }
  }
  if (lists.length > 0) lines.push('', ...lists);
  return lines;
}

function stoppedNote(sides: readonly Side[]): string[] {
  // Both flags describe the one invocation; a pair's sides carry the same ones, so either will do.
  if (sides.some((s) => s.m.interrupted))
    return ['The run was interrupted before every planned run was made.'];
  if (sides.some((s) => s.m.aborted)) {
    return ['The run was stopped early: too many runs were lost for a verdict to be possible.'];
  }
  return [];
}

/**
 * What the report's top-level `verdict: "ok"` means, said where people read it: the measurement is
 * valid (few enough runs were lost for the numbers to count), not that the skill passed.
 */
function verdictNote(report: Report, sides: readonly Side[]): string[] {
  if (report.verdict !== 'ok') return [];
  const passes = sides.map((s) => labelled(s, passesText(s.m, escapeInline))).join('; ');
  return [
    `**Verdict: ok** — a valid measurement: few enough runs were lost for these numbers to count. It says nothing on its own about how well the skill triggers: ${passes}.`,
  ];
}

function simulatedNote(report: Report): string[] {
  if (!report.simulated) return [];
  return [
    "**Simulated:** these runs were answered by skilltrigger's simulated model, not by Claude. " +
      'The numbers show the tool at work, not how this description performs.',
  ];
}

/** What the needs_context totals mean, once, where some query is marked. */
function contextNote(report: Report): string[] {
  // Both sides of a pair measure the same eval set, so the candidate's queries say it.
  const positives = contextualCount(report.candidate, 'positives');
  const negatives = contextualCount(report.candidate, 'negatives');
  if (positives + negatives === 0) return [];
  const marked = [
    ...(positives > 0 ? [counted(positives, 'positive')] : []),
    ...(negatives > 0 ? [counted(negatives, 'negative')] : []),
  ].join(' and ');
  return [
    `**Prompts that presuppose a session:** ${marked} ${positives + negatives === 1 ? 'is' : 'are'} marked needs_context. ` +
      '`claude -p` starts every run from nothing, so for those the number measures whether the model loads the skill before it goes looking for material a real session would already hold. ' +
      'They are counted as usual; the headline also gives each total without them.',
  ];
}

/** Train and holdout apart, per side; empty when nothing is held out. */
function splitSection(sides: readonly Side[]): string[] {
  const rows = sides.flatMap((s) =>
    splitsOf(s.m).map(({ split, totals }) => [...(s.label ? [s.label] : []), split, ...splitCells(totals)]),
  );
  if (rows.length === 0) return [];
  const header = [...(sides.some((s) => s.label) ? ['Side'] : []), 'Split', ...SPLIT_HEADER];
  return [
    '## Train and holdout',
    '',
    'Held-out queries (`split: holdout`) are kept out of any tuning of the description; a rate that holds on them is one that generalises.',
    '',
    ...table(header, rows),
    '',
    INTERVAL_NOTE,
  ];
}

/**
 * A side's headline: one model's as a paragraph (a list item when paired); with several models a
 * list item per model and the pooled counts marked as never deciding.
 */
function headlineBlock(s: Side, paired: boolean): string[] {
  if (hasSeveralModels(s.m)) return headlineLines(s.m, escapeInline).map((l) => `- ${labelled(s, l)}`);
  const arms = contextArmLines(s.m).map((l) => `- ${labelled(s, l)}`);
  if (paired) return [`- ${labelled(s, headline(s.m))}`, ...arms];
  return arms.length === 0 ? [headline(s.m)] : [headline(s.m), '', ...arms];
}

/** The whole report as GitHub-flavoured Markdown, ending in one newline. */
export function renderMarkdown(report: Report): string {
  const sides = sidesOf(report);
  const paired = report.baseline !== undefined;
  const title = `# skilltrigger: ${escapeInline(report.skill)} · ${utcDate(report.createdAt)}${paired ? ` · ${pairTitle(report)}` : ''}`;
  const blocks: string[][] = [
    [title],
    // Our own words and numbers only: nothing of the user's to escape.
    sides.flatMap((s) => listingWarnings(s.m).map((w) => `**${labelled(s, w)}**`)),
    noVerdictBlock(report, sides),
    simulatedNote(report),
    stoppedNote(sides),
    sides.flatMap((s) => headlineBlock(s, paired)),
    sides.flatMap((s) => [
      ...lateAndCostLines(s.m, escapeInline, report.simulated === true).map((l) => `- ${labelled(s, l)}`),
      ...costWarnings(s.m, escapeInline).map((w) => `- **Warning:** ${labelled(s, w)}`),
    ]),
    verdictNote(report, sides),
    pairedModelsMarkdown(report.pairedByModel),
    contextNote(report),
    splitSection(sides),
    siblingsMarkdown(report, sides),
    environmentSection(report, sides),
    queriesSection(report, sides),
    sides.flatMap((s, i) => [
      ...(i > 0 && (s.m.byModel || s.m.byAgent) ? [''] : []),
      ...modelsTable(s.m, s.label),
    ]),
    totalsSection(sides),
  ];
  return `${blocks
    .filter((b) => b.length > 0)
    .map((b) => b.join('\n'))
    .join('\n\n')}\n`;
}
