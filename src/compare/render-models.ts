import type { ModelsComparison } from './by-model.js';
import { comparisonJson, labelText, renderComparisonText } from './render.js';

/** `compare` of reports with several models: a section per shared model, the set warning first. */
export function modelsComparisonText(c: ModelsComparison, opts: { simulated?: boolean } = {}): string {
  const parts: string[] = [];
  // The verdict of every model first, each section below repeating its own.
  if (c.models.length > 0)
    parts.push(
      `Overall by model: ${c.models.map((m) => `${m.model} ${labelText(m.comparison.label)}`).join(' · ')}\n`,
    );
  for (const w of c.warnings) parts.push(`warning: ${w.message}\n`);
  for (const { model, comparison } of c.models) {
    parts.push(`\n== model ${model} ==\n`, renderComparisonText(comparison, opts));
  }
  if (c.models.length === 0) parts.push('no model was measured by both sides: nothing is compared\n');
  return parts.join('');
}

/** The id and version of the per-model `compare --json` (each model's value is a `skilltrigger/comparison`). */
export const MODELS_COMPARISON_SCHEMA_ID = 'skilltrigger/comparison-by-model';
export const MODELS_COMPARISON_SCHEMA_VERSION = 1;

/** `compare --json` of reports with several models: `{ schema, schemaVersion, warnings, models: { "<model>": <comparison> } }`. */
export function modelsComparisonJson(c: ModelsComparison, opts: { simulated?: boolean } = {}): string {
  // fromEntries defines own keys, so a model named `__proto__` stays a key, not the prototype.
  const models = Object.fromEntries(
    c.models.map(({ model, comparison }) => [model, JSON.parse(comparisonJson(comparison, opts))]),
  );
  return JSON.stringify(
    {
      schema: MODELS_COMPARISON_SCHEMA_ID,
      schemaVersion: MODELS_COMPARISON_SCHEMA_VERSION,
      warnings: c.warnings,
      models,
    },
    null,
    2,
  );
}
