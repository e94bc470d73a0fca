import type { Comparison } from '../../compare/compare.js';
import { subsetClassRows } from '../../compare/render.js';
import {
  intervalText,
  splitInterval,
  splitsOf,
  withoutContext,
  withoutText,
} from '../../compare/subsets-text.js';
import { markdownTable, points } from '../../format.js';
import type { Measurement } from '../../schemas/report.js';
import { counts, labelCell } from './cells.js';

/**
 * The rows the annotated subsets add to a skill's totals table (pure): without the prompts that
 * presuppose a session, then train and holdout. No user text reaches them.
 */

function capitalised(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/**
 * The annotated subsets of one measurement, as rows of the one-column table: the totals without
 * the prompts that presuppose a session, then train and holdout with their rates, 95% intervals
 * and pass counts.
 */
export function subsetRows(m: Measurement): string[][] {
  const rows: string[][] = [];
  for (const cls of ['positives', 'negatives'] as const) {
    const w = withoutContext(m, cls);
    if (w === undefined) continue;
    const verb = cls === 'positives' ? 'Positives triggered' : 'Negatives fired';
    rows.push([`${verb}, ${withoutText(w.marked)}`, counts(w.hits, w.runs)]);
  }
  for (const { split, totals } of splitsOf(m)) {
    for (const cls of ['positives', 'negatives'] as const) {
      const c = cls === 'positives' ? totals.positives : totals.negatives;
      const hits = cls === 'positives' ? totals.positives.triggered : totals.negatives.fired;
      const verb = cls === 'positives' ? 'positives triggered' : 'negatives fired';
      rows.push([
        `${capitalised(split)}: ${verb}`,
        c.queries === 0
          ? 'none'
          : `${counts(hits, c.runs)} · 95% ${intervalText(splitInterval(totals, cls))} · ${c.passed}/${c.queries} pass`,
      ]);
    }
  }
  return rows;
}

/** The compared subsets as rows of the comparison table, the change with its 95% interval. */
export function comparedSubsetRows(c: Comparison): string[][] {
  return subsetClassRows(c).map(({ subset, title, x }) => {
    const passed = (side: 'base' | 'cand') =>
      x.queries === 0 ? '' : ` · ${subset.passed[side][x.class]}/${x.queries} pass`;
    const interval =
      x.interval === null ? '' : ` (95% ${points(x.interval.lower)} to ${points(x.interval.upper)})`;
    return [
      capitalised(title.replace(/^(train|holdout) /, '$1: ')),
      x.queries === 0 ? 'none shared' : `${counts(x.base.hits, x.base.runs)}${passed('base')}`,
      x.queries === 0 ? 'none shared' : `${counts(x.cand.hits, x.cand.runs)}${passed('cand')}`,
      `${points(x.deltaRate)}${interval}`,
      labelCell(x.label),
    ];
  });
}

/**
 * The compared subsets, placed: inside the totals table when train and holdout disagree on a
 * class's label (the reader must see it), else folded under the table in a `<details>` (they tell
 * nothing the whole set's rows do not). Empty without annotated subsets.
 */
export function placedSubsetRows(
  c: Comparison,
  header: string[],
): { inTable: string[][]; folded: string[]; disagree: string[] } {
  const rows = comparedSubsetRows(c);
  if (rows.length === 0) return { inTable: [], folded: [], disagree: [] };
  const disagree = (['positives', 'negatives'] as const).filter((cls) => {
    const label = (name: string) => c.subsets?.find((s) => s.name === name)?.[cls];
    const train = label('train');
    const holdout = label('holdout');
    return train && holdout && train.queries > 0 && holdout.queries > 0 && train.label !== holdout.label;
  });
  if (disagree.length > 0) return { inTable: rows, folded: [], disagree: [...disagree] };
  const names = [...new Set(subsetClassRows(c).map(({ subset }) => subset.name))];
  const title = names
    .map((n) => (n === 'withoutContext' ? 'without the prompts that presuppose a session' : n))
    .join(', ');
  return {
    inTable: [],
    folded: [
      '<details>',
      `<summary>Subsets: ${title}${names.includes('train') ? ' (train and holdout agree)' : ''}</summary>`,
      '',
      ...markdownTable(header, rows),
      '',
      '</details>',
    ],
    disagree: [],
  };
}
