import type { ModelComparison } from '../../compare/by-model.js';
import type { ClassComparison } from '../../compare/compare.js';
import { escapeInline } from '../../escape.js';
import { points, markdownTable as table } from '../../format.js';
import { counts, labelCell } from './cells.js';

/**
 * The comment's table of a skill compared model by model (or agent by agent), from the
 * comparisons action/results/comparison.ts made (pure).
 */

function classCells(x: ClassComparison): string[] {
  return [
    `${counts(x.base.hits, x.base.runs)} → ${counts(x.cand.hits, x.cand.runs)}`,
    points(x.deltaRate),
    labelCell(x.label),
  ];
}

/**
 * One row per model (or per agent, `split: 'Agent'`): positives and negatives, baseline → this
 * side, each with its change and label.
 */
export function modelComparisonTable(
  byModel: ModelComparison[],
  split: 'Model' | 'Agent' = 'Model',
): string[] {
  return table(
    [split, 'Positives triggered', 'Change', 'Label', 'Negatives fired', 'Change', 'Label', `${split} label`],
    byModel.map(({ model, comparison: c }) => [
      escapeInline(model),
      ...classCells(c.positives),
      ...classCells(c.negatives),
      labelCell(c.label),
    ]),
  );
}
