/**
 * A small deterministic PRNG for simulations in tests: mulberry32 (32-bit state, period 2^32,
 * good enough for Monte Carlo checks of a few thousand draws). Same seed, same sequence.
 */
export type Random = () => number;

/** Uniform in [0, 1). */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Uniform in [lo, hi). */
export function uniform(random: Random, lo: number, hi: number): number {
  return lo + (hi - lo) * random();
}

/** Hits out of `runs` independent runs that each hit with probability `p`. */
export function binomial(random: Random, runs: number, p: number): number {
  let hits = 0;
  for (let i = 0; i < runs; i++) if (random() < p) hits++;
  return hits;
}
