import { describe, expect, it } from 'vitest';
import { MAX_SHARDS, parseShard, type Shard, shardText, takeShard } from '../../src/matrix/shard.js';

/**
 * The shard rule: `i/n` read strictly (1 ≤ i ≤ n ≤ MAX_SHARDS), and the split every leg computes on
 * its own, which must cover each item exactly once and not depend on the order the items came in.
 */

const paths = (xs: readonly { path: string }[]) => xs.map((x) => x.path);
const legs = (count: number): Shard[] => Array.from({ length: count }, (_, i) => ({ index: i + 1, count }));
const itemsOf = (n: number) =>
  Array.from({ length: n }, (_, k) => ({ path: `skills/s${String(k).padStart(3, '0')}/SKILL.md`, k }));

describe('parseShard', () => {
  it('reads the bounds: 1/1, n/n and MAX_SHARDS/MAX_SHARDS', () => {
    expect(MAX_SHARDS).toBe(64);
    expect(parseShard('1/1')).toEqual({ index: 1, count: 1 });
    expect(parseShard('7/7')).toEqual({ index: 7, count: 7 });
    expect(parseShard(`${MAX_SHARDS}/${MAX_SHARDS}`)).toEqual({ index: MAX_SHARDS, count: MAX_SHARDS });
    expect(parseShard(`1/${MAX_SHARDS}`)).toEqual({ index: 1, count: MAX_SHARDS });
  });

  it('one past a bound is refused', () => {
    expect(parseShard(`1/${MAX_SHARDS + 1}`)).toBeUndefined();
    expect(parseShard(`${MAX_SHARDS + 1}/${MAX_SHARDS + 1}`)).toBeUndefined();
    expect(parseShard('0/1')).toBeUndefined();
    expect(parseShard('3/2')).toBeUndefined();
    expect(parseShard('0/0')).toBeUndefined();
  });

  it('reads leading zeros and blanks around the parts as the number they spell', () => {
    expect(parseShard('01/03')).toEqual({ index: 1, count: 3 });
    expect(parseShard('002/064')).toEqual({ index: 2, count: 64 });
    expect(parseShard('\t2 /\t4\n')).toEqual({ index: 2, count: 4 });
  });

  it('refuses signs, decimals, exponents, other digits and more than three digits', () => {
    for (const bad of [
      '+1/3',
      '1/+3',
      '1/3.0',
      '1e0/3',
      '0x1/3',
      '0001/3',
      '1/0003',
      '1000/1000',
      '١/٣',
      '１/３',
      '1 / 3 / 3',
      '1\\3',
      '1-3',
      '1 of 3',
      '1/3x',
      'x1/3',
      '   ',
    ]) {
      expect(parseShard(bad), JSON.stringify(bad)).toBeUndefined();
    }
  });

  it('shardText writes what parseShard reads, for every valid shard', () => {
    for (let count = 1; count <= MAX_SHARDS; count++)
      for (const shard of legs(count)) expect(parseShard(shardText(shard))).toEqual(shard);
    expect(shardText({ index: 2, count: 3 })).toBe('2/3');
  });
});

describe('takeShard', () => {
  it('the legs of any split cover every item exactly once, for 0 to 130 items and 1 to 64 legs', () => {
    for (const n of [0, 1, 2, 3, 63, 64, 65, 130])
      for (const count of [1, 2, 3, 5, 8, 63, MAX_SHARDS]) {
        const items = itemsOf(n);
        const taken = legs(count).flatMap((shard) => takeShard(items, shard).map((x) => x.k));
        expect(taken.length, `${n} items in ${count}`).toBe(n);
        expect(new Set(taken).size, `${n} items in ${count}`).toBe(n);
      }
  });

  it('the legs differ in size by at most one, the lower legs taking the remainder', () => {
    const items = itemsOf(11);
    const sizes = legs(4).map((shard) => takeShard(items, shard).length);
    expect(sizes).toEqual([3, 3, 3, 2]);
    expect(legs(11).map((shard) => takeShard(items, shard).length)).toEqual(Array(11).fill(1));
    expect(
      legs(MAX_SHARDS)
        .map((shard) => takeShard(items, shard).length)
        .slice(10, 13),
    ).toEqual([1, 0, 0]);
  });

  it('one leg takes everything, sorted by path', () => {
    const items = [{ path: 'c' }, { path: 'a' }, { path: 'b' }];
    expect(paths(takeShard(items, { index: 1, count: 1 }))).toEqual(['a', 'b', 'c']);
  });

  it('a leg gets the same items whatever order they were listed in', () => {
    const items = itemsOf(23);
    const shuffled = [...items.slice(10), ...items.slice(0, 10).reverse()];
    for (const shard of legs(5)) expect(takeShard(shuffled, shard)).toEqual(takeShard(items, shard));
  });

  it('sorts by UTF-16 code unit: upper case before lower, digits before letters, non-ASCII last', () => {
    const items = [
      'é/SKILL.md',
      'a/SKILL.md',
      'Z/SKILL.md',
      '9/SKILL.md',
      'a-b/SKILL.md',
      'a/b/SKILL.md',
    ].map((path) => ({ path }));
    expect(paths(takeShard(items, { index: 1, count: 1 }))).toEqual([
      '9/SKILL.md',
      'Z/SKILL.md',
      'a-b/SKILL.md',
      'a/SKILL.md',
      'a/b/SKILL.md',
      'é/SKILL.md',
    ]);
  });

  it('leaves the caller’s array as it was and returns a new one', () => {
    const items = [{ path: 'b' }, { path: 'a' }];
    const before = [...items];
    const taken = takeShard(items, { index: 1, count: 1 });
    expect(items).toEqual(before);
    expect(taken).not.toBe(items);
    expect(taken[0]).toBe(items[1]);
  });

  it('items that share a path are still dealt one each, none lost', () => {
    const items = [
      { path: 'same', k: 0 },
      { path: 'same', k: 1 },
      { path: 'same', k: 2 },
    ];
    const taken = legs(2).flatMap((shard) => takeShard(items, shard).map((x) => x.k));
    expect(taken.sort()).toEqual([0, 1, 2]);
  });
});
