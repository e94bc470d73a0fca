import { UsageError } from '../errors.js';
import { numberOption } from './option-values.js';

/**
 * The model, late-load and budget flags that `run` (and, for the budget, `improve`) share: `--model a,b`,
 * `--late N`, `--max-cost-usd X`. Each is checked here, before anything is spent.
 */

/** `--model M` or `--model a,b[,…]`: one model as `model`, several as `models` (each once). */
export function modelsOption(value: string | undefined): { model?: string; models?: string[] } {
  if (value === undefined) return {};
  if (value.trim() === '') throw new UsageError('--model must not be empty');
  const models = value.split(',').map((m) => m.trim());
  if (models.some((m) => m === '')) {
    throw new UsageError(
      `--model has an empty entry in "${value}"; write the models comma-separated, e.g. --model claude-haiku-4-5,claude-sonnet-4-5`,
    );
  }
  const seen = new Set<string>();
  for (const m of models) {
    const key = m.toLowerCase();
    if (seen.has(key)) {
      throw new UsageError(
        `--model names "${m}" twice in "${value}"; each model is measured once. Fix: drop the repeat`,
      );
    }
    seen.add(key);
  }
  const [only] = models;
  return models.length === 1 && only !== undefined ? { model: only } : { models };
}

/** `--late N`: the turns a miss is watched for a late load, 0 (off, the default) to 10. */
export function lateOption(value: string | undefined): number {
  return numberOption('late', value, 0);
}

/**
 * `--max-cost-usd X`: a positive number of US dollars, written as the Action's `max-cost-usd` is
 * (the numbers' one grammar, with an optional leading $); absent: no budget.
 */
export function maxCostOption(value: string | undefined): { maxCostUsd?: number } {
  if (value === undefined) return {};
  return { maxCostUsd: numberOption('max-cost-usd', value, 0, ' (or leave it out, for no budget)') };
}

/**
 * `--model haiku,claude-haiku-5-5` names one model twice, which the spelling alone cannot tell: the
 * round trips resolved each (the init event's model, and the model the API named in its answer).
 * Two entries that resolve alike are refused (exit 1) after the gates, before any measured run.
 */
export function refuseSameModel(
  models: readonly string[] | undefined,
  resolved: { init?: Record<string, string>; message?: Record<string, string> },
): void {
  if (!models || models.length < 2) return;
  for (const [i, a] of models.entries()) {
    for (const b of models.slice(i + 1)) {
      for (const [source, ids] of [
        ['init events', resolved.init],
        ['answers', resolved.message],
      ] as const) {
        const same = ids?.[a];
        if (same === undefined || ids?.[b] !== same) continue;
        throw new UsageError(
          `--model names one model twice: "${a}" and "${b}" are both ${same} (by the round trips' ${source}), so it would be measured twice; nothing was measured. Fix: keep one of "${a}" and "${b}" in --model`,
        );
      }
    }
  }
}
