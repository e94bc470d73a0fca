/**
 * The short texts of a measurement that the report's Markdown, the CLI's stdout and the Action's
 * tables share (pure): the outcome symbols, the one-line headline of a report and its settings line.
 */
import { agentView, hasSeveralAgents } from '../compare/by-agent.js';
import { withoutContextClause } from '../compare/subsets-text.js';
import { percent } from '../format.js';
import type { Measurement, Report } from '../schemas/report.js';
import { contextArmLines } from './context-text.js';
import { modelLines } from './models-text.js';

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

export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/**
 * The measurement's settings in one line, as the Markdown report and the HTML pages show them;
 * `autoNote` says after the runs per query what `--runs auto` did, in each one's length.
 */
export function settingsText(s: Report['settings'], autoNote: string): string {
  return [
    s.runsMode === 'auto'
      ? `up to ${counted(s.runsPerQuery, 'run')} per query (${autoNote})`
      : `${counted(s.runsPerQuery, 'run')} per query`,
    `timeout ${s.timeoutSeconds} s`,
    `trigger threshold ${s.triggerThreshold}`,
    `no verdict above ${percent(s.noVerdictShare)} lost runs`,
    `stub as a ${s.stub}`,
    counted(s.maxRetries, 'API retry', 'API retries'),
  ].join(' · ');
}

/**
 * `positives triggered a/b · negatives fired c/d · N timeouts, M errors counted apart`,
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

/**
 * True when a measurement holds several models' runs (`--model a,b`) or several agents' (`--agent
 * a,b`): its pooled totals describe no model (no agent).
 */
export function hasSeveralModels(m: Measurement): boolean {
  return hasSeveralAgents(m) || (m.byModel !== undefined && Object.keys(m.byModel).length > 1);
}

/** How the pooled line of several models is marked wherever it is drawn. */
export const POOLED_MARK = 'all models pooled (describes no model; never decides)';
/** …and of several agents. */
export const POOLED_AGENTS_MARK = 'all agents pooled (describes no agent; never decides)';

/**
 * The headline as lines: one model's `headline · 12/20 queries pass`, or, with several models, one
 * line per model with its own positives, negatives and pass count, then the pooled counts marked
 * as never deciding (a pooled pass count would describe no model). `esc` escapes model names.
 */
export function headlineLines(m: Measurement, esc: (t: string) => string = (t) => t): string[] {
  // Runs fresh and with a context: each arm after the whole (docs/context.md, "Arms").
  const arms = contextArmLines(m);
  if (!hasSeveralModels(m)) return [`${headline(m)} · ${queriesPassText(m)}`, ...arms];
  if (hasSeveralAgents(m))
    return [...modelLines(agentView(m), esc), `${POOLED_AGENTS_MARK}: ${headline(m)}`, ...arms];
  return [...modelLines(m, esc), `${POOLED_MARK}: ${headline(m)}`, ...arms];
}

/** `12/20 queries pass`, or per model with several (`claude-haiku-4-5 10/20 queries pass, …`). */
export function passesText(m: Measurement, esc: (t: string) => string = (t) => t): string {
  const split = hasSeveralAgents(m) ? m.byAgent : m.byModel;
  if (!hasSeveralModels(m) || !split) return queriesPassText(m);
  return Object.entries(split)
    .map(
      ([model, s]) =>
        `${esc(model)} ${s.totals.passed}/${s.totals.queries} ${s.totals.queries === 1 ? 'query passes' : 'queries pass'}`,
    )
    .join(', ');
}
