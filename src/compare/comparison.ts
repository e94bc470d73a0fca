import type { Report } from '../schemas/report.js';
import type { SubsetName } from '../verdict/rules.js';
import type { Interval } from '../verdict/statistics.js';

/**
 * What `compare` returns (docs/statistics.md), and the names it uses. Types only, plus the sides' names:
 * the renderers (Markdown, the Action's comment, HTML, improve) import them from here.
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
  /** `--agent`: the two reports measured on different agents (a rate on one says nothing about another). */
  | 'agents'
  | 'model-requested'
  | 'models-reported'
  /** `--model a,b`: the two reports measured different sets of models (src/compare/by-model.ts). */
  | 'models-differ'
  /** `--agent`: the two reports measured different sets of agents (src/compare/by-agent.ts). */
  | 'agents-differ'
  | 'cli-version'
  | 'roster-unknown'
  | 'roster-members'
  | 'roster-size'
  | 'siblings'
  /** `run --roster`: the two reports were listed among different crowds, or one among none. */
  | 'roster-crowd'
  /** `run --memory`: the two reports' runs held different memory files, or one held none (src/compare/memory.ts). */
  | 'memory'
  /** How the stub and its catalogue were listed differs (src/compare/listing.ts). */
  | 'listing-unknown'
  | 'listing-state'
  | 'listing-members'
  | 'listing-budget'
  | 'environment-unknown'
  | 'environment'
  | 'trigger-threshold'
  | 'runs-per-query'
  | 'timeout'
  | 'stub-layout'
  | 'no-verdict-share'
  | 'max-retries'
  | 'launch'
  | 'conflict-allowed'
  | 'simulated'
  | 'no-verdict'
  | 'queries-unshared'
  | 'should-trigger-changed'
  | 'class-not-shared'
  | 'needs-context-changed'
  /** The runs did not start with the same contexts (`--context`, or a shared query's own; docs/context.md). */
  | 'context'
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

/** How the two sides are named when the caller does not say. */
export const DEFAULT_NAMES = { base: 'baseline', cand: 'candidate' } as const;

/** How `run --roster --versus-clean` names its two sides: the crowd is what differs (docs/roster.md). */
export const VERSUS_CLEAN_NAMES = { base: 'clean room', cand: 'among the crowd' } as const;

/** How a paired report names its own two sides: by the crowd under `--versus-clean`, else baseline and candidate. */
export function pairNames(report: Pick<Report, 'settings'>): { base: string; cand: string } {
  return report.settings.roster?.versusClean ? VERSUS_CLEAN_NAMES : DEFAULT_NAMES;
}
