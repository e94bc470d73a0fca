import { agentView } from '../compare/by-agent.js';
import { formatUsd } from '../cost/cost.js';
import { costCheckNote, costCheckWarnings } from '../cost/cost-check.js';
import { escapeInline } from '../escape.js';
import { markdownTable } from '../format.js';
import type { Measurement, PairedByModel, ReportUsage } from '../schemas/report.js';

/**
 * The lines of several models, the late load and the cost, shared by the terminal headline and the
 * Markdown: one per model (`--model a,b`), the late loads (`--late N`), and the cost (per model and in total, or tokens and
 * "price unknown"). Pure; every name is escaped for Markdown by the caller's choice of `esc`.
 */

const plain = (text: string) => text;

/** `claude-haiku-4-5: positives triggered 3/4 · negatives fired 0/4 · 1 lost · 4/4 queries pass`. */
export function modelLines(m: Measurement, esc: (t: string) => string = plain): string[] {
  if (!m.byModel) return [];
  return Object.entries(m.byModel).map(([model, s]) => {
    const t = s.totals;
    const lost = t.timeouts + t.errors;
    return (
      `${esc(model)}: positives triggered ${t.positives.triggered}/${t.positives.runs} · ` +
      `negatives fired ${t.negatives.fired}/${t.negatives.runs}` +
      `${lost > 0 ? ` · ${lost} lost` : ''} · ${t.passed}/${t.queries} queries pass` +
      `${s.verdict === 'no-verdict' ? ' · no verdict' : ''}` +
      `${t.late !== undefined && t.late > 0 ? ` · ${t.late} late` : ''}`
    );
  });
}

/** `3 of 7 misses loaded the skill later` (`--late N`); absent without `--late`. */
export function lateLine(m: Measurement): string[] {
  if (m.totals.late === undefined) return [];
  const misses = m.queries.reduce((n, q) => n + (q.runs - q.hits), 0);
  return [
    `${m.totals.late} of ${misses} miss${misses === 1 ? '' : 'es'} loaded the skill later (counted apart: never a hit)`,
  ];
}

function tokensText(u: ReportUsage): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return `${n(u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens)} prompt tokens (${n(u.cacheReadInputTokens)} cache read), ${n(u.outputTokens)} output`;
}

/**
 * `cost: $0.0123 (claude-haiku-4-5 $0.0040, claude-sonnet-4-5 $0.0083)`, or tokens and "price
 * unknown". Against the simulated model nothing was paid: the line says it prices the same tokens
 * as a real run would (`simulated`).
 */
export function costLine(m: Measurement, esc: (t: string) => string = plain, simulated = false): string[] {
  const cost = m.cost;
  if (!cost) return [];
  const lead = simulated ? 'cost (SIMULATED, nothing was paid; what a real run would cost):' : 'cost:';
  const perModel = Object.entries(cost.byModel);
  const split =
    perModel.length > 1
      ? ` (${perModel.map(([model, usd]) => `${esc(model)} ${formatUsd(usd)}`).join(', ')})`
      : '';
  // One cost, from the table; where the CLI's own figure disagrees, costWarnings says so with both.
  const from = ` from the price table${costCheckNote(cost.check)}`;
  if (cost.unpricedRuns === 0)
    return [`${lead} ${formatUsd(cost.usd)}${split}${from} · ${tokensText(m.totals.usage)}`];
  const unknown = cost.unknownModels.map(esc).join(', ');
  const priced =
    cost.pricedRuns > 0 ? `${formatUsd(cost.usd)} for ${cost.pricedRuns} priced runs${split}; ` : '';
  return [
    `${lead} ${priced}price unknown for ${unknown} (${cost.unpricedRuns} runs)${costCheckNote(cost.check)} · ${tokensText(m.totals.usage)}`,
  ];
}

/** The price table against the CLI's own figure: one warning per model that differs by more than 1%, else none. */
export function costWarnings(m: Measurement, esc: (t: string) => string = plain): string[] {
  return costCheckWarnings(m.cost?.check, esc);
}

/** The late loads and the cost, in order (the per-model lines belong to the headline: headline.ts). */
export function lateAndCostLines(
  m: Measurement,
  esc: (t: string) => string = plain,
  simulated = false,
): string[] {
  return [...lateLine(m), ...costLine(m, esc, simulated)];
}

/**
 * The Markdown's per-model table: one column per model, hits/runs of each query (lost and late
 * noted); with several agents, the same table per agent.
 */
export function modelsTable(m: Measurement, label?: string): string[] {
  if (m.byAgent) return splitTable(agentView(m), 'By agent', label);
  return splitTable(m, 'By model', label);
}

function splitTable(m: Measurement, title: string, label?: string): string[] {
  if (!m.byModel) return [];
  const models = Object.keys(m.byModel);
  const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  const header = ['Id', 'Should trigger', ...models.map(escapeInline)];
  const rows = m.queries.map((q) =>
    row([
      escapeInline(q.id),
      q.shouldTrigger ? 'yes' : 'no',
      ...models.map((model) => {
        const c = q.byModel?.[model];
        if (!c) return '—';
        const lost = c.timeouts + c.errors;
        return `${c.hits}/${c.runs}${lost > 0 ? `, ${lost} lost` : ''}${c.late > 0 ? `, ${c.late} late` : ''}`;
      }),
    ]),
  );
  return [`## ${title}${label ? ` (${label})` : ''}`, '', row(header), row(header.map(() => '---')), ...rows];
}

type Label = PairedByModel['label'];
type PairedClass = PairedByModel['models'][string]['positives'];

/** A comparison label in words (`no verdict`), for the terminal, the Markdown and the page. */
export const labelWords = (label: Label) => (label === 'no-verdict' ? 'no verdict' : label);
/** `3/4 → 0/4`: a class's hits/runs, baseline → candidate. */
export const arrow = (x: PairedClass) => `${x.base.hits}/${x.base.runs} → ${x.cand.hits}/${x.cand.runs}`;

/** What the pooled label pools, or why there is none: said wherever the per-model labels are. */
function pooledText(p: PairedByModel, esc: (t: string) => string): string {
  if (!p.pooled) {
    return 'pooled over the models: left out, as some query ran a model more often on one side than the other (pooling would not compare like with like)';
  }
  return `pooled over ${p.pooled.models.map(esc).join(' + ')} (their runs together, as many of each model on both sides): ${labelWords(p.pooled.label)}; a change on one model can offset another's, so the models' own labels decide`;
}

const STANDING = 'a regression on any model is the skill’s regression';

/**
 * The terminal's paired lines with several models: each model's candidate against the same model's
 * baseline, the pooled label (where honest, saying what it pools), and the skill's standing.
 */
export function pairedModelsLines(p: PairedByModel, esc: (t: string) => string = plain): string[] {
  return [
    "by model (each model's candidate against the same model's baseline, interleaved):",
    ...Object.entries(p.models).map(
      ([model, m]) =>
        `  ${esc(model)}: positives triggered ${arrow(m.positives)} (${labelWords(m.positives.label)}) · negatives fired ${arrow(m.negatives)} (${labelWords(m.negatives.label)}) · ${labelWords(m.label)}`,
    ),
    pooledText(p, esc),
    `overall: ${labelWords(p.label)} (${STANDING})`,
  ];
}

/** The Markdown's section of the same: a row per model, then the pooled line and the standing. */
export function pairedModelsMarkdown(p: PairedByModel | undefined): string[] {
  if (!p) return [];
  const rows = Object.entries(p.models).map(([model, m]) => [
    escapeInline(model),
    arrow(m.positives),
    labelWords(m.positives.label),
    arrow(m.negatives),
    labelWords(m.negatives.label),
    `**${labelWords(m.label)}**`,
  ]);
  return [
    '## Baseline vs candidate, by model',
    '',
    "Each model's candidate against the same model's baseline, measured interleaved; labelled as `skilltrigger compare` labels them.",
    '',
    ...markdownTable(
      ['Model', 'Positives triggered', 'Label', 'Negatives fired', 'Label', 'Model label'],
      rows,
    ),
    '',
    `- ${pooledText(p, escapeInline)}`,
    `- **Overall: ${labelWords(p.label)}** (${STANDING})`,
  ];
}
