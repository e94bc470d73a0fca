import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { halveHoldout } from '../../scripts/demo-holdout.js';

interface Entry {
  query: string;
  should_trigger: boolean;
  split?: string;
}

const example = path.resolve(import.meta.dirname, '../../examples/handoff/evals.json');

describe("the improve demo's eval set: half of the example's holdout, train untouched", () => {
  it('keeps every train query and two held-out positives and negatives, the on-call near-miss among them', async () => {
    const items = JSON.parse(await readFile(example, 'utf8')) as Entry[];
    const kept = halveHoldout(items);
    const train = (list: Entry[]) => list.filter((i) => i.split !== 'holdout');
    const held = (list: Entry[], cls: boolean) =>
      list.filter((i) => i.split === 'holdout' && i.should_trigger === cls).map((i) => i.query);
    expect(train(kept)).toEqual(train(items));
    expect(train(kept)).toHaveLength(12);
    expect(held(items, true)).toHaveLength(4);
    expect(held(items, false)).toHaveLength(4);
    expect(held(kept, true)).toEqual([held(items, true)[1], held(items, true)[3]]);
    expect(held(kept, false)).toEqual([held(items, false)[1], held(items, false)[3]]);
    expect(held(kept, false)).toContain('draft the on-call handover email for the weekend rotation');
  });

  it('counts each class on its own, in file order', () => {
    const items = [
      { query: 'a', should_trigger: true, split: 'holdout' },
      { query: 'b', should_trigger: false, split: 'holdout' },
      { query: 'c', should_trigger: true },
      { query: 'd', should_trigger: true, split: 'holdout' },
      { query: 'e', should_trigger: false, split: 'holdout' },
      { query: 'f', should_trigger: false, split: 'train' },
    ];
    expect(halveHoldout(items).map((i) => i.query)).toEqual(['c', 'd', 'e', 'f']);
  });
});
