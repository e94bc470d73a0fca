import type { QueryResult } from '../schemas/report.js';
import { SUBSET_ANNOTATIONS, SUBSETS, type SubsetAnnotation, type SubsetName } from '../verdict/rules.js';

/**
 * Which annotated subsets `compare` labels on their own (pure). A subset is compared only when
 * both sides annotate the shared queries alike: were a query marked needs_context on one side
 * only, "without the ones that presuppose a session" would mean other queries on each side, and
 * its change would be the annotation's, not the description's. That case is a warning instead.
 */

/** What the warning says of each annotation: how a marked query is described, and what is left uncompared. */
const WORDING: Record<SubsetAnnotation['annotation'], { what: string; left: string }> = {
  needs_context: {
    what: 'marked needs_context',
    left: 'the totals without the prompts that presuppose a session are',
  },
  split: { what: 'held out', left: 'train and holdout are' },
};

export type QueryPair = readonly [QueryResult, QueryResult];

/** An annotation the two sides disagree on, over the shared queries. */
export interface AnnotationChange {
  annotation: SubsetAnnotation['annotation'];
  /** Shared queries the annotation marks on the baseline side only. */
  baseOnly: number;
  /** Shared queries the annotation marks on the candidate side only. */
  candOnly: number;
  message: string;
}

export interface SubsetPlan {
  name: SubsetName;
  /** The shared queries of the subset (both sides agree which they are). */
  pairs: QueryPair[];
}

/**
 * The subsets to compare over the shared queries, and the annotations that changed. An
 * annotation neither side uses gives no subset and no warning.
 */
export function planSubsets(
  pairs: readonly QueryPair[],
  names: { base: string; cand: string },
): { subsets: SubsetPlan[]; changes: AnnotationChange[] } {
  const subsets: SubsetPlan[] = [];
  const changes: AnnotationChange[] = [];
  for (const a of SUBSET_ANNOTATIONS) {
    if (!pairs.some(([b, c]) => a.marked(b) || a.marked(c))) continue;
    const baseOnly = pairs.filter(([b, c]) => a.marked(b) && !a.marked(c)).length;
    const candOnly = pairs.filter(([b, c]) => !a.marked(b) && a.marked(c)).length;
    if (baseOnly + candOnly > 0) {
      const n = baseOnly + candOnly;
      const parts = [
        ...(baseOnly > 0 ? [`${baseOnly} only in ${names.base}`] : []),
        ...(candOnly > 0 ? [`${candOnly} only in ${names.cand}`] : []),
      ];
      changes.push({
        annotation: a.annotation,
        baseOnly,
        candOnly,
        message: `the ${a.annotation} annotation differs between the two eval sets: ${n} shared ${n === 1 ? 'query is' : 'queries are'} ${WORDING[a.annotation].what} on one side only (${parts.join(', ')}), so ${WORDING[a.annotation].left} not compared`,
      });
      continue;
    }
    for (const name of a.subsets) {
      subsets.push({ name, pairs: pairs.filter(([b]) => SUBSETS[name](b)) });
    }
  }
  return { subsets, changes };
}
