import { describe, expect, it } from 'vitest';
import { gateResult } from '../../../src/agents/agent.js';
import { gateBook, worstGate } from '../../../src/agents/process/gate-book.js';

describe('gateBook', () => {
  it('marks each gate with the agent, tells it, and skips the gates not reached with the reason', () => {
    const told: string[] = [];
    const book = gateBook('codex', { onGate: (g) => told.push(`${g.agent}:${g.gate}:${g.status}`) });
    book.record(gateResult('cli', 'ok', 'found'));
    expect(book.skipRest('needs a key')).toBe(false);
    expect(told).toEqual([
      'codex:cli:ok',
      'codex:auth:skip',
      'codex:round-trip:skip',
      'codex:conflict:skip',
      'codex:roster:skip',
    ]);
    expect(book.gates.slice(1).map((g) => g.reason)).toEqual(Array(4).fill('needs a key'));
  });

  it('skips as interrupted once the signal aborted, whatever the reason given', () => {
    const controller = new AbortController();
    const book = gateBook('gemini', { signal: controller.signal });
    expect(book.interrupted()).toBe(false);
    controller.abort();
    expect(book.skipRest('needs a key')).toBe(true);
    expect(book.gates.map((g) => g.reason)).toEqual(Array(5).fill('interrupted'));
  });
});

describe('worstGate', () => {
  it('takes the first failure, else the first warning, else the first', () => {
    const ok = gateResult('conflict', 'ok', 'a');
    const warn = gateResult('conflict', 'warn', 'b');
    const fail = gateResult('conflict', 'fail', 'c');
    expect(worstGate([ok, warn, fail])).toBe(fail);
    expect(worstGate([ok, warn])).toBe(warn);
    expect(worstGate([ok])).toBe(ok);
    expect(worstGate([])).toBeUndefined();
  });
});
