import { describe, expect, it } from 'vitest';
import { compareMeasurements } from '../../src/compare/compare.js';
import { decideCandidate, proposalAlpha, SESSION_ALPHA, stopReason } from '../../src/improve/decide.js';
import { buildMeasurement, type QuerySpec, SHA_A, SHA_B } from '../fakes/measurement-builder.js';
import { binomial, mulberry32, type Random, uniform } from '../fakes/prng.js';

/**
 * improve's decision rule, simulated over whole sessions (no claude: the rule is pure). Every
 * rewrite's true rate per query equals the incumbent's, so any accepted candidate is a false
 * acceptance; a session that accepts any is a failed session. Seeded, so the figures reproduce.
 */
const SESSIONS = 1000;

interface Session {
  seed: number;
  positives: number;
  negatives: number;
  runs: number;
  iterations: number;
  alpha: number;
  /** The candidate's true rate from the incumbent's (identity for the A/A). */
  shift?: (p: number, shouldTrigger: boolean) => number;
}

function trueRates(random: Random, n: number, shouldTrigger: boolean): number[] {
  return Array.from({ length: n }, () =>
    shouldTrigger ? uniform(random, 0.2, 0.95) : uniform(random, 0.02, 0.6),
  );
}

function measure(
  random: Random,
  rates: number[],
  shouldTrigger: boolean,
  runs: number,
  offset: number,
): QuerySpec[] {
  return rates.map((p, i) => ({
    query: `q${offset + i}`,
    shouldTrigger,
    hits: binomial(random, runs, p),
    runs,
  }));
}

/** The share of sessions that accepted at least one candidate. */
function acceptanceRate(s: Session): number {
  const random = mulberry32(s.seed);
  let accepted = 0;
  for (let n = 0; n < SESSIONS; n++) {
    const pos = trueRates(random, s.positives, true);
    const neg = trueRates(random, s.negatives, false);
    const decisions: ('accepted' | 'rejected')[] = [];
    let any = false;
    while (stopReason(decisions, s.iterations) === undefined) {
      const side = (shift: boolean) => {
        const f = (p: number, t: boolean) => (shift && s.shift ? s.shift(p, t) : p);
        return buildMeasurement(
          [
            ...measure(
              random,
              pos.map((p) => f(p, true)),
              true,
              s.runs,
              0,
            ),
            ...measure(
              random,
              neg.map((p) => f(p, false)),
              false,
              s.runs,
              s.positives,
            ),
          ],
          { sha256: shift ? SHA_B : SHA_A },
        );
      };
      const c = compareMeasurements(side(false), side(true), { alpha: s.alpha });
      const d = decideCandidate(c).decision;
      decisions.push(d);
      if (d === 'accepted') any = true;
    }
    if (any) accepted++;
  }
  return accepted / SESSIONS;
}

describe('improve calibration: rewrites no better than the incumbent', () => {
  it.each([
    {
      name: '6+6 train queries × 6 runs, 5 iterations',
      seed: 21,
      positives: 6,
      negatives: 6,
      runs: 6,
      iterations: 5,
    },
    {
      name: '12+12 train queries × 4 runs, 5 iterations',
      seed: 22,
      positives: 12,
      negatives: 12,
      runs: 4,
      iterations: 5,
    },
    {
      name: '6+6 train queries × 10 runs, 10 iterations',
      seed: 23,
      positives: 6,
      negatives: 6,
      runs: 10,
      iterations: 10,
    },
  ])('are accepted in at most 5% of sessions: $name', (s) => {
    const rate = acceptanceRate({ ...s, alpha: proposalAlpha(s.iterations) });
    console.log(
      `improve A/A ${s.name}: ${(rate * 100).toFixed(1)}% of ${SESSIONS} sessions accepted a candidate`,
    );
    expect(rate).toBeLessThanOrEqual(SESSION_ALPHA);
  });
});

describe('improve power: a real gain is still found', () => {
  it('positives +0.35 on 6+6 train queries × 6 runs is accepted in most sessions', () => {
    const rate = acceptanceRate({
      seed: 31,
      positives: 6,
      negatives: 6,
      runs: 6,
      iterations: 5,
      alpha: proposalAlpha(5),
      shift: (p, t) => (t ? Math.min(1, p + 0.35) : p),
    });
    console.log(`improve power (+0.35 on positives): ${(rate * 100).toFixed(1)}% of sessions accepted`);
    expect(rate).toBeGreaterThanOrEqual(0.8);
  });
});
