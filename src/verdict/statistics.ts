/**
 * The statistics behind `compare` (the reasoning is in docs/statistics.md).
 *
 * Every function here is pure: numbers in, numbers out, no I/O, no logging, no randomness.
 *
 * The model: a run of query q on side s triggers with an unknown probability p(q, s), runs are
 * independent, and the rates differ from query to query. The null hypothesis of "no change" is
 * p(q, base) = p(q, cand) for every query. Conditioning each query's 2×2 table (side × hit) on
 * its total hits removes the unknown per-query rate: side B's hits are then hypergeometric. The
 * sum of side B's hits over the queries is the statistic of the exact conditional test for a
 * common odds ratio of 1 (the exact form of the Cochran–Mantel–Haenszel test); its null
 * distribution is the convolution of the per-query hypergeometrics — exact for any number of
 * runs and queries, unequal runs per side included.
 */

/** Hits out of measured runs (timeouts and errors are not runs: they are excluded, never misses). */
export interface HitCounts {
  readonly hits: number;
  readonly runs: number;
}

/** One query's 2×2 table: the baseline side and the candidate side. */
export interface Stratum {
  readonly base: HitCounts;
  readonly cand: HitCounts;
}

/** A distribution on the integers `min, min + 1, …, min + probabilities.length - 1`. */
export interface DiscreteDistribution {
  readonly min: number;
  readonly probabilities: readonly number[];
}

/**
 * The result of a one-sided exact test on the candidate's hits.
 * `pLess` = P(T ≤ observed) under the null, `pGreater` = P(T ≥ observed); both include the
 * observed value, so each is a valid one-sided p-value (discrete, hence conservative).
 */
export interface ExactTestResult {
  /** The candidate's hits (summed over strata for the stratified test). */
  readonly observed: number;
  /** Their expectation under the null, given the margins. */
  readonly expected: number;
  readonly pLess: number;
  readonly pGreater: number;
  /** Strata whose margins leave the candidate's hits free to vary (the others carry no information). */
  readonly informativeStrata: number;
}

/** A two-sided confidence interval. */
export interface Interval {
  readonly lower: number;
  readonly upper: number;
  /** e.g. 0.95 */
  readonly confidence: number;
}

const LOG_FACTORIAL_TABLE_SIZE = 257;
const LOG_FACTORIAL_TABLE: readonly number[] = (() => {
  const table = [0];
  for (let n = 1; n < LOG_FACTORIAL_TABLE_SIZE; n++) table.push((table[n - 1] ?? 0) + Math.log(n));
  return table;
})();

/**
 * ln(n!) for a non-negative integer n. Summed exactly up to 256; beyond, Stirling's series,
 * whose truncation error there is below 1e-17 — far below double precision on ln(n!).
 */
export function logFactorial(n: number): number {
  assertCount(n, 'n');
  const tabled = LOG_FACTORIAL_TABLE[n];
  if (tabled !== undefined) return tabled;
  const n2 = n * n;
  return (
    n * Math.log(n) -
    n +
    0.5 * Math.log(2 * Math.PI * n) +
    1 / (12 * n) -
    1 / (360 * n * n2) +
    1 / (1260 * n * n2 * n2)
  );
}

/** ln C(n, k); −Infinity when k is outside 0…n. */
export function logChoose(n: number, k: number): number {
  assertCount(n, 'n');
  if (!Number.isInteger(k) || k < 0 || k > n) return Number.NEGATIVE_INFINITY;
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}

/** ln B(a, b) for positive integers a, b. */
function logBeta(a: number, b: number): number {
  return logFactorial(a - 1) + logFactorial(b - 1) - logFactorial(a + b - 1);
}

/**
 * P(K = k) for K beta-binomial: the hits in `n` more runs when the rate has a Beta(a, b)
 * distribution (a, b positive integers; with a uniform prior, a = hits + 1 and b = misses + 1).
 * In log space, like the hypergeometric below.
 */
export function betaBinomialPmf(k: number, n: number, a: number, b: number): number {
  const logP = logChoose(n, k) + logBeta(a + k, b + n - k) - logBeta(a, b);
  return Math.exp(logP);
}

/**
 * P(X = k) for X hypergeometric: `draws` taken without replacement from a `population` holding
 * `successes` successes. Computed in log space, so large arguments neither overflow nor
 * underflow until the probability itself is below ~1e-308.
 */
export function hypergeometricPmf(k: number, population: number, successes: number, draws: number): number {
  checkHypergeometric(population, successes, draws);
  const log =
    logChoose(successes, k) + logChoose(population - successes, draws - k) - logChoose(population, draws);
  return Math.exp(log);
}

/**
 * The whole hypergeometric distribution on its support
 * max(0, draws − (population − successes)) … min(draws, successes), normalised so it sums to 1
 * (terms are computed relative to the largest one, which keeps them stable).
 */
export function hypergeometricDistribution(
  population: number,
  successes: number,
  draws: number,
): DiscreteDistribution {
  checkHypergeometric(population, successes, draws);
  const min = Math.max(0, draws - (population - successes));
  const max = Math.min(draws, successes);
  const logs: number[] = [];
  for (let k = min; k <= max; k++) {
    logs.push(logChoose(successes, k) + logChoose(population - successes, draws - k));
  }
  const peak = logs.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY);
  const weights = logs.map((l) => Math.exp(l - peak));
  const total = weights.reduce((a, b) => a + b, 0);
  return { min, probabilities: weights.map((w) => w / total) };
}

/** The distribution of the sum of two independent variables. */
export function convolve(a: DiscreteDistribution, b: DiscreteDistribution): DiscreteDistribution {
  const pa = a.probabilities;
  const pb = b.probabilities;
  const out = new Array<number>(pa.length + pb.length - 1).fill(0);
  for (let i = 0; i < pa.length; i++) {
    const x = pa[i] ?? 0;
    if (x === 0) continue;
    for (let j = 0; j < pb.length; j++) out[i + j] = (out[i + j] ?? 0) + x * (pb[j] ?? 0);
  }
  return { min: a.min + b.min, probabilities: out };
}

/** P(X ≤ t). Summed directly over the tail, so small p-values keep their relative precision. */
export function probabilityAtMost(dist: DiscreteDistribution, t: number): number {
  let sum = 0;
  const last = Math.min(t - dist.min, dist.probabilities.length - 1);
  for (let i = 0; i <= last; i++) sum += dist.probabilities[i] ?? 0;
  return clampProbability(sum);
}

/** P(X ≥ t). */
export function probabilityAtLeast(dist: DiscreteDistribution, t: number): number {
  let sum = 0;
  for (let i = Math.max(0, t - dist.min); i < dist.probabilities.length; i++)
    sum += dist.probabilities[i] ?? 0;
  return clampProbability(sum);
}

/** The mean of a distribution. */
export function mean(dist: DiscreteDistribution): number {
  return dist.probabilities.reduce((acc, p, i) => acc + p * (dist.min + i), 0);
}

/**
 * The null distribution of the candidate's hits in one query, given that query's total hits:
 * hypergeometric(population = all runs, successes = all hits, draws = candidate's runs).
 */
export function stratumNullDistribution(stratum: Stratum): DiscreteDistribution {
  checkStratum(stratum);
  const { base, cand } = stratum;
  return hypergeometricDistribution(base.runs + cand.runs, base.hits + cand.hits, cand.runs);
}

/**
 * Fisher's exact test on one query, both one-sided tails: `pLess` small means the candidate hit
 * less often than the baseline, `pGreater` that it hit more often.
 */
export function fisherExactTest(stratum: Stratum): ExactTestResult {
  return stratifiedExactTest([stratum]);
}

/**
 * The null distribution of Σ candidate hits over the strata, each conditioned on its total hits:
 * the convolution of the per-stratum hypergeometrics. Its support has at most Σ candidate runs
 * + 1 points, so the cost is O(strata × runs²) at worst — milliseconds for any real eval set.
 */
export function stratifiedNullDistribution(strata: readonly Stratum[]): DiscreteDistribution {
  let dist: DiscreteDistribution = { min: 0, probabilities: [1] };
  for (const stratum of strata) dist = convolve(dist, stratumNullDistribution(stratum));
  return dist;
}

/**
 * The exact conditional test stratified by query (exact Cochran–Mantel–Haenszel): statistic
 * T = Σ candidate hits; null distribution = the convolution of each stratum's hypergeometric.
 * Valid whatever the per-query rates, for any number of runs and queries, with unequal runs on
 * the two sides. An empty list (or only uninformative strata) gives p = 1 both ways.
 */
export function stratifiedExactTest(strata: readonly Stratum[]): ExactTestResult {
  let dist: DiscreteDistribution = { min: 0, probabilities: [1] };
  let observed = 0;
  let informativeStrata = 0;
  for (const stratum of strata) {
    const own = stratumNullDistribution(stratum);
    // A stratum whose margins fix the candidate's hits (all hits, no hits, a side with no run) adds a constant.
    if (own.probabilities.length > 1) {
      informativeStrata++;
      dist = convolve(dist, own);
    } else {
      dist = { min: dist.min + own.min, probabilities: dist.probabilities };
    }
    observed += stratum.cand.hits;
  }
  return {
    observed,
    expected: mean(dist),
    pLess: probabilityAtMost(dist, observed),
    pGreater: probabilityAtLeast(dist, observed),
    informativeStrata,
  };
}

/**
 * The standard normal quantile Φ⁻¹(p), 0 < p < 1 (Acklam's rational approximation, relative
 * error below 1.2e-9 — ample for the z of a confidence interval).
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile: p must be in (0, 1), got ${p}`);
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const [a0, a1, a2, a3, a4, a5] = a as [number, number, number, number, number, number];
  const [b0, b1, b2, b3, b4] = b as [number, number, number, number, number];
  const [c0, c1, c2, c3, c4, c5] = c as [number, number, number, number, number, number];
  const [d0, d1, d2, d3] = d as [number, number, number, number];
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((c0 * q + c1) * q + c2) * q + c3) * q + c4) * q + c5) /
      ((((d0 * q + d1) * q + d2) * q + d3) * q + 1)
    );
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a0 * r + a1) * r + a2) * r + a3) * r + a4) * r + a5) * q) /
    (((((b0 * r + b1) * r + b2) * r + b3) * r + b4) * r + 1)
  );
}

/**
 * Wilson's score interval for one proportion; null when there are no runs (no rate to bound).
 */
export function wilsonInterval(counts: HitCounts, confidence = 0.95): Interval | null {
  checkCounts(counts);
  checkConfidence(confidence);
  const { hits, runs } = counts;
  if (runs === 0) return null;
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const z2 = z * z;
  const p = hits / runs;
  const centre = (p + z2 / (2 * runs)) / (1 + z2 / runs);
  const half = (z / (1 + z2 / runs)) * Math.sqrt((p * (1 - p)) / runs + z2 / (4 * runs * runs));
  // At 0 or all hits the exact bound is 0 or 1; rounding must not leave it a hair off.
  return {
    lower: hits === 0 ? 0 : Math.max(0, centre - half),
    upper: hits === runs ? 1 : Math.min(1, centre + half),
    confidence,
  };
}

/**
 * Newcombe's hybrid score interval (his method 10) for the difference of two independent
 * proportions, candidate rate − baseline rate, built from the two Wilson intervals. Null when
 * either side has no runs.
 */
export function newcombeInterval(base: HitCounts, cand: HitCounts, confidence = 0.95): Interval | null {
  const wb = wilsonInterval(base, confidence);
  const wc = wilsonInterval(cand, confidence);
  if (wb === null || wc === null) return null;
  const pb = base.hits / base.runs;
  const pc = cand.hits / cand.runs;
  const d = pc - pb;
  return {
    lower: Math.max(-1, d - Math.sqrt((pc - wc.lower) ** 2 + (wb.upper - pb) ** 2)),
    upper: Math.min(1, d + Math.sqrt((wc.upper - pc) ** 2 + (pb - wb.lower) ** 2)),
    confidence,
  };
}

/**
 * Holm's step-down adjustment: adjusted p-values, in the input order, that control the
 * family-wise error rate at any level α when compared with α. Uniformly more powerful than
 * Bonferroni, valid under any dependence.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((x, y) => x.p - y.p || x.i - y.i);
  const adjusted = new Array<number>(m).fill(1);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}

function clampProbability(p: number): number {
  return Math.min(1, Math.max(0, p));
}

function assertCount(n: number, name: string): void {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`${name} must be a non-negative integer, got ${n}`);
}

function checkHypergeometric(population: number, successes: number, draws: number): void {
  assertCount(population, 'population');
  assertCount(successes, 'successes');
  assertCount(draws, 'draws');
  if (successes > population || draws > population) {
    throw new RangeError(
      `hypergeometric: successes (${successes}) and draws (${draws}) must not exceed the population (${population})`,
    );
  }
}

function checkCounts(counts: HitCounts): void {
  assertCount(counts.hits, 'hits');
  assertCount(counts.runs, 'runs');
  if (counts.hits > counts.runs) throw new RangeError(`hits (${counts.hits}) exceed runs (${counts.runs})`);
}

function checkStratum(stratum: Stratum): void {
  checkCounts(stratum.base);
  checkCounts(stratum.cand);
}

function checkConfidence(confidence: number): void {
  if (!(confidence > 0 && confidence < 1)) {
    throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
  }
}
