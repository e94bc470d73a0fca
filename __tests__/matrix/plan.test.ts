import { describe, expect, it } from 'vitest';
import type { EvalItem } from '../../src/inputs/types.js';
import { matrixQueries, parseShard, planMatrix, shardQueries } from '../../src/matrix/plan.js';

const item = (id: string, shouldTrigger = true): EvalItem => ({
  id,
  query: `q ${id}`,
  shouldTrigger,
  extra: {},
});

describe('the matrix plan', () => {
  it('takes every query of every set, skills by name, a skill with no eval set owning none', () => {
    const queries = matrixQueries([
      { name: 'zeta', items: [item('z1'), item('z2', false)] },
      { name: 'alpha', items: [item('a1')] },
      { name: 'lonely', items: null },
    ]);
    expect(queries.map((q) => `${q.owner}/${q.item.id}`)).toEqual(['alpha/a1', 'zeta/z1', 'zeta/z2']);
  });

  it('is round-robin and serial: pass 1 over every query, then pass 2', () => {
    expect(planMatrix(3, 2)).toEqual([
      { query: 0, pass: 0 },
      { query: 1, pass: 0 },
      { query: 2, pass: 0 },
      { query: 0, pass: 1 },
      { query: 1, pass: 1 },
      { query: 2, pass: 1 },
    ]);
    expect(planMatrix(0, 2)).toEqual([]);
  });
});

describe('--shard i/n', () => {
  it('parses i/n and refuses anything else with the fix', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
    for (const bad of ['0/2', '3/2', '1/0', '2', 'a/b', '1/2/3', '-1/2', '1/65'])
      expect(() => parseShard(bad), bad).toThrow(/--shard/);
  });

  it('gives each leg a deterministic slice; the legs cover every query exactly once', () => {
    const all = Array.from({ length: 11 }, (_, k) => k);
    const legs = [1, 2, 3].map((index) => shardQueries(all, { index, count: 3 }));
    expect(legs[0]).toEqual([0, 3, 6, 9]);
    expect(legs[1]).toEqual([1, 4, 7, 10]);
    expect(legs[2]).toEqual([2, 5, 8]);
    expect(legs.flat().sort((a, b) => a - b)).toEqual(all);
    expect(shardQueries(all, { index: 2, count: 3 })).toEqual(legs[1]);
    expect(shardQueries(all, undefined)).toEqual(all);
  });
});
