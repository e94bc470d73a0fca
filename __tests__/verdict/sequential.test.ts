import { describe, expect, it } from 'vitest';
import { queryPasses } from '../../src/verdict/rules.js';
import { isSettled, MIN_AUTO_RUNS, passProbability } from '../../src/verdict/sequential.js';
import { mulberry32 } from '../fakes/prng.js';

describe('isSettled', () => {
  it('the pass probability is a proper predictive probability', () => {
    // 3/3 hits, 3 to go, a positive needs 4 of 6: only 0 more hits fails; P = B(4,4)/B(4,1) = 1/35.
    expect(passProbability(true, 3, 3, 6, 0.5)).toBeCloseTo(1 - 1 / 35, 10);
    expect(passProbability(true, 4, 4, 6, 0.5)).toBeCloseTo(1, 12); // certain: 4/6 whatever follows
    expect(passProbability(true, 0, 3, 6, 0.5)).toBe(0); // at best 3/6 = 0.5: cannot pass
  });

  it('settles a positive when a flip of its verdict is unlikely (< 5%), not before', () => {
    expect(isSettled(true, 2, 2, 6, 0.5)).toBe(false); // P(flip) = 0.114
    expect(isSettled(true, 3, 3, 6, 0.5)).toBe(true); // P(flip) = 1/35
    expect(isSettled(true, 1, 3, 6, 0.5)).toBe(false);
    expect(isSettled(true, 0, 3, 6, 0.5)).toBe(true);
  });

  it('settles a negative symmetrically', () => {
    expect(isSettled(false, 0, 2, 6, 0.5)).toBe(false);
    expect(isSettled(false, 0, 4, 6, 0.5)).toBe(true);
    expect(isSettled(false, 3, 3, 6, 0.5)).toBe(true); // already 3/6 at best: fails
  });

  it('never stops below the minimum, always stops at the maximum', () => {
    expect(isSettled(false, 0, 1, 2, 0.5)).toBe(false);
    expect(MIN_AUTO_RUNS).toBe(2);
    expect(isSettled(true, 1, 2, 2, 0.5)).toBe(true);
  });

  /**
   * The acceptance: seeded simulations over typical eval sets (positives' true rates in [0.7, 1],
   * negatives' in [0, 0.3], plus two hard queries per class near the threshold). Auto agrees with
   * the fixed-run verdict almost always, misclassifies (against the true rate) about as often, and
   * spends at least 30% fewer runs.
   */
  it('matches fixed-runs verdicts at the same error rate for at least 30% fewer runs (seeded simulation)', () => {
    const random = mulberry32(20261130);
    const max = 6;
    let fixedRuns = 0;
    let autoRuns = 0;
    let disagreements = 0;
    let fixedErrors = 0;
    let autoErrors = 0;
    const sets = 1000;
    for (let s = 0; s < sets; s++) {
      for (let q = 0; q < 20; q++) {
        const positive = q < 10;
        const hard = q % 10 >= 8; // two hard queries per class
        const p = positive
          ? hard
            ? 0.45 + random() * 0.2
            : 0.7 + random() * 0.3
          : hard
            ? 0.35 + random() * 0.2
            : random() * 0.3;
        const outcomes = Array.from({ length: max }, () => random() < p);
        const fixedHits = outcomes.filter(Boolean).length;
        const fixedPass = queryPasses(positive, fixedHits / max, 0.5);
        let hits = 0;
        let n = 0;
        while (!isSettled(positive, hits, n, max, 0.5)) {
          if (outcomes[n]) hits++;
          n++;
        }
        // The verdict as the report computes it: from the runs actually made (hits/n).
        const autoPass = queryPasses(positive, hits / n, 0.5);
        fixedRuns += max;
        autoRuns += n;
        if (autoPass !== fixedPass) disagreements++;
        const truth = queryPasses(positive, p, 0.5);
        if (fixedPass !== truth) fixedErrors++;
        if (autoPass !== truth) autoErrors++;
      }
    }
    const saving = 1 - autoRuns / fixedRuns;
    console.log(
      `runs auto:${max} vs fixed ${max}: ${(saving * 100).toFixed(1)}% fewer runs; verdict errors vs truth fixed ${fixedErrors} / auto ${autoErrors} of ${sets * 20}; disagreements ${disagreements}`,
    );
    expect(disagreements / (sets * 20)).toBeLessThan(0.03);
    // The same error rate: within one percentage point of the fixed-run misclassification rate.
    expect(Math.abs(autoErrors - fixedErrors) / (sets * 20)).toBeLessThan(0.01);
    expect(saving).toBeGreaterThanOrEqual(0.3);
  });
});
