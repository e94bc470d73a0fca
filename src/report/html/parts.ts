import type { ComparisonLabel } from '../../compare/compare.js';
import { labelText } from '../../compare/render.js';
import { utcDate } from '../../format.js';
import { isHoldout } from '../../inputs/weak-set.js';
import type { QueryResult, Report } from '../../schemas/report.js';
import { counted, settingsText } from '../headline.js';
import { memoryText } from '../memory-text.js';
import { costWarnings } from '../models-text.js';
import { labelled, type Side } from '../sides.js';
import { html, type Markup } from './markup.js';
import { filterId } from './style.js';

/**
 * Pieces the page types share: the banners that say first thing when numbers are not a
 * measurement, a query's notes, the environment facts, the filters. Everything user-made goes in
 * as text through `html`.
 */

/** The one date rule (src/format.ts), for the pages' modules. */
export { utcDate };

/**
 * No verdict, simulated, stopped early, a price table the CLI's own figure contradicts: each says
 * so before any number is read.
 */
export function banners(reports: readonly Report[], sides: readonly Side[]): Markup {
  const out: Markup[] = [];
  const failing = sides.filter((s) => s.m.verdict === 'no-verdict');
  if (failing.length > 0 || reports.some((r) => r.verdict === 'no-verdict')) {
    const reasons = (failing.length > 0 ? failing : sides).flatMap((s) =>
      s.m.noVerdictReasons.map((r) => labelled(s, r)),
    );
    const lost = sides.flatMap((s) => [
      ...(s.m.lostQueries.length > 0 ? [labelled(s, `lost every run: ${s.m.lostQueries.join(', ')}`)] : []),
      ...(s.m.partialQueries.length > 0
        ? [labelled(s, `lost some runs: ${s.m.partialQueries.join(', ')}`)]
        : []),
    ]);
    out.push(
      html`<div class="banner stop" role="alert"><strong>No verdict: this is not a measurement.</strong> ${
        reasons.length > 0 ? reasons.join('; ') : 'No reason was recorded.'
      }${lost.length > 0 ? html`<ul>${lost.map((l) => html`<li>${l}</li>`)}</ul>` : ''}</div>`,
    );
  }
  if (reports.some((r) => r.simulated)) out.push(simulatedBanner());
  if (sides.some((s) => s.m.interrupted)) {
    out.push(html`<div class="banner">The run was interrupted before every planned run was made.</div>`);
  } else if (sides.some((s) => s.m.aborted)) {
    out.push(
      html`<div class="banner">The run was stopped early: too many runs were lost for a verdict to be possible.</div>`,
    );
  }
  // The cost shown comes from the price table; where the CLI's own figure differs by more than 1%,
  // both are given, as the Markdown and the terminal give them (src/cost/cost-check.ts).
  for (const warning of sides.flatMap((s) => costWarnings(s.m).map((w) => labelled(s, w))))
    out.push(html`<div class="banner" role="alert"><strong>Warning:</strong> ${warning}</div>`);
  return html`${out}`;
}

/** Says the runs were answered by the simulated model (every page type of a simulated report). */
export function simulatedBanner(): Markup {
  return html`<div class="banner"><strong>Simulated:</strong> these runs were answered by skilltrigger's simulated model, not by Claude. The numbers show the tool at work, not how this description performs.</div>`;
}

/** A note value as the Markdown report writes it: strings as they are, anything else as JSON. */
function noteValue(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

/** The eval entry's other fields (note, split, needs_context, …), as the user wrote them. */
export function notesList(q: QueryResult | undefined): Markup {
  const entries = Object.entries(q?.extra ?? {});
  if (entries.length === 0) return html``;
  return html`<dl class="notes">${entries.map(
    ([key, value]) => html`<div><dt>${key}</dt><dd>${noteValue(value)}</dd></div>`,
  )}</dl>`;
}

/** The filter attributes of a query's row; each value is one of the style sheet's fixed words. */
export function rowData(q: QueryResult): { class: string; split: string; notes: string } {
  return {
    class: q.shouldTrigger ? 'positive' : 'negative',
    split: isHoldout(q) ? 'holdout' : 'train',
    notes: Object.keys(q.extra).length > 0 ? 'with' : 'without',
  };
}

export function resultOf(q: QueryResult): 'pass' | 'fail' | 'unmeasured' {
  return q.pass === null ? 'unmeasured' : q.pass ? 'pass' : 'fail';
}

export interface FilterGroup {
  key: 'class' | 'result' | 'split' | 'notes' | 'label';
  title: string;
  /** Each value with its words and how many rows carry it; values no row carries are left out. */
  options: { value: string; words: string; count: number }[];
}

/** The checkboxes; the style sheet hides the rows of a box that is off. Groups with one value are left out. */
export function filters(groups: readonly FilterGroup[]): Markup {
  const shown = groups
    .map((g) => ({ ...g, options: g.options.filter((o) => o.count > 0) }))
    .filter((g) => g.options.length > 1);
  if (shown.length === 0) return html``;
  return html`<div class="filters" aria-label="Filters">${shown.map(
    (g) =>
      html`<fieldset><legend>${g.title}</legend>${g.options.map(
        (o) =>
          html`<label><input type="checkbox" id="${filterId(g.key, o.value)}" checked> ${o.words} (${o.count})</label>`,
      )}</fieldset>`,
  )}</div>`;
}

/** The class filter (positives, negatives), with how many rows each has. */
export function classFilter(count: (value: string) => number): FilterGroup {
  return {
    key: 'class',
    title: 'Class',
    options: [
      { value: 'positive', words: 'positives', count: count('positive') },
      { value: 'negative', words: 'negatives', count: count('negative') },
    ],
  };
}

/** How many rows carry each value that `keyOf` gives them. */
export function tally<T>(rows: readonly T[], keyOf: (row: T) => string): (value: string) => number {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(keyOf(row), (counts.get(keyOf(row)) ?? 0) + 1);
  return (value) => counts.get(value) ?? 0;
}

export function labelBadge(label: ComparisonLabel): Markup {
  const tone = label === 'improvement' ? 'good' : label === 'regression' ? 'bad' : 'neutral';
  return html`<span class="badge ${tone}">${labelText(label)}</span>`;
}

export function passBadge(q: QueryResult | undefined): Markup {
  if (!q || q.pass === null) return html`<span class="badge neutral">unmeasured</span>`;
  return q.pass ? html`<span class="badge good">pass</span>` : html`<span class="badge bad">fail</span>`;
}

/** What the report says about where and how it was measured (never more than the JSON holds). */
export function environmentFacts(report: Report, sides: readonly Side[]): Markup {
  const reported = Object.entries(report.model.reported).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const s = report.settings;
  const env = report.environment;
  const memory = memoryText(report);
  const facts: [string, string][] = [
    ['Tool', `skilltrigger ${report.tool.version} · Claude Code CLI ${report.cli.version ?? 'unknown'}`],
    [
      'Model',
      `requested ${report.model.requested ?? 'the CLI default'} · reported ${
        reported.length === 0 ? 'none' : reported.map(([m, n]) => `${m} (${counted(n, 'run')})`).join(', ')
      }`,
    ],
    [
      'Roster',
      report.roster
        ? `${counted(report.roster.slashCommands, 'slash command')}, ${counted(report.roster.skills, 'skill')} (${report.roster.members.length} distinct names, stored hashed; the stub not counted)`
        : 'not recorded',
    ],
    [
      'Inherited environment',
      env
        ? `${counted(env.memoryFiles.project, 'project memory file')}, ${counted(env.memoryFiles.user, 'user memory file')}, ${counted(env.hooks, 'hook')}, ${counted(env.mcpServers, 'MCP server')}`
        : 'not recorded',
    ],
    ...(memory === undefined ? [] : [['Memory installed', memory] as [string, string]]),
    ['Settings', settingsText(s, 'auto')],
    ...sides.map((side): [string, string] => {
      const d = side.m.description;
      return [
        side.label ? `Description (${side.label.toLowerCase()})` : 'Description',
        `${counted(d.bytes, 'byte')}, SHA-256 ${d.sha256.slice(0, 12)}… ${d.overridden ? 'from --description' : 'from SKILL.md'}`,
      ];
    }),
    [
      'Plugin conflicts',
      report.conflictAllowed
        ? 'measured despite a conflicting plugin (--allow-conflict)'
        : 'none allowed (the conflict gate was enforced)',
    ],
    ['Created', report.createdAt],
  ];
  return html`<dl class="facts">${facts.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>`;
}
