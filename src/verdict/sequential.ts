import { betaBinomialPmf } from './statistics.js';
import { queryPasses } from './threshold.js';

/** Never stop a query before this many measured runs: one run says nothing about a rate. */
export const MIN_AUTO_RUNS = 2;
/** `--runs auto` without a maximum. */
export const DEFAULT_AUTO_MAX = 6;
/** The chance, at most, that the remaining runs would have changed a settled verdict. */
export const AUTO_FLIP_RISK = 0.05;

/**
 * The probability that a query would pass after `maxRuns` measured runs, given `hits` of
 * `measured` so far: the remaining runs' hits follow the beta-binomial predictive distribution
 * under a uniform prior on the query's true rate.
 */
export function passProbability(
  shouldTrigger: boolean,
  hits: number,
  measured: number,
  maxRuns: number,
  threshold: number,
): number {
  const remaining = Math.max(0, maxRuns - measured);
  const a = hits + 1;
  const b = measured - hits + 1;
  let p = 0;
  for (let k = 0; k <= remaining; k++) {
    if (queryPasses(shouldTrigger, (hits + k) / maxRuns, threshold)) p += betaBinomialPmf(k, remaining, a, b);
  }
  return Math.min(1, Math.max(0, p));
}

/**
 * Whether a query's pass/fail is settled after `hits` of `measured` runs, for `--runs auto:max`:
 * at the maximum; or, from `MIN_AUTO_RUNS` on, when the chance that the remaining runs up to the
 * maximum would change the verdict is below `flipRisk` (5%) under a uniform prior on the true rate
 * — which includes the certain case, where no remaining outcome can change it. Pure.
 */
export function isSettled(
  shouldTrigger: boolean,
  hits: number,
  measured: number,
  maxRuns: number,
  threshold: number,
  flipRisk = AUTO_FLIP_RISK,
): boolean {
  if (measured >= maxRuns) return true;
  if (measured < MIN_AUTO_RUNS) return false;
  const pass = passProbability(shouldTrigger, hits, measured, maxRuns, threshold);
  return pass <= flipRisk || pass >= 1 - flipRisk;
}
