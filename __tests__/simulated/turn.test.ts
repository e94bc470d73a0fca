import { describe, expect, it } from 'vitest';
import type { RequestView } from '../../src/simulated/request.js';
import type { Script } from '../../src/simulated/script.js';
import { planTurn, type RunState, type TurnRecord } from '../../src/simulated/turn.js';

const STUB = { name: 'demo-stub-0123abcd', description: 'Summarise' };

function view(extra: Partial<RequestView> = {}): RequestView {
  return {
    query: 'q',
    listing: [STUB],
    stub: STUB,
    model: 'm',
    stream: true,
    followUp: false,
    toolResultIds: [],
    ...extra,
  };
}

function state(script: Script): RunState {
  return { script, seed: 0, occurrences: new Map(), continuations: new Map() };
}

describe('planTurn', () => {
  it('a first turn asks the script, counting the occurrences of its query', () => {
    const seen: number[] = [];
    const runs = state((_, ctx) => {
      seen.push(ctx.occurrence);
      return { kind: 'text', text: 'hi' };
    });
    const record: TurnRecord = {};
    const turn = planTurn(view(), runs, record, 'command');
    planTurn(view(), runs, {}, 'command');
    expect(seen).toEqual([0, 1]);
    expect(record).toEqual({ behaviour: { kind: 'text', text: 'hi' }, turn: 1 });
    expect(turn.kind === 'plan' && turn.plan.kind).toBe('answer');
  });

  it('registers the tool calls of an answer that continues; the follow-up takes and drops them', () => {
    const runs = state(() => ({ kind: 'skill-then-work', turns: 1, delayMs: 0 }));
    const first = planTurn(view(), runs, {}, 'command');
    if (first.kind !== 'plan' || first.plan.kind !== 'answer') throw new Error('no answer');
    const ids = first.plan.blocks.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
    expect(ids.length).toBeGreaterThan(0);
    expect([...runs.continuations.keys()]).toEqual(ids);

    const record: TurnRecord = {};
    const next = planTurn(view({ followUp: true, toolResultIds: ids }), runs, record, 'command');
    expect(next.kind).toBe('plan');
    expect(record.behaviour).toEqual({ kind: 'skill-then-work', turns: 1, delayMs: 0 });
    expect(record.turn).toBe(2);
    for (const id of ids) expect(runs.continuations.has(id)).toBe(false);
  });

  it('a follow-up the fake did not issue finishes the run', () => {
    const record: TurnRecord = {};
    const turn = planTurn(
      view({ followUp: true, toolResultIds: ['toolu_other'] }),
      state(() => undefined),
      record,
      'skill',
    );
    expect(record).toEqual({ behaviour: { kind: 'text' }, turn: 0 });
    expect(turn.kind).toBe('plan');
  });

  it('a script that throws is said, and nothing is recorded', () => {
    const record: TurnRecord = {};
    const turn = planTurn(
      view(),
      state(() => {
        throw new Error('boom');
      }),
      record,
      'command',
    );
    expect(turn).toEqual({ kind: 'script-failed', message: 'simulated model script failed: boom' });
    expect(record).toEqual({});
  });
});
