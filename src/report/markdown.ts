import { percent, markdownTable as table, utcDate } from '../format.js';
import { escapeInline } from './escape.js';
import { modelsAndCostLines, modelsTable, pairedModelsMarkdown } from './models-text.js';
import type { Measurement, QueryResult, Report, ReportUsage } from './schema.js';
import { siblingsMarkdown } from './siblings.js';
import {
  contextualCount,
  INTERVAL_NOTE,
  SPLIT_HEADER,
  splitCells,
  splitsOf,
  withoutContextClause,
} from './subsets.js';

/**
 * The Markdown rendering of a report, written beside the JSON. Pure: the report in, text out.
 *
 * Every string that came from outside skilltrigger's own code (skill name, queries, ids, extra
 * fields, model names, versions, no-verdict reasons) goes through `escapeInline`, and never into a
 * code span (code spans do not read escapes). The report holds no private text, and this renderer
 * adds none.
 */

/** One symbol per run, in the order the runs ran. */
export const OUTCOME_LEGEND = '● triggered · ○ not triggered · ◌ timeout · ✕ error';

export function outcomeSymbol(code: string): string {
  switch (code) {
    case 'triggered':
      return '●';
    case 'not-triggered':
      return '○';
    case 'timeout':
      return '◌';
    default:
      // `error:<cause>`; the schema admits no other code.
      return '✕';
  }
}

export function outcomeSymbols(codes: readonly string[]): string {
  return codes.map(outcomeSymbol).join('');
}

function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/**
 * `positives triggered a/b · negatives fired c/d · N timeouts, M errors counted apart` (SPEC §2.5),
 * with `timeout`/`error` in the singular for exactly one. b and d count measured runs only: a lost
 * run is neither a hit nor a miss. Where queries are marked needs_context, a class's total is
 * followed by the same total without them (`14/20 · 11/14 without the 3 that presuppose a session`).
 */
export function headline(m: Measurement): string {
  const t = m.totals;
  return (
    `positives triggered ${t.positives.triggered}/${t.positives.runs}${withoutContextClause(m, 'positives')} · ` +
    `negatives fired ${t.negatives.fired}/${t.negatives.runs}${withoutContextClause(m, 'negatives')} · ` +
    `${counted(t.timeouts, 'timeout')}, ${counted(t.errors, 'error')} counted apart`
  );
}

/** `12/20 queries pass`: how many queries passed their threshold, of all the queries measured for. */
export function queriesPassText(m: Measurement): string {
  return `${m.totals.passed}/${m.totals.queries} ${m.totals.queries === 1 ? 'query passes' : 'queries pass'}`;
}

interface Side {
  /** `Baseline` / `Candidate` in a paired report; undefined in a single one. */
  label?: string;
  m: Measurement;
}

function sidesOf(report: Report): Side[] {
  return report.baseline
    ? [
        { label: 'Baseline', m: report.baseline },
        { label: 'Candidate', m: report.candidate },
      ]
    : [{ m: report.candidate }];
}

const labelled = (side: Side, text: string) => (side.label ? `${side.label}: ${text}` : text);

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
  const passes = sides.map((s) => labelled(s, queriesPassText(s.m))).join('; ');
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

function descriptionLine(side: Side): string {
  const d = side.m.description;
  const source = d.overridden ? 'from --description' : 'from SKILL.md';
  const name = side.label ? `Description (${side.label.toLowerCase()})` : 'Description';
  const listed =
    d.listed !== undefined && d.listed.sha256 !== d.sha256
      ? `; listed text (what Claude Code lists, and what was measured) ${counted(d.listed.bytes, 'byte')}, SHA-256 \`${d.listed.sha256.slice(0, 12)}\``
      : '';
  return `- ${name}: ${counted(d.bytes, 'byte')}, SHA-256 \`${d.sha256.slice(0, 12)}\` (first 12 hex), ${source}${listed}`;
}

function environmentSection(report: Report, sides: readonly Side[]): string[] {
  const cli = report.cli.version === null ? 'unknown' : escapeInline(report.cli.version);
  const requested =
    report.model.requested === null ? 'the CLI default' : escapeInline(report.model.requested);
  const reportedEntries = Object.entries(report.model.reported).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  const reported =
    reportedEntries.length === 0
      ? 'none'
      : reportedEntries.map(([model, n]) => `${escapeInline(model)} (${counted(n, 'run')})`).join(', ');
  const roster = report.roster
    ? `${counted(report.roster.slashCommands, 'slash command')}, ${counted(report.roster.skills, 'skill')} ` +
      `(${report.roster.members.length} distinct names, stored hashed; the stub not counted)`
    : 'not recorded';
  const env = report.environment
    ? `${counted(report.environment.memoryFiles.project, 'project memory file')}, ` +
      `${counted(report.environment.memoryFiles.user, 'user memory file')}, ` +
      `${counted(report.environment.hooks, 'hook')}, ${counted(report.environment.mcpServers, 'MCP server')}`
    : 'not recorded';
  const s = report.settings;
  const settings = [
    s.runsMode === 'auto'
      ? `up to ${counted(s.runsPerQuery, 'run')} per query (auto: a query stops once its verdict is settled)`
      : `${counted(s.runsPerQuery, 'run')} per query`,
    `timeout ${s.timeoutSeconds} s`,
    `trigger threshold ${s.triggerThreshold}`,
    `no verdict above ${percent(s.noVerdictShare)} lost runs`,
    `stub as a ${s.stub}`,
    counted(s.maxRetries, 'API retry', 'API retries'),
  ].join(' · ');
  const conflict = report.conflictAllowed
    ? 'measured despite a conflicting plugin (--allow-conflict)'
    : 'none allowed (the conflict gate was enforced)';
  return [
    '## Environment',
    '',
    `- Tool: skilltrigger ${escapeInline(report.tool.version)} · Claude Code CLI ${cli}`,
    `- Model: requested ${requested} · reported ${reported}`,
    `- Roster: ${roster}`,
    `- Inherited environment: ${env}`,
    `- Settings: ${settings}`,
    ...sides.map(descriptionLine),
    `- Plugin conflicts: ${conflict}`,
    `- Created: ${escapeInline(report.createdAt)}`,
  ];
}

function notes(extra: Record<string, unknown>): string {
  return Object.entries(extra)
    .map(([key, value]) =>
      escapeInline(`${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`),
    )
    .join('; ');
}

function lostCount(q: QueryResult): number {
  return q.timeouts + q.errors;
}

function hitsCell(q: QueryResult | undefined, withRate: boolean): string {
  if (!q) return '—';
  const lost = lostCount(q);
  const rate = withRate && q.rate !== null ? ` (${percent(q.rate)})` : '';
  return `${q.hits}/${q.runs}${rate}${lost > 0 ? `, ${lost} lost` : ''}`;
}

function rateCell(q: QueryResult): string {
  return q.rate === null ? '—' : percent(q.rate);
}

function passCell(q: QueryResult | undefined): string {
  if (!q || q.pass === null) return '—';
  return q.pass ? 'pass' : '**fail**';
}

function queriesSection(report: Report, sides: readonly Side[]): string[] {
  const withNotes = sides.some((s) => s.m.queries.some((q) => Object.keys(q.extra).length > 0));
  const lines = [
    '## Queries',
    '',
    `Outcomes of each run, in the order they ran: ${OUTCOME_LEGEND}. ` +
      `A positive passes above a trigger rate of ${report.settings.triggerThreshold}, a negative below it; ` +
      'timeouts and errors are neither hits nor misses.',
    '',
  ];
  const baseline = report.baseline;
  if (!baseline) {
    const header = ['Id', 'Query', 'Should trigger', 'Outcomes', 'Hits/runs', 'Rate', 'Pass'];
    const rows = report.candidate.queries.map((q) => [
      escapeInline(q.id),
      escapeInline(q.query),
      q.shouldTrigger ? 'yes' : 'no',
      outcomeSymbols(q.outcomes),
      hitsCell(q, false),
      rateCell(q),
      passCell(q),
      ...(withNotes ? [notes(q.extra)] : []),
    ]);
    return [...lines, ...table(withNotes ? [...header, 'Notes'] : header, rows)];
  }
  // Side by side by id; a query only one side holds (the eval set changed between them) still gets a row.
  const byId = (qs: readonly QueryResult[]) => new Map(qs.map((q) => [q.id, q]));
  const base = byId(baseline.queries);
  const cand = byId(report.candidate.queries);
  const ids = [...new Set([...cand.keys(), ...base.keys()])];
  const header = [
    'Id',
    'Query',
    'Should trigger',
    'Baseline outcomes',
    'Baseline hits/runs',
    'Baseline pass',
    'Candidate outcomes',
    'Candidate hits/runs',
    'Candidate pass',
  ];
  const rows = ids.map((id) => {
    const b = base.get(id);
    const c = cand.get(id);
    const q = (c ?? b) as QueryResult;
    return [
      escapeInline(id),
      escapeInline(q.query),
      q.shouldTrigger ? 'yes' : 'no',
      b ? outcomeSymbols(b.outcomes) : '—',
      hitsCell(b, true),
      passCell(b),
      c ? outcomeSymbols(c.outcomes) : '—',
      hitsCell(c, true),
      passCell(c),
      ...(withNotes ? [notes(q.extra)] : []),
    ];
  });
  return [...lines, ...table(withNotes ? [...header, 'Notes'] : header, rows)];
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

function lostRunsLines(m: Measurement): string[] {
  return m.queries
    .filter((q) => lostCount(q) > 0)
    .map((q) => {
      const runs = q.outcomes.flatMap((code, i) =>
        code === 'timeout'
          ? [`run ${i + 1} timed out`]
          : code.startsWith('error:')
            ? [`run ${i + 1} error (${escapeInline(code.slice('error:'.length))})`]
            : [],
      );
      return `- ${escapeInline(q.id)}: ${runs.join('; ')}`;
    });
}

function usageText(u: ReportUsage): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const tokens =
    `${n(u.inputTokens)} input, ${n(u.outputTokens)} output, ` +
    `${n(u.cacheReadInputTokens)} cache read, ${n(u.cacheCreationInputTokens)} cache write tokens`;
  return u.costUsd === undefined
    ? tokens
    : `${tokens} · cost $${u.costUsd.toFixed(4)} as the CLI reported it`;
}

function totalsLines(m: Measurement): string[] {
  const t = m.totals;
  const causes = Object.entries(t.errorCauses)
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([cause, n]) => `${escapeInline(cause)} ${n}`);
  return [
    `- Queries: ${t.passed} pass, ${t.failed} fail${t.queries - t.passed - t.failed > 0 ? `, ${t.queries - t.passed - t.failed} unmeasured` : ''}`,
    `- Runs: ${t.executed} of ${t.planned} planned ran; ${counted(t.timeouts, 'timeout')}, ${counted(t.errors, 'error')}`,
    ...(causes.length > 0 ? [`- Errors by cause: ${causes.join(', ')}`] : []),
    `- Usage: ${usageText(t.usage)}`,
  ];
}

function totalsSection(sides: readonly Side[]): string[] {
  const lines = ['## Totals'];
  for (const side of sides) {
    lines.push('', ...(side.label ? [`### ${side.label}`, ''] : []), ...totalsLines(side.m));
    const lost = lostRunsLines(side.m);
    if (lost.length > 0) lines.push('', 'Lost runs (counted apart):', '', ...lost);
  }
  return lines;
}

/** The whole report as GitHub-flavoured Markdown, ending in one newline. */
export function renderMarkdown(report: Report): string {
  const sides = sidesOf(report);
  const paired = report.baseline !== undefined;
  const title = `# skilltrigger: ${escapeInline(report.skill)} · ${utcDate(report.createdAt)}${paired ? ' · baseline vs candidate' : ''}`;
  const blocks: string[][] = [
    [title],
    noVerdictBlock(report, sides),
    simulatedNote(report),
    stoppedNote(sides),
    sides.map((s) => (paired ? `- ${labelled(s, headline(s.m))}` : headline(s.m))),
    sides.flatMap((s) => modelsAndCostLines(s.m, escapeInline).map((l) => `- ${labelled(s, l)}`)),
    verdictNote(report, sides),
    pairedModelsMarkdown(report.pairedByModel),
    contextNote(report),
    splitSection(sides),
    siblingsMarkdown(report, sides),
    environmentSection(report, sides),
    queriesSection(report, sides),
    sides.flatMap((s, i) => [...(i > 0 && s.m.byModel ? [''] : []), ...modelsTable(s.m, s.label)]),
    totalsSection(sides),
  ];
  return `${blocks
    .filter((b) => b.length > 0)
    .map((b) => b.join('\n'))
    .join('\n\n')}\n`;
}
