/**
 * `--versus-fresh` (docs/context.md, "Fresh against the session"): each query that carries a context
 * is measured fresh and with its context, interleaved. The loop is handed the query twice, its fresh
 * copy just before the one with its context, so each pass runs the two side by side; the runs are
 * then folded back into the one query, in the order they ran, each marked by its arm (`inContext`).
 * Pure.
 */
import type { EvalItem } from '../inputs/types.js';

/** The loop's items, and for each the index of the query it measures. */
export interface VersusFreshItems {
  items: EvalItem[];
  origin: number[];
}

/** Each query with a context as two, fresh then with its context; a query without one as it is. */
export function versusFreshItems(items: readonly EvalItem[]): VersusFreshItems {
  const out: EvalItem[] = [];
  const origin: number[] = [];
  items.forEach((item, i) => {
    if (item.context?.turns !== undefined) {
      const { context: _, ...fresh } = item;
      out.push(fresh);
      origin.push(i);
    }
    out.push(item);
    origin.push(i);
  });
  return { items: out, origin };
}

/**
 * `records[side][loop item]` as `records[side][query]`: a query's copies' runs interleaved pass by
 * pass (fresh, then with the context), as the loop ran them.
 */
export function foldRecords<R>(records: R[][][], origin: readonly number[], queries: number): R[][][] {
  return records.map((side) => {
    const copies: R[][][] = Array.from({ length: queries }, () => []);
    for (const [k, runs] of side.entries()) copies[origin[k] ?? -1]?.push(runs);
    return copies.map((own) => {
      const longest = Math.max(0, ...own.map((runs) => runs.length));
      const folded: R[] = [];
      for (let pass = 0; pass < longest; pass++)
        for (const runs of own) if (pass < runs.length) folded.push(runs[pass] as R);
      return folded;
    });
  });
}
