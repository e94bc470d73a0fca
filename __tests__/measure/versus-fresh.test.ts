import { describe, expect, it } from 'vitest';
import type { EvalItem } from '../../src/inputs/types.js';
import { foldRecords, versusFreshItems } from '../../src/measure/versus-fresh.js';

/**
 * `--versus-fresh` (docs/context.md): the loop is handed each query with a context twice, fresh
 * just before it with its context, and the runs are folded back into the one query in the order
 * they ran.
 */
const turns = [
  { role: 'user' as const, content: 'hi' },
  { role: 'assistant' as const, content: 'hello' },
];
const items: EvalItem[] = [
  { id: 'a', query: 'qa', shouldTrigger: true, extra: {}, context: { turns } },
  { id: 'b', query: 'qb', shouldTrigger: false, extra: {} },
  { id: 'c', query: 'qc', shouldTrigger: true, extra: { note: 'n' }, context: { turns, file: 'c.json' } },
];

describe('versusFreshItems', () => {
  it('puts a fresh copy just before each query with a context', () => {
    const { items: loop, origin } = versusFreshItems(items);
    expect(loop.map((item) => [item.id, item.context?.turns === undefined ? 'fresh' : 'context'])).toEqual([
      ['a', 'fresh'],
      ['a', 'context'],
      ['b', 'fresh'],
      ['c', 'fresh'],
      ['c', 'context'],
    ]);
    expect(origin).toEqual([0, 0, 1, 2, 2]);
    expect(loop[3]).toEqual({ id: 'c', query: 'qc', shouldTrigger: true, extra: { note: 'n' } });
  });
});

describe('foldRecords', () => {
  it('gives each query its copies’ runs, pass by pass, on every side', () => {
    const side = [['a0f', 'a1f'], ['a0c', 'a1c'], ['b0', 'b1'], ['c0f'], ['c0c', 'c1c']];
    expect(foldRecords([side, side], [0, 0, 1, 2, 2], 3)).toEqual([
      [
        ['a0f', 'a0c', 'a1f', 'a1c'],
        ['b0', 'b1'],
        ['c0f', 'c0c', 'c1c'],
      ],
      [
        ['a0f', 'a0c', 'a1f', 'a1c'],
        ['b0', 'b1'],
        ['c0f', 'c0c', 'c1c'],
      ],
    ]);
  });

  it('leaves the records as they are when every query ran once', () => {
    expect(foldRecords([[['x'], [], ['y', 'z']]], [0, 1, 2], 3)).toEqual([[['x'], [], ['y', 'z']]]);
  });
});
