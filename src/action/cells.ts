import type { ClassComparison } from '../compare/compare.js';
import { labelText } from '../compare/render.js';
import { percentOf as percent } from '../format.js';

/** The cells the comment's and the summary's tables share (pure). */

/** `6/7 (86%)`. */
export function counts(hits: number, runs: number): string {
  return `${hits}/${runs} (${percent(hits, runs)})`;
}

/** A label, a regression in bold. */
export function labelCell(label: ClassComparison['label']): string {
  return label === 'regression' ? '**regression**' : labelText(label);
}
