import { describe, expect, it } from 'vitest';
import {
  betaBinomialPmf,
  fisherExactTest,
  holmAdjust,
  hypergeometricDistribution,
  hypergeometricPmf,
  logChoose,
  logFactorial,
  newcombeInterval,
  normalQuantile,
  type Stratum,
  stratifiedExactTest,
  stratifiedNullDistribution,
  wilsonInterval,
} from '../../src/verdict/statistics.js';

function choose(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

/**
 * Brute force: every placement of a stratum's hits among its runs is equally likely under the
 * null; enumerate them all (bitmasks), across every stratum, and count the candidate's hits.
 */
function bruteForceDistribution(strata: readonly Stratum[]): Map<number, number> {
  let dist = new Map<number, number>([[0, 1]]);
  for (const { base, cand } of strata) {
    const n = base.runs + cand.runs;
    const k = base.hits + cand.hits;
    const own = new Map<number, number>();
    let placements = 0;
    for (let mask = 0; mask < 1 << n; mask++) {
      let bits = 0;
      let candBits = 0;
      for (let i = 0; i < n; i++) {
        if (mask & (1 << i)) {
          bits++;
          if (i < cand.runs) candBits++;
        }
      }
      if (bits !== k) continue;
      placements++;
      own.set(candBits, (own.get(candBits) ?? 0) + 1);
    }
    const next = new Map<number, number>();
    for (const [t, p] of dist) {
      for (const [x, c] of own) next.set(t + x, (next.get(t + x) ?? 0) + (p * c) / placements);
    }
    dist = next;
  }
  return dist;
}

describe('logFactorial and logChoose', () => {
  it('match exact values on both sides of the table/Stirling boundary', () => {
    expect(logFactorial(0)).toBe(0);
    expect(logFactorial(10)).toBeCloseTo(Math.log(3628800), 12);
    let direct = 0;
    for (let i = 1; i <= 300; i++) direct += Math.log(i);
    expect(logFactorial(300)).toBeCloseTo(direct, 9);
    expect(Math.exp(logChoose(52, 5))).toBeCloseTo(2598960, 4);
    expect(logChoose(5, 6)).toBe(Number.NEGATIVE_INFINITY);
  });
  it('rejects non-integers and negatives', () => {
    expect(() => logFactorial(-1)).toThrow(RangeError);
    expect(() => logFactorial(1.5)).toThrow(RangeError);
  });
});

describe('beta-binomial', () => {
  it('is uniform over 0…n under a uniform prior, and sums to 1 after data', () => {
    // Beta(1, 1): every count of hits in n runs is equally likely, 1 / (n + 1).
    for (let k = 0; k <= 4; k++) expect(betaBinomialPmf(k, 4, 1, 1)).toBeCloseTo(1 / 5, 12);
    let total = 0;
    for (let k = 0; k <= 6; k++) total += betaBinomialPmf(k, 6, 4, 2);
    expect(total).toBeCloseTo(1, 12);
    // 3 hits of 4 so far (Beta(4, 2)), one more run: P(hit) = 4 / 6.
    expect(betaBinomialPmf(1, 1, 4, 2)).toBeCloseTo(4 / 6, 12);
  });
});

describe('hypergeometric', () => {
  it('sums to 1 over its support, small and large', () => {
    for (const [n, k, d] of [
      [8, 4, 4],
      [30, 12, 17],
      [10, 0, 5],
      [10, 10, 5],
      [2000, 1300, 1000],
    ] as const) {
      const dist = hypergeometricDistribution(n, k, d);
      expect(dist.probabilities.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      let direct = 0;
      for (let x = 0; x <= d; x++) direct += hypergeometricPmf(x, n, k, d);
      expect(direct).toBeCloseTo(1, 9);
    }
  });
  it('equals the closed form on a small case', () => {
    // C(4,1)·C(4,3)/C(8,4) = 16/70
    expect(hypergeometricPmf(1, 8, 4, 4)).toBeCloseTo(16 / 70, 14);
    expect(hypergeometricPmf(5, 8, 4, 4)).toBe(0);
    const dist = hypergeometricDistribution(30, 12, 17);
    for (let x = dist.min; x < dist.min + dist.probabilities.length; x++) {
      expect(dist.probabilities[x - dist.min]).toBeCloseTo(
        (choose(12, x) * choose(18, 17 - x)) / choose(30, 17),
        12,
      );
    }
  });
  it('stays finite where factorials overflow a double', () => {
    const p = hypergeometricPmf(500, 2000, 1000, 1000);
    expect(Number.isFinite(p)).toBe(true);
    expect(p).toBeGreaterThan(0);
  });
});

describe('Fisher exact test (one-sided)', () => {
  it("gives the lady tasting tea's p-values (Fisher 1935): 3 of 4 right → 17/70, 4 of 4 → 1/70", () => {
    // The lady's 'milk first' cups: cand = wrongly called (hits) of the 4 she called milk-first.
    expect(fisherExactTest({ base: { hits: 3, runs: 4 }, cand: { hits: 1, runs: 4 } }).pLess).toBeCloseTo(
      17 / 70,
      14,
    );
    expect(fisherExactTest({ base: { hits: 4, runs: 4 }, cand: { hits: 0, runs: 4 } }).pLess).toBeCloseTo(
      1 / 70,
      14,
    );
    expect(fisherExactTest({ base: { hits: 0, runs: 4 }, cand: { hits: 4, runs: 4 } }).pGreater).toBeCloseTo(
      1 / 70,
      14,
    );
  });
  it("gives R's fisher.test(Convictions, alternative = 'less') = 0.0004652 (Fisher's twins)", () => {
    // Dizygotic 2 convicted of 17, monozygotic 10 of 13.
    const r = fisherExactTest({ base: { hits: 10, runs: 13 }, cand: { hits: 2, runs: 17 } });
    expect(r.pLess).toBeCloseTo(0.0004652, 7);
    expect(r.pGreater).toBeCloseTo(1, 3);
  });
  it('cannot reach 0.05 at 2 or 3 runs a side — the most extreme table is 1/6 and 1/20', () => {
    expect(fisherExactTest({ base: { hits: 2, runs: 2 }, cand: { hits: 0, runs: 2 } }).pLess).toBeCloseTo(
      1 / 6,
      14,
    );
    expect(fisherExactTest({ base: { hits: 3, runs: 3 }, cand: { hits: 0, runs: 3 } }).pLess).toBeCloseTo(
      1 / 20,
      14,
    );
  });
  it('gives p = 1 both ways when the margins leave nothing free', () => {
    const r = fisherExactTest({ base: { hits: 2, runs: 2 }, cand: { hits: 2, runs: 2 } });
    expect([r.pLess, r.pGreater, r.informativeStrata]).toEqual([1, 1, 0]);
  });
});

describe('stratified exact test (convolution of hypergeometrics)', () => {
  const tiny: Stratum[][] = [
    [{ base: { hits: 2, runs: 2 }, cand: { hits: 0, runs: 2 } }],
    [
      { base: { hits: 2, runs: 3 }, cand: { hits: 1, runs: 3 } },
      { base: { hits: 1, runs: 2 }, cand: { hits: 2, runs: 3 } },
      { base: { hits: 3, runs: 3 }, cand: { hits: 0, runs: 2 } },
    ],
    [
      { base: { hits: 0, runs: 1 }, cand: { hits: 1, runs: 4 } },
      { base: { hits: 2, runs: 2 }, cand: { hits: 2, runs: 2 } },
      { base: { hits: 1, runs: 3 }, cand: { hits: 2, runs: 2 } },
      { base: { hits: 0, runs: 0 }, cand: { hits: 1, runs: 2 } },
    ],
  ];
  it.each(tiny.map((s, i) => [i, s] as const))('equals brute-force enumeration (case %i)', (_, strata) => {
    const brute = bruteForceDistribution(strata);
    const dist = stratifiedNullDistribution(strata);
    for (const [t, p] of brute) expect(dist.probabilities[t - dist.min] ?? 0).toBeCloseTo(p, 12);
    expect(dist.probabilities.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    const observed = strata.reduce((a, s) => a + s.cand.hits, 0);
    const atMost = [...brute].filter(([t]) => t <= observed).reduce((a, [, p]) => a + p, 0);
    const atLeast = [...brute].filter(([t]) => t >= observed).reduce((a, [, p]) => a + p, 0);
    const r = stratifiedExactTest(strata);
    expect(r.pLess).toBeCloseTo(atMost, 12);
    expect(r.pGreater).toBeCloseTo(atLeast, 12);
  });

  it("gives R's mantelhaen.test(Rabbits, exact = TRUE): S = 16, p = 0.03994 (Agresti's penicillin data)", () => {
    // cand = no delay (cured of treated), base = 1.5 h delay, per penicillin level.
    const rabbits: Stratum[] = [
      { cand: { hits: 0, runs: 6 }, base: { hits: 0, runs: 5 } },
      { cand: { hits: 3, runs: 6 }, base: { hits: 0, runs: 6 } },
      { cand: { hits: 6, runs: 6 }, base: { hits: 2, runs: 6 } },
      { cand: { hits: 5, runs: 6 }, base: { hits: 6, runs: 6 } },
      { cand: { hits: 2, runs: 2 }, base: { hits: 5, runs: 5 } },
    ];
    const r = stratifiedExactTest(rabbits);
    expect(r.observed).toBe(16);
    // R's two-sided exact p: the null mass of every value no more likely than the observed one.
    const dist = stratifiedNullDistribution(rabbits);
    const d = dist.probabilities[16 - dist.min] ?? 0;
    const twoSided = dist.probabilities.filter((p) => p <= d * (1 + 1e-7)).reduce((a, b) => a + b, 0);
    expect(twoSided).toBeCloseTo(0.03994, 5);
    expect(r.pGreater).toBeLessThan(0.03);
  });

  it('handles an empty list and many strata', () => {
    expect(stratifiedExactTest([])).toMatchObject({ observed: 0, pLess: 1, pGreater: 1 });
    const many: Stratum[] = Array.from({ length: 200 }, () => ({
      base: { hits: 9, runs: 10 },
      cand: { hits: 5, runs: 10 },
    }));
    const r = stratifiedExactTest(many);
    expect(r.pLess).toBeGreaterThan(0);
    expect(r.pLess).toBeLessThan(1e-100);
    expect(r.expected).toBeCloseTo(1400, 8);
  });
});

describe('intervals', () => {
  it('normalQuantile(0.975) is 1.95996', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 6);
    expect(normalQuantile(0.5)).toBeCloseTo(0, 12);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232, 6);
  });
  it("gives Wilson's score intervals of Newcombe (1998a), table I", () => {
    const w = (hits: number, runs: number) => {
      const i = wilsonInterval({ hits, runs });
      return [i?.lower, i?.upper];
    };
    const [l1, u1] = w(81, 263);
    expect(l1).toBeCloseTo(0.2553, 4);
    expect(u1).toBeCloseTo(0.3662, 4);
    const [l2, u2] = w(15, 148);
    expect(l2).toBeCloseTo(0.0624, 4);
    expect(u2).toBeCloseTo(0.1605, 4);
    expect(w(0, 20)).toEqual([0, expect.closeTo(0.1611, 4)]);
    const [l3, u3] = w(1, 29);
    expect(l3).toBeCloseTo(0.0061, 4);
    expect(u3).toBeCloseTo(0.1718, 4);
    expect(wilsonInterval({ hits: 0, runs: 0 })).toBeNull();
  });
  it("gives Newcombe's hybrid score intervals of Newcombe (1998b), table II, method 10", () => {
    const a = newcombeInterval({ hits: 48, runs: 80 }, { hits: 56, runs: 70 });
    expect(a?.lower).toBeCloseTo(0.0524, 4);
    expect(a?.upper).toBeCloseTo(0.3339, 4);
    const b = newcombeInterval({ hits: 3, runs: 10 }, { hits: 9, runs: 10 });
    expect(b?.lower).toBeCloseTo(0.1705, 4);
    expect(b?.upper).toBeCloseTo(0.809, 4);
    expect(newcombeInterval({ hits: 0, runs: 0 }, { hits: 1, runs: 2 })).toBeNull();
  });
});

describe('holmAdjust', () => {
  it('steps down and keeps the input order', () => {
    expect(holmAdjust([0.01, 0.04, 0.03, 0.005])).toEqual([0.03, 0.06, 0.06, 0.02]);
    expect(holmAdjust([0.5, 0.9])).toEqual([1, 1]);
    expect(holmAdjust([])).toEqual([]);
  });
});
