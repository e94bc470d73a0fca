import { describe, expect, it } from 'vitest';
import { planRuns } from '../../src/measure/run-plan.js';

describe('planRuns', () => {
  it('is round-robin: every query once per pass, passes in order', () => {
    const plan = planRuns(3, 2, 1);
    expect(plan.map((s) => `${s.pass}:${s.itemIndex}`)).toEqual(['0:0', '0:1', '0:2', '1:0', '1:1', '1:2']);
  });

  it('interleaves a pair as base, cand, cand, base, … (side 1 is the baseline)', () => {
    const plan = planRuns(2, 2, 2);
    expect(plan.map((s) => `${s.pass}:${s.itemIndex}:${s.side === 1 ? 'base' : 'cand'}`)).toEqual([
      '0:0:base',
      '0:0:cand',
      '0:1:cand',
      '0:1:base',
      '1:0:base',
      '1:0:cand',
      '1:1:cand',
      '1:1:base',
    ]);
  });

  it('runs each query on every model in turn, rotating which model goes first', () => {
    const plan = planRuns(2, 2, 1, 2);
    expect(plan.map((s) => `${s.pass}:${s.itemIndex}:${s.model}`)).toEqual([
      '0:0:0',
      '0:0:1',
      '0:1:1',
      '0:1:0',
      '1:0:0',
      '1:0:1',
      '1:1:1',
      '1:1:0',
    ]);
  });

  it('interleaves pairs within each model', () => {
    const plan = planRuns(1, 1, 2, 2);
    expect(plan.map((s) => `${s.model}:${s.side === 1 ? 'base' : 'cand'}`)).toEqual([
      '0:base',
      '0:cand',
      '1:cand',
      '1:base',
    ]);
  });

  it('gives each side the first slot of a pair equally often', () => {
    const plan = planRuns(5, 4, 2);
    const firsts = plan.filter((_, i) => i % 2 === 0).map((s) => s.side);
    expect(firsts.filter((s) => s === 0).length).toBe(firsts.filter((s) => s === 1).length);
  });
});
