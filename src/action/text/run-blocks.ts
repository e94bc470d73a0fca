import { agentFacts, DEFAULT_AGENT } from '../../agents/registry.js';
/**
 * The parts of the comment and the summary about the whole run rather than one skill (pure): the
 * head with the headline and its tally, the simulated and stop alerts above the sections, and the footer with its cost.
 */

import { gateLabel } from '../../agents/gates.js';
import type { Comparison } from '../../compare/compare.js';
import { formatUsd } from '../../cost/cost.js';
import { escapeInline } from '../../escape.js';
import type { Report } from '../../schemas/report.js';
import type { ActionRun } from '../results/results.js';
import { budgetFooterText, budgetRefusalBlock } from './cost-lines.js';
import { escapeLineStart, sentence, shortSha } from './safe-text.js';
import { countLine, linksLine, nextLine } from './what-moved.js';

export function headline(run: ActionRun): string {
  const counts = run.skills.length === 0 ? '' : countLine(run);
  const where =
    run.event === 'pull_request'
      ? `Head ${shortSha(run.headSha)} against base ${shortSha(run.baseSha)}`
      : `Commit ${shortSha(run.headSha)}`;
  return counts ? `${where}: ${counts}` : where;
}

/** The top of the comment and of the summary: the title, the headline, then the stop and simulated alerts and the run's notes. */
export function runHead(run: ActionRun, title: string): string {
  return [
    title,
    '',
    headline(run),
    ...(stopBlock(run).length > 0 ? ['', ...stopBlock(run)] : []),
    ...(simulatedBlock(run).length > 0 ? ['', ...simulatedBlock(run)] : []),
    ...(run.notes.length > 0 ? ['', ...run.notes.map((n) => `- ${escapeLineStart(n)}`)] : []),
  ].join('\n');
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
        `> - ${escapeInline(gateLabel(g))}: ${sentence(escapeInline(g.reason))}${g.fix ? ` Fix: ${sentence(escapeInline(g.fix))}` : ''}`,
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

/**
 * The agents the reports measured (`agents`), when one is not the default agent: each with its version
 * and, with several, its model (`Claude Code 2.1.328 (default model) · Codex 0.169.0 (gpt-5)`).
 */
function agentsText(run: ActionRun): string | undefined {
  const agents = measuredReports(run)[0]?.agents ?? [];
  if (!agents.some((a) => a.name !== DEFAULT_AGENT)) return undefined;
  return agents
    .map((a) => {
      const model = a.model ?? (agents.length === 1 ? run.settings.model : undefined);
      return `${agentFacts(a.name).label}${a.version ? ` ${escapeInline(a.version)}` : ''} (${model ? escapeInline(model) : 'its default model'})`;
    })
    .join(' · ');
}

/** The footer: what to do next, where to read more, what was run, and how labels are decided. */
export function footer(run: ActionRun, comparison: Comparison | undefined, toolVersion: string): string {
  const model = run.settings.model ? escapeInline(run.settings.model) : 'the CLI default model';
  // The default agent alone: its label, and the version its gates found.
  const label = agentFacts(DEFAULT_AGENT).label;
  const cli = run.cliVersion ? `${label} ${escapeInline(run.cliVersion)}` : label;
  const alpha = comparison ? comparison.method.alpha : 0.05;
  const above = [nextLine(run), linksLine(run)].filter((line) => line !== '');
  return (
    above.map((line) => `${line}\n\n`).join('') +
    `<sub>skilltrigger ${escapeInline(toolVersion)} · ${agentsText(run) ?? `${cli} · ${modelsText(run) ?? model}`} · ${run.settings.runs} run${run.settings.runs === 1 ? '' : 's'} per query${costText(run)}${budgetFooterText(run)}. ` +
    `A change is labelled a regression or an improvement only when an exact test finds it at α = ${alpha}; anything smaller is noise.</sub>`
  );
}
