import { describe, expect, it } from 'vitest';
import { type Comparison, compareMeasurements } from '../../src/compare/compare.js';
import { buildMeasurement, type QuerySpec, SHA_A, SHA_B } from '../fakes/measurement-builder.js';
import { binomial, mulberry32, type Random, uniform } from '../fakes/prng.js';

/**
 * The acceptance of the compare statistics (docs/statistics.md): simulated outcomes with known
 * true rates, seeded, so every figure below is reproducible. A/A: both sides share each query's
 * true rate, so every labelled regression is a false alarm. Power: the candidate's true rate is
 * lower on the positives (or higher on the negatives).
 */

const SIMULATIONS = 1000;

interface Scenario {
  name: string;
  seed: number;
  positives: number;
  negatives: number;
  /** Runs per query, baseline and candidate. */
  runs: readonly [number, number];
  /** Per-query true rates: baseline, candidate. */
  rates: (random: Random, shouldTrigger: boolean) => readonly [number, number];
  /** Chance that any one run is lost (timeout/error), independently of its outcome. */
  lossRate?: number;
}

interface Rates {
  regression: number;
  improvement: number;
  /** Comparisons with at least one per-query row labelled regression. */
  rowRegression: number;
}

function simulate(s: Scenario): Rates {
  const random = mulberry32(s.seed);
  let regression = 0;
  let improvement = 0;
  let rowRegression = 0;
  for (let sim = 0; sim < SIMULATIONS; sim++) {
    const base: QuerySpec[] = [];
    const cand: QuerySpec[] = [];
    const classes = [...Array<boolean>(s.positives).fill(true), ...Array<boolean>(s.negatives).fill(false)];
    classes.forEach((shouldTrigger, i) => {
      const [pBase, pCand] = s.rates(random, shouldTrigger);
      const query = `query ${i}`;
      for (const [side, p, planned] of [
        [base, pBase, s.runs[0]],
        [cand, pCand, s.runs[1]],
      ] as const) {
        const runs = planned - binomial(random, planned, s.lossRate ?? 0);
        side.push({ query, shouldTrigger, hits: binomial(random, runs, p), runs, planned });
      }
    });
    const c: Comparison = compareMeasurements(
      buildMeasurement(base, { sha256: SHA_A }),
      buildMeasurement(cand, { sha256: SHA_B }),
    );
    if (c.label === 'regression') regression++;
    if (c.label === 'improvement') improvement++;
    if (c.rows.some((r) => r.label === 'regression')) rowRegression++;
  }
  const rates = {
    regression: regression / SIMULATIONS,
    improvement: improvement / SIMULATIONS,
    rowRegression: rowRegression / SIMULATIONS,
  };
  console.log(
    `${s.name}: regression ${pct(rates.regression)}, improvement ${pct(rates.improvement)}, ` +
      `any per-query regression ${pct(rates.rowRegression)} (${SIMULATIONS} simulations, seed ${s.seed})`,
  );
  return rates;
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

/** Heterogeneous A/A: each query its own true rate, the same on both sides. */
const aa = (random: Random, shouldTrigger: boolean): readonly [number, number] => {
  const p = shouldTrigger ? uniform(random, 0.5, 1) : uniform(random, 0, 0.4);
  return [p, p];
};

describe('calibration: A/A (identical true rates) is labelled regression at most 5% of the time', () => {
  it.each([
    { name: 'A/A 10+10 queries × 2 runs', seed: 1, positives: 10, negatives: 10, runs: [2, 2] as const },
    { name: 'A/A 10+10 queries × 3 runs', seed: 2, positives: 10, negatives: 10, runs: [3, 3] as const },
    { name: 'A/A 20+20 queries × 10 runs', seed: 3, positives: 20, negatives: 20, runs: [10, 10] as const },
    { name: 'A/A 10+10 queries × 2 vs 5 runs', seed: 4, positives: 10, negatives: 10, runs: [2, 5] as const },
    {
      name: 'A/A 10+10 queries × 4 runs, 15% of runs lost',
      seed: 5,
      positives: 10,
      negatives: 10,
      runs: [4, 4] as const,
      lossRate: 0.15,
    },
  ])('$name', (scenario) => {
    const rates = simulate({ ...scenario, rates: aa });
    expect(rates.regression).toBeLessThanOrEqual(0.05);
    expect(rates.improvement).toBeLessThanOrEqual(0.05);
    // Per-query labels are Holm-adjusted: a false per-query regression anywhere in the table at most 5%.
    expect(rates.rowRegression).toBeLessThanOrEqual(0.05);
  });
});

describe('calibration: power against a real change', () => {
  it('positives 0.9 → 0.5, 10 positives × 3 runs: regression in at least 80%', () => {
    const rates = simulate({
      name: 'power: positives 0.9 → 0.5, 10+10 queries × 3 runs',
      seed: 11,
      positives: 10,
      negatives: 10,
      runs: [3, 3],
      rates: (random, shouldTrigger) => (shouldTrigger ? [0.9, 0.5] : aa(random, false)),
    });
    expect(rates.regression).toBeGreaterThanOrEqual(0.8);
  });

  it('negatives 0.1 → 0.5, 10 negatives × 3 runs: regression in at least 80%', () => {
    const rates = simulate({
      name: 'power: negatives 0.1 → 0.5, 10+10 queries × 3 runs',
      seed: 12,
      positives: 10,
      negatives: 10,
      runs: [3, 3],
      rates: (random, shouldTrigger) => (shouldTrigger ? aa(random, true) : [0.1, 0.5]),
    });
    expect(rates.regression).toBeGreaterThanOrEqual(0.8);
  });

  it('positives 0.5 → 0.9: labelled improvement, never regression', () => {
    const rates = simulate({
      name: 'power: positives 0.5 → 0.9 (an improvement), 10+10 queries × 3 runs',
      seed: 13,
      positives: 10,
      negatives: 10,
      runs: [3, 3],
      rates: (random, shouldTrigger) => (shouldTrigger ? [0.5, 0.9] : aa(random, false)),
    });
    expect(rates.improvement).toBeGreaterThanOrEqual(0.8);
    expect(rates.regression).toBeLessThanOrEqual(0.05);
  });

  it('reports the power at the default 2 runs (figures only; 2 runs is the seeds’ default)', () => {
    const pos = simulate({
      name: 'power: positives 0.9 → 0.5, 10+10 queries × 2 runs',
      seed: 14,
      positives: 10,
      negatives: 10,
      runs: [2, 2],
      rates: (random, shouldTrigger) => (shouldTrigger ? [0.9, 0.5] : aa(random, false)),
    });
    const het = simulate({
      name: 'power: each positive −0.4 from its own rate in [0.8, 1], 10+10 queries × 3 runs',
      seed: 15,
      positives: 10,
      negatives: 10,
      runs: [3, 3],
      rates: (random, shouldTrigger) => {
        if (!shouldTrigger) return aa(random, false);
        const p = uniform(random, 0.8, 1);
        return [p, p - 0.4];
      },
    });
    expect(pos.regression).toBeGreaterThan(0.5);
    expect(het.regression).toBeGreaterThan(0.5);
  });
});
