import type { Usage } from '../outcome.js';
import { costOf, formatUsd } from './cost.js';
import { type PriceTable, priceFor } from './prices.js';

/**
 * The price table checked against the CLI's own figure (docs/cost.md). The CLI reports
 * `total_cost_usd` only on its result event, from its own price list: for every run that carries it,
 * the same usage is priced from the table, and each model's two sums are compared. Pure.
 */

/** One run (or round trip) that reached its result: the model it is priced as, and its usage with `costUsd`. */
export interface CostSample {
  model: string | null | undefined;
  usage: Usage;
}

export type RateName = 'input' | 'output' | 'cacheRead' | 'cacheWrite';

/** The single rate that would make the table's figure equal the CLI's, in dollars per million tokens. */
export interface SuspectRate {
  rate: RateName;
  tableRate: number;
  impliedRate: number;
  /** Other rates that explain the difference as well (the runs' tokens cannot tell them apart). */
  alsoFits: RateName[];
}

export interface ModelCostCheck {
  /** The model as the runs reported it. */
  model: string;
  /** How many runs carried the CLI's figure and a price in the table. */
  runs: number;
  /** Those runs priced from the table, and as the CLI reported them, US dollars. */
  tableUsd: number;
  cliUsd: number;
  /** More than the tolerance apart. */
  differs: boolean;
  /** Where they differ: the rate most likely to differ; absent when none fits (or they agree). */
  suspect?: SuspectRate;
}

export interface CostCheck {
  /** Runs compared, over every model. */
  runs: number;
  models: ModelCostCheck[];
}

/** Beyond this relative difference the two figures disagree: rounding in the CLI's sum stays well under it. */
export const COST_CHECK_TOLERANCE = 0.01;

const RATES: readonly RateName[] = ['input', 'output', 'cacheRead', 'cacheWrite'];
const PER_TOKEN = 1 / 1_000_000;

/** A run's tokens at each rate, and the rates its prompt length selects (a long prompt pays its own). */
function ratedTokens(usage: Usage, table: PriceTable, model: string) {
  const found = priceFor(model, table);
  if (!found) return undefined;
  const { price } = found;
  const prompt = usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens;
  const rates = price.longPrompt && prompt > price.longPrompt.thresholdTokens ? price.longPrompt : price;
  const tokens: Record<RateName, number> = {
    input: usage.inputTokens,
    output: usage.outputTokens,
    cacheRead: usage.cacheReadInputTokens,
    cacheWrite: usage.cacheCreationInputTokens,
  };
  return { tokens, rates };
}

/**
 * Which single rate explains the difference. Each run's difference (CLI − table) is fitted as one
 * rate's tokens times one change of that rate (least squares through zero); the rate whose fit
 * leaves the smallest residual, and whose implied rate is not negative, is the suspect. With one
 * run (or runs of the same mix) several rates fit: they are named in `alsoFits`.
 */
function suspectRate(
  runs: { diff: number; tokens: Record<RateName, number>; rates: Record<RateName, number> }[],
): SuspectRate | undefined {
  const scale = Math.max(...runs.map((r) => Math.abs(r.diff)), Number.MIN_VALUE);
  const fits = RATES.flatMap((rate) => {
    const tt = runs.reduce((s, r) => s + r.tokens[rate] ** 2, 0);
    if (tt === 0) return [];
    const delta = runs.reduce((s, r) => s + r.diff * r.tokens[rate], 0) / tt;
    const residual = Math.sqrt(runs.reduce((s, r) => s + (r.diff - delta * r.tokens[rate]) ** 2, 0)) / scale;
    // The table's rate for this class, token-weighted over the runs (long prompts pay their own).
    const tokens = runs.reduce((s, r) => s + r.tokens[rate], 0);
    const tableRate = runs.reduce((s, r) => s + r.tokens[rate] * r.rates[rate], 0) / tokens;
    const impliedRate = tableRate + delta / PER_TOKEN;
    return impliedRate < -1e-9 ? [] : [{ rate, residual, tableRate, impliedRate: Math.max(0, impliedRate) }];
  });
  fits.sort((a, b) => a.residual - b.residual);
  const best = fits[0];
  if (!best || best.residual > 0.05) return undefined;
  const alsoFits = fits
    .slice(1)
    .filter((f) => f.residual - best.residual < 1e-6)
    .map((f) => f.rate);
  return { rate: best.rate, tableRate: best.tableRate, impliedRate: best.impliedRate, alsoFits };
}

/** Compares the table with the CLI's figure per model, over the samples that carry one and have a price. */
export function checkCost(samples: readonly CostSample[], table: PriceTable): CostCheck {
  const byModel = new Map<
    string,
    {
      table: number;
      cli: number;
      runs: { diff: number; tokens: Record<RateName, number>; rates: Record<RateName, number> }[];
    }
  >();
  for (const { model, usage } of samples) {
    if (usage.costUsd === undefined || !model) continue;
    const priced = costOf(usage, model, table);
    const rated = ratedTokens(usage, table, model);
    if (priced.kind !== 'priced' || !rated) continue;
    const own = byModel.get(model) ?? { table: 0, cli: 0, runs: [] };
    own.table += priced.usd;
    own.cli += usage.costUsd;
    own.runs.push({ diff: usage.costUsd - priced.usd, ...rated });
    byModel.set(model, own);
  }
  const models = [...byModel.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([model, own]): ModelCostCheck => {
      const differs = Math.abs(own.table - own.cli) > COST_CHECK_TOLERANCE * Math.max(own.table, own.cli);
      const suspect = differs ? suspectRate(own.runs) : undefined;
      return {
        model,
        runs: own.runs.length,
        tableUsd: own.table,
        cliUsd: own.cli,
        differs,
        ...(suspect ? { suspect } : {}),
      };
    });
  return { runs: models.reduce((n, m) => n + m.runs, 0), models };
}

const RATE_WORDS: Record<RateName, string> = {
  input: 'input',
  output: 'output',
  cacheRead: 'cache read',
  cacheWrite: 'cache write',
};

const perMillion = (usd: number) => `$${Number(usd.toFixed(4))}/M`;

/** One warning per model whose figures differ: both figures, the model, and the rate that most likely differs. */
export function costCheckWarnings(
  check: CostCheck | undefined,
  esc: (t: string) => string = (t) => t,
): string[] {
  if (!check) return [];
  return check.models
    .filter((m) => m.differs)
    .map((m) => {
      const s = m.suspect;
      const rate = s
        ? `; the ${RATE_WORDS[s.rate]} rate most likely differs: the table has ${perMillion(s.tableRate)}, the CLI's figure implies ${perMillion(s.impliedRate)}${s.alsoFits.length > 0 ? ` (the runs' tokens fit the ${s.alsoFits.map((r) => RATE_WORDS[r]).join(' or ')} rate as well)` : ''}`
        : '; no single rate explains the difference';
      return `the price table and the CLI's own total_cost_usd differ for ${esc(m.model)}: ${formatUsd(m.tableUsd)} from the table, ${formatUsd(m.cliUsd)} from the CLI, over the ${m.runs} run${m.runs === 1 ? '' : 's'} that reported it${rate}. Fix: correct the rate with --prices <file> (docs/cost.md)`;
    });
}

/** Where the one cost comes from, when the check agrees: `checked against the CLI's own figure on N runs`. */
export function costCheckNote(check: CostCheck | undefined): string {
  if (!check || check.runs === 0 || check.models.some((m) => m.differs)) return '';
  return ` · checked against the CLI's own figure on ${check.runs} run${check.runs === 1 ? '' : 's'}`;
}
