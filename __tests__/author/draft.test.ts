import { describe, expect, it } from 'vitest';
import { assignSplits, readDraft } from '../../src/author/draft.js';

const items = (pos: number, neg: number) => [
  ...Array.from({ length: pos }, (_, i) => ({ query: `pos ${i}`, should_trigger: true })),
  ...Array.from({ length: neg }, (_, i) => ({ query: `neg ${i}`, should_trigger: false })),
];

describe('readDraft', () => {
  it('reads the array between the tags', () => {
    const r = readDraft(`Sure.\n<eval_set>\n${JSON.stringify(items(2, 2))}\n</eval_set>\nDone.`);
    expect(r).toEqual({ kind: 'draft', items: items(2, 2) });
  });

  it.each([
    ['no tags', 'Here are some prompts: 1. foo', /no <eval_set>…<\/eval_set> in the answer/],
    ['not JSON', '<eval_set>[{query: x}]</eval_set>', /not JSON/],
    [
      'wrong shape',
      '<eval_set>[{"query": "x", "should_trigger": "yes"}, {"query": "y", "should_trigger": false}]</eval_set>',
      /\[0\]\[should_trigger\]/,
    ],
    ['one class', `<eval_set>${JSON.stringify(items(3, 0))}</eval_set>`, /only one class/],
  ])('says what is wrong: %s', (_name, answer, problem) => {
    const r = readDraft(answer);
    expect(r.kind).toBe('malformed');
    if (r.kind === 'malformed') expect(r.problem).toMatch(problem);
  });
});

describe('assignSplits', () => {
  it('holds out round(40%) of each class, spread through the class, order kept', () => {
    const entries = assignSplits(items(10, 10));
    expect(entries.map((e) => e.query)).toEqual(items(10, 10).map((i) => i.query));
    for (const cls of [true, false]) {
      const of = entries.filter((e) => e.should_trigger === cls);
      expect(of.filter((e) => e.split === 'holdout')).toHaveLength(4);
      // Spread: never the first two of a class both held out, nor the last two.
      expect(of.slice(0, 5).filter((e) => e.split === 'holdout').length).toBe(2);
    }
  });

  it('stratifies unequal classes too', () => {
    const entries = assignSplits(items(7, 3));
    expect(entries.filter((e) => e.should_trigger && e.split === 'holdout')).toHaveLength(3);
    expect(entries.filter((e) => !e.should_trigger && e.split === 'holdout')).toHaveLength(1);
  });
});
