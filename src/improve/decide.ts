import type { ClassComparison, Comparison, ComparisonLabel } from '../compare/compare.js';
import type { EvalItem } from '../inputs/types.js';
import { isHoldout } from '../inputs/weak-set.js';
import type { QueryResult } from '../schemas/report.js';

/**
 * The rules of `improve`, pure: which queries train and which are held out, when a candidate is
 * accepted, when the session stops, and whether a winner held on the holdout.
 *
 * The level: the whole session accepts a rewrite that is no better than the incumbent with a
 * chance of at most `SESSION_ALPHA` (5%). A session tests at most `iterations` candidates, so each
 * is tested at SESSION_ALPHA / iterations (Bonferroni: valid whatever the dependence between the
 * tests). Within one test, compare's own rule applies: each class's exact stratified test at half
 * that level, an improvement in one class and a regression in neither (docs/statistics.md).
 */
export const SESSION_ALPHA = 0.05;

/** The level each candidate's paired comparison is judged at. */
export function proposalAlpha(iterations: number): number {
  return SESSION_ALPHA / Math.max(1, iterations);
}

/** The two parts of an eval set; holdout queries are never shown to the rewriter. */
export function splitItems(items: readonly EvalItem[]): { train: EvalItem[]; holdout: EvalItem[] } {
  return {
    train: items.filter((i) => !isHoldout(i)),
    holdout: items.filter((i) => isHoldout(i)),
  };
}

/** Hits and measured runs of one class. */
export interface ClassFigures {
  hits: number;
  runs: number;
}

/** One description's figures over a set of queries. */
export interface Figures {
  positives: ClassFigures;
  negatives: ClassFigures;
}

export function figuresOf(queries: readonly QueryResult[], ids?: ReadonlySet<string>): Figures {
  const add = (shouldTrigger: boolean): ClassFigures => {
    let hits = 0;
    let runs = 0;
    for (const q of queries) {
      if (q.shouldTrigger !== shouldTrigger || (ids !== undefined && !ids.has(q.id))) continue;
      hits += q.hits;
      runs += q.runs;
    }
    return { hits, runs };
  };
  return { positives: add(true), negatives: add(false) };
}

/** The verdict on one candidate. */
export interface CandidateDecision {
  decision: 'accepted' | 'rejected';
  /** compare's label of the paired train comparison. */
  label: ComparisonLabel;
  /** The smallest one-sided p-value in the good direction over the two classes. */
  pValue: number;
  reason: string;
}

function classWords(c: ClassComparison): string {
  return c.class === 'positives' ? 'positives triggered' : 'negatives fired';
}

function showP(p: number): string {
  return p.toFixed(4);
}

/** `p = 0.0042`, or `p < 0.0001` for a p-value four decimals would show as zero. */
function pIs(p: number): string {
  return p < 0.0001 ? 'p < 0.0001' : `p = ${showP(p)}`;
}

/** Accept only compare's `improvement` (an improvement in a class, a regression in none). */
export function decideCandidate(c: Comparison): CandidateDecision {
  const pValue = Math.min(c.positives.pGood, c.negatives.pGood);
  const level = c.method.alphaPerClass;
  switch (c.label) {
    case 'improvement': {
      const better = [c.positives, c.negatives].filter((k) => k.label === 'improvement');
      return {
        decision: 'accepted',
        label: c.label,
        pValue,
        reason: `improvement on train: ${better.map((k) => `${classWords(k)} ${k.base.hits}/${k.base.runs} → ${k.cand.hits}/${k.cand.runs} (${pIs(k.pGood)} < ${showP(level)})`).join(', ')}, no regression`,
      };
    }
    case 'regression': {
      const worse = [c.positives, c.negatives].filter((k) => k.label === 'regression');
      return {
        decision: 'rejected',
        label: c.label,
        pValue,
        reason: `regression on train: ${worse.map((k) => `${classWords(k)} ${k.base.hits}/${k.base.runs} → ${k.cand.hits}/${k.cand.runs} (${pIs(k.pBad)})`).join(', ')}`,
      };
    }
    case 'noise':
      return {
        decision: 'rejected',
        label: c.label,
        pValue,
        reason: `no significant improvement on train (smallest ${pIs(pValue)}, needs < ${showP(level)}): positives ${c.positives.base.hits}/${c.positives.base.runs} → ${c.positives.cand.hits}/${c.positives.cand.runs}, negatives ${c.negatives.base.hits}/${c.negatives.base.runs} → ${c.negatives.cand.hits}/${c.negatives.cand.runs}`,
      };
    case 'no-verdict':
      return {
        decision: 'rejected',
        label: c.label,
        pValue,
        reason: 'the paired measurement has no verdict (too many runs lost), so nothing can be concluded',
      };
  }
}

/** Why the session stops after `done` proposals, or undefined to go on. */
export function stopReason(
  decisions: readonly ('accepted' | 'rejected')[],
  iterations: number,
): string | undefined {
  if (decisions.length >= iterations) return `reached --iterations ${iterations}`;
  const [last, before] = [decisions[decisions.length - 1], decisions[decisions.length - 2]];
  if (last === 'rejected' && before === 'rejected') return 'two proposals in a row were rejected';
  return undefined;
}

type Side = ClassComparison['base'];

/**
 * Positives − negatives rate as an exact fraction of whole numbers (a class without runs counts as a
 * rate of 0), so two equal scores compare equal: in floating point 0.7 − 0.1 is below 0.9 − 0.3.
 */
function exactScore(pos: Side, neg: Side): { num: bigint; den: bigint } {
  const fraction = (s: Side) =>
    s.runs === 0 ? { hits: 0n, runs: 1n } : { hits: BigInt(s.hits), runs: BigInt(s.runs) };
  const [p, n] = [fraction(pos), fraction(neg)];
  return { num: p.hits * n.runs - n.hits * p.runs, den: p.runs * n.runs };
}

/** Whether the winner's positives − negatives rate is below the original's, compared exactly. */
function scoreBelow(winPos: Side, winNeg: Side, origPos: Side, origNeg: Side): boolean {
  const [w, o] = [exactScore(winPos, winNeg), exactScore(origPos, origNeg)];
  return w.num * o.den < o.num * w.den;
}

/**
 * A winner holds on the holdout when the paired holdout comparison shows no regression in either
 * class and, pooled, its positives-minus-negatives rate is at least the original's. The holdout is
 * small, so a significant gain there is not required: only that the train gain did not reverse.
 */
export function holdsOnHoldout(c: Comparison): { holds: boolean; reason: string } {
  if (c.label === 'no-verdict') return { holds: false, reason: 'the holdout measurement has no verdict' };
  if (c.label === 'regression') {
    const worse = [c.positives, c.negatives].filter((k) => k.label === 'regression').map((k) => k.class);
    return { holds: false, reason: `it regressed on the holdout ${worse.join(' and ')}` };
  }
  const score = (pos: number | null, neg: number | null) => (pos ?? 0) - (neg ?? 0);
  const original = score(c.positives.base.rate, c.negatives.base.rate);
  const winner = score(c.positives.cand.rate, c.negatives.cand.rate);
  if (scoreBelow(c.positives.cand, c.negatives.cand, c.positives.base, c.negatives.base)) {
    return {
      holds: false,
      reason: `on the holdout its positives − negatives rate is ${winner.toFixed(2)}, below the original's ${original.toFixed(2)}`,
    };
  }
  return {
    holds: true,
    reason: `on the holdout its positives − negatives rate is ${winner.toFixed(2)} against the original's ${original.toFixed(2)}, with no regression`,
  };
}
