import { UsageError } from '../errors.js';
import type { Measurement, QueryResult, Report } from '../report/schema.js';
import type { SubsetName } from '../verdict/rules.js';
import {
  fisherExactTest,
  type HitCounts,
  holmAdjust,
  type Interval,
  newcombeInterval,
  type Stratum,
  stratifiedExactTest,
} from './statistics.js';
import { planSubsets } from './subsets.js';

/**
 * `compare` (SPEC §2.6): two measurements of one skill's eval set, side by side, per query and in
 * total over the queries both share, each change labelled. Pure: no I/O, no logging. The test,
 * its level and its limits are explained in docs/statistics.md.
 */

/** What a change is called. `no-verdict`: a side has no verdict (or a row has no measured run). */
export type ComparisonLabel = 'noise' | 'improvement' | 'regression' | 'no-verdict';

/** The two classes of queries: should trigger (positives) and near-misses (negatives). */
export type QueryClass = 'positives' | 'negatives';

/** Why the two sides may not be comparable, or what the comparison leaves out. */
export type ComparisonWarningCode =
  | 'paired-input'
  | 'skill'
  | 'tool-version'
  | 'model-requested'
  | 'models-reported'
  /** `--model a,b`: the two reports measured different sets of models (src/compare/by-model.ts). */
  | 'models-differ'
  | 'cli-version'
  | 'roster-unknown'
  | 'roster-members'
  | 'roster-size'
  | 'environment-unknown'
  | 'environment'
  | 'trigger-threshold'
  | 'runs-per-query'
  | 'timeout'
  | 'stub-layout'
  | 'no-verdict-share'
  | 'max-retries'
  | 'conflict-allowed'
  | 'simulated'
  | 'no-verdict'
  | 'queries-unshared'
  | 'should-trigger-changed'
  | 'class-not-shared'
  | 'needs-context-changed'
  | 'split-changed';

export interface ComparisonWarning {
  code: ComparisonWarningCode;
  message: string;
}

export interface CompareOptions {
  /**
   * Family-wise level of each claim (`regression`, and separately `improvement`); default 0.05.
   * Each class total is tested one-sided at alpha / 2 (Bonferroni over positives and negatives);
   * per-query tests are Holm-adjusted over the shared queries at alpha.
   */
  alpha?: number;
  /** Confidence of the interval on each class's change in rate; default 0.95. */
  confidence?: number;
  /** How messages and renderings name the two sides; default `baseline` and `candidate`. */
  names?: { base: string; cand: string };
}

/** Measured runs of one query (or one class) on one side. */
export interface SideCounts {
  hits: number;
  /** Runs that ended triggered or not-triggered; lost runs are excluded, never misses. */
  runs: number;
  /** hits / runs; null without a measured run. */
  rate: number | null;
}

/** One query both sides share (matched by its text). */
export interface QueryComparison {
  /** The candidate's id for the query (ids may differ between eval-set versions; the text matched). */
  id: string;
  query: string;
  shouldTrigger: boolean;
  base: SideCounts;
  cand: SideCounts;
  /** Candidate hits − baseline hits. */
  deltaHits: number;
  /** Candidate rate − baseline rate; null when a side has no measured run. */
  deltaRate: number | null;
  /** Fisher's exact test, one-sided towards the bad direction (fewer hits on a positive, more on a negative). */
  pBad: number;
  /** The same, towards the good direction. */
  pGood: number;
  /** `pBad` Holm-adjusted over the shared queries (what the label compares with alpha). */
  pBadAdjusted: number;
  pGoodAdjusted: number;
  /** A side lost some runs of this query (timeouts, errors, or a stopped run). */
  partial: boolean;
  /** The seeds' noise band in hits (1 when both sides planned at most 2 runs), else null. */
  noiseBand: number | null;
  label: ComparisonLabel;
}

/** One class in total, over the shared queries of that class. */
export interface ClassComparison {
  class: QueryClass;
  /** Shared queries of this class. */
  queries: number;
  base: SideCounts;
  cand: SideCounts;
  deltaHits: number;
  /** Pooled candidate rate − pooled baseline rate; null when a side has no measured run. */
  deltaRate: number | null;
  /** Newcombe's score interval for deltaRate. */
  interval: Interval | null;
  /** Exact conditional test stratified by query, one-sided towards the bad direction. */
  pBad: number;
  pGood: number;
  /** The level pBad and pGood are compared with (alpha / 2). */
  alpha: number;
  /** The seeds' noise band in hits (2 when every shared query planned at most 2 runs a side), else null. */
  noiseBand: number | null;
  label: ComparisonLabel;
}

/**
 * One annotated subset of the shared queries (without needs_context, train, holdout), compared
 * with the same tests as the whole and labelled on its own. The overall label stays the whole
 * set's: the subsets are more looks at the same runs, not more evidence.
 */
export interface SubsetComparison {
  name: SubsetName;
  /** Shared queries in the subset. */
  queries: number;
  positives: ClassComparison;
  negatives: ClassComparison;
  /** Queries of each class that pass their threshold, per side (of the subset's shared queries). */
  passed: {
    base: { positives: number; negatives: number };
    cand: { positives: number; negatives: number };
  };
  /** `regression` if either class regressed; else `improvement` if either improved; else `noise`. */
  label: ComparisonLabel;
}

export interface DescriptionComparison {
  base: { bytes: number; sha256: string };
  cand: { bytes: number; sha256: string };
  /** Same SHA-256 on both sides: an A/A comparison, where any labelled change is a false alarm. */
  sameText: boolean;
}

/** The result of `compare`: typed, JSON-serialisable (no undefined, NaN or Infinity anywhere). */
export interface Comparison {
  /** `reports`: two reports; `paired`: one report's baseline and candidate; `measurements`: two bare measurements. */
  mode: 'reports' | 'paired' | 'measurements';
  names: { base: string; cand: string };
  method: {
    classTest: 'stratified-exact-conditional';
    queryTest: 'fisher-exact-holm';
    interval: 'newcombe-wilson';
    alpha: number;
    alphaPerClass: number;
    confidence: number;
  };
  verdicts: { base: 'ok' | 'no-verdict'; cand: 'ok' | 'no-verdict' };
  description: DescriptionComparison;
  /** Environment differences first, then what the comparison leaves out. */
  warnings: ComparisonWarning[];
  queries: {
    shared: number;
    baseOnly: number;
    candOnly: number;
    /** Same text on both sides but a different should_trigger: left out of the comparison. */
    shouldTriggerChanged: number;
  };
  rows: QueryComparison[];
  positives: ClassComparison;
  negatives: ClassComparison;
  /** The annotated subsets both sides agree on; absent when neither side annotates a shared query. */
  subsets?: SubsetComparison[];
  /** `regression` if either class regressed; else `improvement` if either improved; else `noise`. */
  label: ComparisonLabel;
}

const DEFAULT_ALPHA = 0.05;
const DEFAULT_CONFIDENCE = 0.95;
const DEFAULT_NAMES = { base: 'baseline', cand: 'candidate' } as const;

/** The seeds' rule: at two runs per query, ±1 hit per query and ±2 hits in total are noise. */
const SEEDS_RULE_MAX_RUNS = 2;
const SEEDS_QUERY_BAND = 1;
const SEEDS_TOTAL_BAND = 2;

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
 * environment difference (SPEC §2.6), then compares their measurements. A paired report given
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
  return buildComparison(paired.baseline, paired.candidate, opts, [], 'paired');
}

/** A paired report's verdict counts both sides; a report-level no-verdict is the side's no-verdict. */
function withReportVerdict(m: Measurement, report: Report): Measurement {
  if (report.verdict === 'no-verdict' && m.verdict === 'ok') {
    return { ...m, verdict: 'no-verdict', noVerdictReasons: ['the report has no verdict'] };
  }
  return m;
}

/** Every difference between two reports' environments (SPEC §2.6), in a fixed order. */
export function environmentWarnings(
  a: Report,
  b: Report,
  names: { base: string; cand: string } = DEFAULT_NAMES,
): ComparisonWarning[] {
  const out: ComparisonWarning[] = [];
  const both = (x: string, y: string) => `${names.base} ${x}, ${names.cand} ${y}`;
  const differs = (code: ComparisonWarningCode, what: string, x: unknown, y: unknown) => {
    if (x !== y) out.push({ code, message: `${what} differs: ${both(show(x), show(y))}` });
  };

  differs('skill', 'skill', a.skill, b.skill);
  differs('tool-version', 'skilltrigger version', a.tool.version, b.tool.version);
  differs(
    'model-requested',
    'model requested',
    a.model.requested ?? 'default',
    b.model.requested ?? 'default',
  );

  const modelsA = Object.keys(a.model.reported).sort();
  const modelsB = Object.keys(b.model.reported).sort();
  if (modelsA.join('\n') !== modelsB.join('\n')) {
    out.push({
      code: 'models-reported',
      message: `models the runs reported differ: ${both(showCounts(a.model.reported), showCounts(b.model.reported))}`,
    });
  }

  differs('cli-version', 'Claude CLI version', a.cli.version ?? 'unknown', b.cli.version ?? 'unknown');

  if (a.roster === null || b.roster === null) {
    const missing = [a.roster === null ? names.base : null, b.roster === null ? names.cand : null].filter(
      (n) => n !== null,
    );
    out.push({
      code: 'roster-unknown',
      message: `no roster recorded by ${missing.join(' and ')}: a change in the skills and commands the model sees cannot be ruled out`,
    });
  } else {
    const before = new Set(a.roster.members);
    const after = new Set(b.roster.members);
    const added = [...after].filter((m) => !before.has(m)).length;
    const removed = [...before].filter((m) => !after.has(m)).length;
    if (added > 0 || removed > 0) {
      out.push({
        code: 'roster-members',
        message: `roster members differ (by hash): ${added} added, ${removed} removed from ${names.base} to ${names.cand}`,
      });
    }
    const sizes: string[] = [];
    if (a.roster.skills !== b.roster.skills) sizes.push(`skills ${a.roster.skills} → ${b.roster.skills}`);
    if (a.roster.slashCommands !== b.roster.slashCommands) {
      sizes.push(`slash commands ${a.roster.slashCommands} → ${b.roster.slashCommands}`);
    }
    if (sizes.length > 0)
      out.push({ code: 'roster-size', message: `roster size differs: ${sizes.join(', ')}` });
  }

  if (a.environment === null || b.environment === null) {
    const missing = [
      a.environment === null ? names.base : null,
      b.environment === null ? names.cand : null,
    ].filter((n) => n !== null);
    out.push({
      code: 'environment-unknown',
      message: `no inherited-environment counts recorded by ${missing.join(' and ')}`,
    });
  } else {
    const ea = a.environment;
    const eb = b.environment;
    const diffs: string[] = [];
    const counts: [string, number, number][] = [
      ['project memory files', ea.memoryFiles.project, eb.memoryFiles.project],
      ['user memory files', ea.memoryFiles.user, eb.memoryFiles.user],
      ['hooks', ea.hooks, eb.hooks],
      ['MCP servers', ea.mcpServers, eb.mcpServers],
    ];
    for (const [what, x, y] of counts) if (x !== y) diffs.push(`${what} ${x} → ${y}`);
    if (diffs.length > 0) {
      out.push({ code: 'environment', message: `inherited environment differs: ${diffs.join(', ')}` });
    }
  }

  const sa = a.settings;
  const sb = b.settings;
  differs('trigger-threshold', 'trigger threshold', sa.triggerThreshold, sb.triggerThreshold);
  differs('runs-per-query', 'runs per query', sa.runsPerQuery, sb.runsPerQuery);
  differs('runs-per-query', 'runs mode', sa.runsMode ?? 'fixed', sb.runsMode ?? 'fixed');
  differs('timeout', 'per-run timeout (s)', sa.timeoutSeconds, sb.timeoutSeconds);
  differs('stub-layout', 'stub layout', sa.stub, sb.stub);
  differs('no-verdict-share', 'no-verdict share', sa.noVerdictShare, sb.noVerdictShare);
  differs('max-retries', 'API retries per run', sa.maxRetries, sb.maxRetries);
  differs(
    'conflict-allowed',
    'conflict check',
    a.conflictAllowed ? 'allowed (--allow-conflict)' : 'enforced',
    b.conflictAllowed ? 'allowed (--allow-conflict)' : 'enforced',
  );
  differs(
    'simulated',
    'simulated flag',
    a.simulated ? 'simulated' : 'real',
    b.simulated ? 'simulated' : 'real',
  );
  return out;
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
  // A changed annotation is a difference between the two set-ups, warned with the environment's.
  const warnings = [
    ...environment,
    ...plan.changes.map((ch) => ({
      code: (ch.annotation === 'split' ? 'split-changed' : 'needs-context-changed') as ComparisonWarningCode,
      message: ch.message,
    })),
  ];
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

  const rows = compareRows(matched.pairs, alpha);
  const positives = compareClass('positives', matched.pairs, alphaPerClass, confidence, noVerdict);
  const negatives = compareClass('negatives', matched.pairs, alphaPerClass, confidence, noVerdict);
  const subsets = plan.subsets.map(({ name, pairs }): SubsetComparison => {
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
  });

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

type QueryPair = readonly [QueryResult, QueryResult];

interface MatchedQueries {
  /** Baseline and candidate results of each shared query, in the baseline's order. */
  pairs: QueryPair[];
  baseOnly: number;
  candOnly: number;
  shouldTriggerChanged: number;
}

/** Matches by query text (ids are positional in some eval formats; the text is what was asked). */
function matchQueries(base: readonly QueryResult[], cand: readonly QueryResult[]): MatchedQueries {
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

function compareRows(pairs: readonly QueryPair[], alpha: number): QueryComparison[] {
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

function compareClass(
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

function overallLabel(noVerdict: boolean, labels: readonly ComparisonLabel[]): ComparisonLabel {
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

function show(x: unknown): string {
  return typeof x === 'string' ? x : JSON.stringify(x);
}

function showCounts(record: Record<string, number>): string {
  const entries = Object.entries(record).sort(([x], [y]) => x.localeCompare(y));
  return entries.length === 0 ? 'none' : entries.map(([k, v]) => `${k} ×${v}`).join(', ');
}

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}
