import { UsageError } from '../errors.js';
import type { Measurement, Report } from '../schemas/report.js';
import {
  type CompareOptions,
  type Comparison,
  type ComparisonWarning,
  type ComparisonWarningCode,
  DEFAULT_NAMES,
  pairNames,
  type SubsetComparison,
} from './comparison.js';
import { environmentWarnings } from './environment.js';
import { compareClass, compareRows, type MatchedQueries, matchQueries, overallLabel } from './label.js';
import { listingDifferenceWarnings } from './listing.js';
import { type AnnotationChange, planSubsets, type SubsetPlan } from './subsets.js';

/**
 * `compare` (docs/statistics.md): two measurements of one skill's eval set, side by side, per query and in
 * total over the queries both share, each change labelled. Pure: no I/O, no logging. The test,
 * its level and its limits are explained in docs/statistics.md.
 */

// The types and the environment check live beside this file; callers import them from here too.
export type {
  ClassComparison,
  CompareOptions,
  Comparison,
  ComparisonLabel,
  ComparisonWarning,
  ComparisonWarningCode,
  DescriptionComparison,
  QueryClass,
  QueryComparison,
  SideCounts,
  SubsetComparison,
} from './comparison.js';
export { environmentWarnings } from './environment.js';

const DEFAULT_ALPHA = 0.05;
const DEFAULT_CONFIDENCE = 0.95;

/**
 * Compares two measurements over the queries both share (matched by query text).
 * Warns (after nothing else: there is no environment to compare) on a no-verdict side and on
 * queries left out.
 */
export function compareMeasurements(
  base: Measurement,
  cand: Measurement,
  opts: CompareOptions = {},
): Comparison {
  return buildComparison(base, cand, opts, [], 'measurements');
}

/**
 * Compares report `a` (the baseline) with report `b` (the candidate). Warns first on every
 * environment difference (docs/design.md), then compares their measurements. A paired report given
 * here contributes its candidate measurement, with a warning.
 */
export function compareReports(a: Report, b: Report, opts: CompareOptions = {}): Comparison {
  const names = opts.names ?? DEFAULT_NAMES;
  const warnings: ComparisonWarning[] = [];
  for (const [report, name] of [
    [a, names.base],
    [b, names.cand],
  ] as const) {
    if (report.baseline !== undefined) {
      warnings.push({
        code: 'paired-input',
        message: `${name} is a paired report: its candidate measurement is compared (compare it alone to judge its own baseline against its candidate)`,
      });
    }
  }
  warnings.push(...environmentWarnings(a, b, names));
  return buildComparison(
    withReportVerdict(a.candidate, a),
    withReportVerdict(b.candidate, b),
    { ...opts, names },
    warnings,
    'reports',
  );
}

/**
 * Compares the baseline and the candidate held by one paired report (measured interleaved, in
 * one environment, so there is no environment to warn about). Throws a UsageError when the
 * report holds no baseline.
 */
export function compareReport(paired: Report, opts: CompareOptions = {}): Comparison {
  if (paired.baseline === undefined) {
    throw new UsageError(
      'this report holds one measurement, not a baseline and a candidate: compare it with another report (compare a.json b.json)',
    );
  }
  const names = opts.names ?? pairNames(paired);
  return buildComparison(paired.baseline, paired.candidate, { ...opts, names }, [], 'paired');
}

/** A paired report's verdict counts both sides; a report-level no-verdict is the side's no-verdict. */
function withReportVerdict(m: Measurement, report: Report): Measurement {
  if (report.verdict === 'no-verdict' && m.verdict === 'ok') {
    return { ...m, verdict: 'no-verdict', noVerdictReasons: ['the report has no verdict'] };
  }
  return m;
}

function buildComparison(
  base: Measurement,
  cand: Measurement,
  opts: CompareOptions,
  environment: ComparisonWarning[],
  mode: Comparison['mode'],
): Comparison {
  const alpha = opts.alpha ?? DEFAULT_ALPHA;
  const confidence = opts.confidence ?? DEFAULT_CONFIDENCE;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  const names = opts.names ?? DEFAULT_NAMES;
  const alphaPerClass = alpha / 2;
  const noVerdict = base.verdict === 'no-verdict' || cand.verdict === 'no-verdict';

  const matched = matchQueries(base.queries, cand.queries);
  const plan = planSubsets(matched.pairs, names);
  const warnings = [
    ...environment,
    ...listingDifferenceWarnings(base, cand, names),
    ...setUpWarnings(base, cand, matched, plan.changes, names),
  ];
  const test = { alphaPerClass, confidence, noVerdict };
  const rows = compareRows(matched.pairs, alpha);
  const positives = compareClass('positives', matched.pairs, alphaPerClass, confidence, noVerdict);
  const negatives = compareClass('negatives', matched.pairs, alphaPerClass, confidence, noVerdict);
  const subsets = plan.subsets.map((subset) => compareSubset(subset, test));

  return {
    mode,
    names: { base: names.base, cand: names.cand },
    method: {
      classTest: 'stratified-exact-conditional',
      queryTest: 'fisher-exact-holm',
      interval: 'newcombe-wilson',
      alpha,
      alphaPerClass,
      confidence,
    },
    verdicts: { base: base.verdict, cand: cand.verdict },
    description: {
      base: { bytes: base.description.bytes, sha256: base.description.sha256 },
      cand: { bytes: cand.description.bytes, sha256: cand.description.sha256 },
      sameText: base.description.sha256 === cand.description.sha256,
    },
    warnings,
    queries: {
      shared: matched.pairs.length,
      baseOnly: matched.baseOnly,
      candOnly: matched.candOnly,
      shouldTriggerChanged: matched.shouldTriggerChanged,
    },
    rows,
    positives,
    negatives,
    ...(subsets.length > 0 ? { subsets } : {}),
    label: overallLabel(noVerdict, [positives.label, negatives.label]),
  };
}

/**
 * What differs between the two set-ups besides the environment: a changed annotation, a side
 * with no verdict, queries not on both sides or whose should_trigger changed, a class not shared.
 */
function setUpWarnings(
  base: Measurement,
  cand: Measurement,
  matched: MatchedQueries,
  changes: readonly AnnotationChange[],
  names: { base: string; cand: string },
): ComparisonWarning[] {
  // A changed annotation is a difference between the two set-ups, warned with the environment's.
  const warnings: ComparisonWarning[] = changes.map((ch) => ({
    code: (ch.annotation === 'split' ? 'split-changed' : 'needs-context-changed') as ComparisonWarningCode,
    message: ch.message,
  }));
  for (const [m, name] of [
    [base, names.base],
    [cand, names.cand],
  ] as const) {
    if (m.verdict === 'no-verdict') {
      const why = m.noVerdictReasons.length > 0 ? `: ${m.noVerdictReasons.join('; ')}` : '';
      warnings.push({
        code: 'no-verdict',
        message: `${name} has no verdict${why}; its numbers are not a measurement, so no change is labelled in total`,
      });
    }
  }
  if (matched.baseOnly > 0 || matched.candOnly > 0) {
    warnings.push({
      code: 'queries-unshared',
      message: `queries not on both sides are left out: ${matched.baseOnly} only in ${names.base}, ${matched.candOnly} only in ${names.cand}`,
    });
  }
  if (matched.shouldTriggerChanged > 0) {
    warnings.push({
      code: 'should-trigger-changed',
      message: `${matched.shouldTriggerChanged} ${plural(matched.shouldTriggerChanged, 'query', 'queries')} changed should_trigger between the two eval sets and ${matched.shouldTriggerChanged === 1 ? 'is' : 'are'} left out`,
    });
  }
  for (const cls of ['positives', 'negatives'] as const) {
    const wanted = cls === 'positives';
    if (!matched.pairs.some(([b]) => b.shouldTrigger === wanted)) {
      warnings.push({ code: 'class-not-shared', message: `no shared ${cls}: the ${cls} are not compared` });
    }
  }
  return warnings;
}

/** One subset's two classes compared, with how many of its queries passed on each side. */
function compareSubset(
  { name, pairs }: SubsetPlan,
  test: { alphaPerClass: number; confidence: number; noVerdict: boolean },
): SubsetComparison {
  const { alphaPerClass, confidence, noVerdict } = test;
  const pos = compareClass('positives', pairs, alphaPerClass, confidence, noVerdict);
  const neg = compareClass('negatives', pairs, alphaPerClass, confidence, noVerdict);
  const passed = (side: 0 | 1, wanted: boolean) =>
    pairs.filter((p) => p[side].shouldTrigger === wanted && p[side].pass === true).length;
  return {
    name,
    queries: pairs.length,
    positives: pos,
    negatives: neg,
    passed: {
      base: { positives: passed(0, true), negatives: passed(0, false) },
      cand: { positives: passed(1, true), negatives: passed(1, false) },
    },
    label: overallLabel(noVerdict, [pos.label, neg.label]),
  };
}

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}
