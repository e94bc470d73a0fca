import type { QueryResult } from '../schemas/report.js';
import {
  fisherExactTest,
  type HitCounts,
  holmAdjust,
  newcombeInterval,
  type Stratum,
  stratifiedExactTest,
} from '../verdict/statistics.js';
import type {
  ClassComparison,
  ComparisonLabel,
  QueryClass,
  QueryComparison,
  SideCounts,
} from './comparison.js';
import type { QueryPair } from './subsets.js';

/**
 * How `compare` pairs the two sides' queries and labels each change: per query (Fisher, Holm over
 * the shared queries) and per class (the stratified exact test, Newcombe's interval). Pure.
 */

/** The seeds' rule: at two runs per query, ±1 hit per query and ±2 hits in total are noise. */
const SEEDS_RULE_MAX_RUNS = 2;
const SEEDS_QUERY_BAND = 1;
const SEEDS_TOTAL_BAND = 2;

export interface MatchedQueries {
  /** Baseline and candidate results of each shared query, in the baseline's order. */
  pairs: QueryPair[];
  baseOnly: number;
  candOnly: number;
  shouldTriggerChanged: number;
}

/** Matches by query text (ids are positional in some eval formats; the text is what was asked). */
export function matchQueries(base: readonly QueryResult[], cand: readonly QueryResult[]): MatchedQueries {
  const candByText = new Map<string, QueryResult>();
  let candDuplicates = 0;
  for (const q of cand) {
    if (candByText.has(q.query)) candDuplicates++;
    else candByText.set(q.query, q);
  }
  const pairs: QueryPair[] = [];
  const used = new Set<string>();
  let baseOnly = 0;
  let shouldTriggerChanged = 0;
  for (const b of base) {
    const c = candByText.get(b.query);
    if (c === undefined || used.has(b.query)) {
      baseOnly++;
      continue;
    }
    used.add(b.query);
    if (c.shouldTrigger !== b.shouldTrigger) {
      shouldTriggerChanged++;
      continue;
    }
    pairs.push([b, c]);
  }
  const candOnly = candByText.size - used.size + candDuplicates;
  return { pairs, baseOnly, candOnly, shouldTriggerChanged };
}

export function compareRows(pairs: readonly QueryPair[], alpha: number): QueryComparison[] {
  const raw = pairs.map(([b, c]) => {
    const stratum = stratumOf(b, c);
    const test = fisherExactTest(stratum);
    const measured = b.runs > 0 && c.runs > 0;
    const [pBad, pGood] = b.shouldTrigger ? [test.pLess, test.pGreater] : [test.pGreater, test.pLess];
    return { b, c, measured, pBad, pGood };
  });
  // Holm over the rows with runs on both sides; a row without any is not a test.
  const tested = raw.filter((r) => r.measured);
  const badAdj = holmAdjust(tested.map((r) => r.pBad));
  const goodAdj = holmAdjust(tested.map((r) => r.pGood));
  let k = 0;
  return raw.map(({ b, c, measured, pBad, pGood }) => {
    const pBadAdjusted = measured ? (badAdj[k] ?? 1) : 1;
    const pGoodAdjusted = measured ? (goodAdj[k] ?? 1) : 1;
    if (measured) k++;
    const noiseBand =
      Math.max(b.planned, c.planned, b.runs, c.runs) <= SEEDS_RULE_MAX_RUNS ? SEEDS_QUERY_BAND : null;
    const deltaHits = c.hits - b.hits;
    const deltaRate = measured ? c.hits / c.runs - b.hits / b.runs : null;
    const label: ComparisonLabel = measured
      ? changeLabel(b.shouldTrigger, deltaHits, deltaRate, pBadAdjusted, pGoodAdjusted, alpha, noiseBand)
      : 'no-verdict';
    return {
      id: c.id,
      query: c.query,
      shouldTrigger: b.shouldTrigger,
      base: sideCounts(b.hits, b.runs),
      cand: sideCounts(c.hits, c.runs),
      deltaHits,
      deltaRate,
      pBad,
      pGood,
      pBadAdjusted,
      pGoodAdjusted,
      partial: b.partial || c.partial || b.runs < b.planned || c.runs < c.planned,
      noiseBand,
      label,
    };
  });
}

export function compareClass(
  cls: QueryClass,
  pairs: readonly QueryPair[],
  alpha: number,
  confidence: number,
  noVerdict: boolean,
): ClassComparison {
  const wanted = cls === 'positives';
  const ofClass = pairs.filter(([b]) => b.shouldTrigger === wanted);
  const strata = ofClass.map(([b, c]) => stratumOf(b, c));
  const base = sum(strata.map((s) => s.base));
  const cand = sum(strata.map((s) => s.cand));
  const test = stratifiedExactTest(strata);
  const [pBad, pGood] = wanted ? [test.pLess, test.pGreater] : [test.pGreater, test.pLess];
  const deltaHits = cand.hits - base.hits;
  const deltaRate = base.runs > 0 && cand.runs > 0 ? cand.hits / cand.runs - base.hits / base.runs : null;
  const seedsRule =
    ofClass.length > 0 &&
    ofClass.every(([b, c]) => Math.max(b.planned, c.planned, b.runs, c.runs) <= SEEDS_RULE_MAX_RUNS);
  const noiseBand = seedsRule ? SEEDS_TOTAL_BAND : null;
  return {
    class: cls,
    queries: ofClass.length,
    base: sideCounts(base.hits, base.runs),
    cand: sideCounts(cand.hits, cand.runs),
    deltaHits,
    deltaRate,
    interval: newcombeInterval(base, cand, confidence),
    pBad,
    pGood,
    alpha,
    noiseBand,
    label: noVerdict
      ? 'no-verdict'
      : changeLabel(wanted, deltaHits, deltaRate, pBad, pGood, alpha, noiseBand),
  };
}

/**
 * A change is a regression only when the test is significant in the bad direction, the rate
 * moved in the bad direction, and — where the seeds' rule applies — the hit difference is beyond
 * its noise band. `improvement` is the mirror image. Everything else is noise.
 */
function changeLabel(
  shouldTrigger: boolean,
  deltaHits: number,
  deltaRate: number | null,
  pBad: number,
  pGood: number,
  alpha: number,
  noiseBand: number | null,
): ComparisonLabel {
  if (deltaRate === null) return 'noise';
  // Signed so that positive means "better": more hits on a positive, fewer on a negative.
  const better = shouldTrigger ? 1 : -1;
  const beyondBand = (d: number) => noiseBand === null || d > noiseBand;
  if (pBad < alpha && better * deltaRate < 0 && beyondBand(-better * deltaHits)) return 'regression';
  if (pGood < alpha && better * deltaRate > 0 && beyondBand(better * deltaHits)) return 'improvement';
  return 'noise';
}

export function overallLabel(noVerdict: boolean, labels: readonly ComparisonLabel[]): ComparisonLabel {
  if (noVerdict) return 'no-verdict';
  if (labels.includes('regression')) return 'regression';
  if (labels.includes('improvement')) return 'improvement';
  return 'noise';
}

function stratumOf(b: QueryResult, c: QueryResult): Stratum {
  return { base: { hits: b.hits, runs: b.runs }, cand: { hits: c.hits, runs: c.runs } };
}

function sum(counts: readonly HitCounts[]): HitCounts {
  return counts.reduce((acc, x) => ({ hits: acc.hits + x.hits, runs: acc.runs + x.runs }), {
    hits: 0,
    runs: 0,
  });
}

function sideCounts(hits: number, runs: number): SideCounts {
  return { hits, runs, rate: runs > 0 ? hits / runs : null };
}
