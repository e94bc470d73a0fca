import { describe, expect, it } from 'vitest';
import type { EvalItem } from '../../src/inputs/types.js';
import { loopBook } from '../../src/measure/loop-book.js';
import type { RunResult } from '../../src/measure/loop-spec.js';
import { loopTargets, type PlanSpec } from '../../src/measure/loop-targets.js';
import type { Outcome } from '../../src/outcome.js';

const items: EvalItem[] = [
  { id: 'p', query: 'p', shouldTrigger: true, extra: {} },
  { id: 'n', query: 'n', shouldTrigger: false, extra: {} },
];
const run = (kind: Outcome['kind']): RunResult =>
  ({ outcome: kind === 'error' ? { kind, cause: 'api' } : { kind }, durationMs: 1 }) as RunResult;

function book(over: Partial<PlanSpec> = {}) {
  const spec: PlanSpec = {
    items,
    sides: [{ label: 'candidate' }, { label: 'baseline' }],
    rules: { runsPerQuery: 4, autoRuns: true, triggerThreshold: 0.5, noVerdictShare: 0.1 },
    timeoutMs: 1000,
    ...over,
  };
  const shape = loopTargets(spec);
  return { spec, shape, book: loopBook(spec, shape) };
}

describe('the loop book', () => {
  it('settles a query only once every side agrees, and keeps a started pair whole', () => {
    const { book: b, shape } = book();
    const first = shape.runs.find((slot) => slot.itemIndex === 0 && slot.pass === 3);
    if (!first) throw new Error('no fourth pass of the first query was planned');
    for (let i = 0; i < 3; i++) b.records[0]?.[0]?.push(run('triggered'));
    expect(b.settled(0)).toBe(false);
    for (let i = 0; i < 3; i++) b.records[1]?.[0]?.push(run('triggered'));
    expect(b.settled(0)).toBe(true);
    expect(b.skips({ ...first, pass: 3 })).toBe(true);
    // One side already ran the pass: the other runs it too.
    b.records[0]?.[0]?.push(run('triggered'));
    expect(b.skips({ ...first, pass: 3 })).toBe(false);
  });

  it('counts the plan left with --runs auto, and the whole plan without', () => {
    const auto = book();
    expect(auto.book.planned()).toBe(16);
    for (const side of [0, 1])
      for (let i = 0; i < 3; i++) auto.book.records[side]?.[0]?.push(run('triggered'));
    expect(auto.book.planned()).toBe(14);
    const fixed = book({ rules: { runsPerQuery: 4, triggerThreshold: 0.5, noVerdictShare: 0.1 } });
    expect(fixed.book.planned()).toBe(fixed.shape.runs.length);
  });

  it('stops once a query lost every run it had on a side', () => {
    const { book: b } = book({ rules: { runsPerQuery: 2, triggerThreshold: 0.5, noVerdictShare: 0.1 } });
    expect(b.stops()).toBe(false);
    b.records[0]?.[1]?.push(run('error'), run('timeout'));
    expect(b.stops()).toBe(true);
  });

  it('names the next runs by agent, side, model and context, leaving out settled queries', () => {
    const context = [{ role: 'user' as const, content: 'earlier' }];
    const { book: b, shape } = book({
      items: [items[0] as EvalItem, { ...(items[1] as EvalItem), context: { turns: context } }],
      sides: [{ label: 'candidate' }],
      models: ['m1', 'm2'],
    });
    const next = b.upcoming(0, () => ({ id: 'claude' }));
    expect(next).toHaveLength(shape.runs.length - 1);
    expect(next[0]).toEqual({ agent: 'claude', side: 0, model: 'm2' });
    expect(next.find((r) => r.context !== undefined)?.context).toBe(context);
    for (const model of ['m1', 'm2'])
      for (let i = 0; i < 3; i++) b.records[0]?.[0]?.push({ ...run('triggered'), requestedModel: model });
    expect(b.upcoming(0, () => ({ id: 'claude' })).every((r) => r.context === context)).toBe(true);
  });
});
