import type { ClassComparison } from '../../compare/compare.js';
import { labelText } from '../../compare/render.js';
import { percentOf as percent } from '../../format.js';
import type { SkillStanding } from '../results/results.js';

/** The cells the comment's and the summary's tables share (pure). */

/** `6/7 (86%)`. */
export function counts(hits: number, runs: number): string {
  return `${hits}/${runs} (${percent(hits, runs)})`;
}

/** A label, a regression in bold. */
export function labelCell(label: ClassComparison['label']): string {
  return label === 'regression' ? '**regression**' : labelText(label);
}

/** A standing in words, as the tables and the headings show it. */
export function standingText(standing: SkillStanding): string {
  switch (standing) {
    case 'regression':
    case 'improvement':
    case 'noise':
    case 'no-verdict':
      // The comparison's own labels read as compare prints them.
      return labelText(standing);
    case 'no-baseline':
      return 'no baseline';
    case 'measured':
      return 'measured';
    case 'not-measured':
      return 'not measured';
    case 'invalid':
      return 'input error';
  }
}
