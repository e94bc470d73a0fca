import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../src/simulated/plan.js';
import { type AnswerStream, type Wire, writePaced, writePlan } from '../../src/simulated/respond.js';

/** The slice of a response writePlan touches, recording what happened to it. */
function response() {
  const res = {
    destroyed: false,
    destroy() {
      res.destroyed = true;
    },
  };
  return res;
}

function wire(calls: string[]): Wire {
  return {
    error: () => calls.push('error'),
    stall: () => calls.push('stall'),
    cut: async () => {
      calls.push('cut');
    },
    answer: async () => {
      calls.push('answer');
    },
  };
}

const stream: AnswerStream = { chunkDelayMs: 0, closed: () => false };
const answer: Plan = { kind: 'answer', blocks: [], delayMs: 0 };

describe('writePlan', () => {
  it.each([
    [{ kind: 'hang' } as Plan, [], false],
    [{ kind: 'reset' } as Plan, [], true],
    [{ kind: 'stall' } as Plan, ['stall'], false],
    [{ kind: 'error', status: 500, message: 'm', noRetry: false } as Plan, ['error'], false],
    [{ kind: 'cut', block: { type: 'text', text: 'x' } } as Plan, ['cut'], true],
    [answer, ['answer'], false],
  ])('%o: the wire writes %o; the connection is broken: %s', async (plan, written, broken) => {
    const res = response();
    const calls: string[] = [];
    await writePlan(res as unknown as ServerResponse, plan, stream, wire(calls));
    expect(calls).toEqual(written);
    expect(res.destroyed).toBe(broken);
  });

  it('writes no answer once the server is closing', async () => {
    const calls: string[] = [];
    const closing = { chunkDelayMs: 0, closed: () => true };
    await writePlan(response() as unknown as ServerResponse, answer, closing, wire(calls));
    expect(calls).toEqual([]);
  });
});

describe('writePaced', () => {
  it('writes every chunk in order, and stops when the client goes', async () => {
    const res = response();
    const written: string[] = [];
    await writePaced(res as unknown as ServerResponse, ['a', 'b', 'c'], stream, (c) => written.push(c));
    expect(written).toEqual(['a', 'b', 'c']);
    const cut: string[] = [];
    await writePaced(res as unknown as ServerResponse, ['a', 'b'], stream, (c) => {
      cut.push(c);
      res.destroy();
    });
    expect(cut).toEqual(['a']);
  });
});
