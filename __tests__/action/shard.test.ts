import { describe, expect, it } from 'vitest';
import type { SkillPlan } from '../../src/action/changed-skills.js';
import { shardPlans } from '../../src/action/shard.js';
import { parseShard, takeShard } from '../../src/matrix/shard.js';

describe('parseShard', () => {
  it('reads i/n with 1 ≤ i ≤ n ≤ 64', () => {
    expect(parseShard('1/3')).toEqual({ index: 1, count: 3 });
    expect(parseShard(' 3 / 3 ')).toEqual({ index: 3, count: 3 });
    expect(parseShard('64/64')).toEqual({ index: 64, count: 64 });
    expect(parseShard('1/1')).toEqual({ index: 1, count: 1 });
  });

  it('refuses anything else', () => {
    for (const bad of ['0/3', '4/3', '1/65', '1/0', '1', '1/3/4', 'a/b', '-1/3', '1.5/3', '', '1/ ', '/3']) {
      expect(parseShard(bad), bad).toBeUndefined();
    }
  });
});

describe('takeShard', () => {
  const items = ['d/SKILL.md', 'a/SKILL.md', 'c/SKILL.md', 'b/SKILL.md', 'e/SKILL.md'].map((p) => ({
    path: p,
  }));
  const paths = (xs: { path: string }[]) => xs.map((x) => x.path);

  it('sorts by path and deals skill k to shard (k mod n)+1', () => {
    expect(paths(takeShard(items, { index: 1, count: 2 }))).toEqual([
      'a/SKILL.md',
      'c/SKILL.md',
      'e/SKILL.md',
    ]);
    expect(paths(takeShard(items, { index: 2, count: 2 }))).toEqual(['b/SKILL.md', 'd/SKILL.md']);
  });

  it('every item lands in exactly one shard, whatever the input order', () => {
    for (const count of [1, 2, 3, 5, 7]) {
      const all = Array.from({ length: count }, (_, i) =>
        paths(takeShard([...items].reverse(), { index: i + 1, count })),
      ).flat();
      expect(all.sort()).toEqual(paths(items).sort());
      const again = Array.from({ length: count }, (_, i) => paths(takeShard(items, { index: i + 1, count })));
      const reversed = Array.from({ length: count }, (_, i) =>
        paths(takeShard([...items].reverse(), { index: i + 1, count })),
      );
      expect(again).toEqual(reversed);
    }
  });

  it('sorts by code unit, not by locale (every runner agrees)', () => {
    const mixed = [{ path: 'b/SKILL.md' }, { path: 'B/SKILL.md' }, { path: 'a/SKILL.md' }];
    expect(paths(takeShard(mixed, { index: 1, count: 3 }))).toEqual(['B/SKILL.md']);
  });

  it('a shard beyond the number of items is empty', () => {
    expect(takeShard(items.slice(0, 2), { index: 3, count: 3 })).toEqual([]);
  });
});

describe('shardPlans', () => {
  const skip = (path: string): SkillPlan => ({ kind: 'skip', path, change: 'modified', reason: 'body-only' });
  const measure = (path: string): SkillPlan => ({
    kind: 'measure',
    path,
    change: 'modified',
    head: { dir: path, file: path, name: path, description: 'd', descriptionLine: 3, warnings: [] },
  });

  it('splits the skills to measure; the skipped ones go to shard 1 only', () => {
    const plans = [measure('c/SKILL.md'), skip('z/SKILL.md'), measure('a/SKILL.md'), measure('b/SKILL.md')];
    const paths = (shard: number) => shardPlans(plans, { index: shard, count: 3 }).map((p) => p.path);
    expect(paths(1)).toEqual(['z/SKILL.md', 'a/SKILL.md']);
    expect(paths(2)).toEqual(['b/SKILL.md']);
    expect(paths(3)).toEqual(['c/SKILL.md']);
  });
});
