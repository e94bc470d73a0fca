import type { ClassComparison } from '../compare/compare.js';
import { labelText } from '../compare/render.js';
import { percentOf as percent } from '../format.js';

/** The cells the comment's and the summary's tables share (pure). */

/** `6/7 (86%)`. */
export function counts(hits: number, runs: number): string {
  return `${hits}/${runs} (${percent(hits, runs)})`;
}

/** A change in rate in percentage points: `+36 pp`, `−25 pp`, `±0 pp`, or `–` without one. */
export function pp(delta: number | null): string {
  if (delta === null) return '–';
  const value = Math.round(delta * 100);
  if (value === 0) return '±0 pp';
  return value > 0 ? `+${value} pp` : `−${-value} pp`;
}

/** A label, a regression in bold. */
export function labelCell(label: ClassComparison['label']): string {
  return label === 'regression' ? '**regression**' : labelText(label);
}
