/** The `--json` output of a comparison: a stable, versioned shape with its keys in a fixed order. */
import type { Interval } from '../verdict/statistics.js';
import type { ClassComparison, Comparison, QueryComparison, SubsetComparison } from './compare.js';

/** The `--json` output's schema id and version: bump the version on any change of shape. */
export const COMPARISON_SCHEMA_ID = 'skilltrigger/comparison';
// 2: `simulated` (always) and `subsets` (where a set marks needs_context or a holdout) were added.
export const COMPARISON_SCHEMA_VERSION = 2;

/** What the caller knows that the comparison does not: whether both sides came from the simulated model. */
export interface RenderOptions {
  /** Both reports were answered by the simulated model: said first in text, `simulated: true` in JSON. */
  simulated?: boolean;
}

/** The `--json` output: a stable, versioned shape (keys in a fixed order), ending with a newline. */
export function comparisonJson(c: Comparison, opts: RenderOptions = {}): string {
  const value = {
    schema: COMPARISON_SCHEMA_ID,
    schemaVersion: COMPARISON_SCHEMA_VERSION,
    mode: c.mode,
    simulated: opts.simulated === true,
    names: { base: c.names.base, cand: c.names.cand },
    label: c.label,
    warnings: c.warnings.map((w) => ({ code: w.code, message: w.message })),
    verdicts: { base: c.verdicts.base, cand: c.verdicts.cand },
    description: {
      sameText: c.description.sameText,
      base: { bytes: c.description.base.bytes, sha256: c.description.base.sha256 },
      cand: { bytes: c.description.cand.bytes, sha256: c.description.cand.sha256 },
    },
    method: {
      classTest: c.method.classTest,
      queryTest: c.method.queryTest,
      interval: c.method.interval,
      alpha: c.method.alpha,
      alphaPerClass: c.method.alphaPerClass,
      confidence: c.method.confidence,
    },
    queries: {
      shared: c.queries.shared,
      baseOnly: c.queries.baseOnly,
      candOnly: c.queries.candOnly,
      shouldTriggerChanged: c.queries.shouldTriggerChanged,
    },
    totals: { positives: classJson(c.positives), negatives: classJson(c.negatives) },
    // Only where a subset is compared, so a comparison of unannotated sets keeps its shape.
    ...(c.subsets === undefined ? {} : { subsets: c.subsets.map(subsetJson) }),
    rows: c.rows.map(rowJson),
  };
  return `${JSON.stringify(value, null, 2)}\n`;
}

function sideJson(s: QueryComparison['base']) {
  return { hits: s.hits, runs: s.runs, rate: s.rate };
}

function intervalJson(i: Interval | null) {
  return i === null ? null : { lower: i.lower, upper: i.upper, confidence: i.confidence };
}

function classJson(x: ClassComparison) {
  return {
    class: x.class,
    queries: x.queries,
    base: sideJson(x.base),
    cand: sideJson(x.cand),
    deltaHits: x.deltaHits,
    deltaRate: x.deltaRate,
    interval: intervalJson(x.interval),
    pBad: x.pBad,
    pGood: x.pGood,
    alpha: x.alpha,
    noiseBand: x.noiseBand,
    label: x.label,
  };
}

function subsetJson(s: SubsetComparison) {
  return {
    name: s.name,
    queries: s.queries,
    positives: classJson(s.positives),
    negatives: classJson(s.negatives),
    passed: {
      base: { positives: s.passed.base.positives, negatives: s.passed.base.negatives },
      cand: { positives: s.passed.cand.positives, negatives: s.passed.cand.negatives },
    },
    label: s.label,
  };
}

function rowJson(r: QueryComparison) {
  return {
    id: r.id,
    query: r.query,
    shouldTrigger: r.shouldTrigger,
    base: sideJson(r.base),
    cand: sideJson(r.cand),
    deltaHits: r.deltaHits,
    deltaRate: r.deltaRate,
    pBad: r.pBad,
    pGood: r.pGood,
    pBadAdjusted: r.pBadAdjusted,
    pGoodAdjusted: r.pGoodAdjusted,
    partial: r.partial,
    noiseBand: r.noiseBand,
    label: r.label,
  };
}
