import { describe, expect, it } from 'vitest';
import { gateResult } from '../../../src/agents/gates.js';
import {
  gateBook,
  gateNames,
  type RoundTrip,
  type RoundTripStub,
  roundTripGate,
  worstGate,
} from '../../../src/agents/process/gate-book.js';
import type { Usage } from '../../../src/outcome.js';

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

describe('gateNames', () => {
  it("checks the skill's own name first and every name once", () => {
    expect(gateNames({ skillName: 'a', skillNames: ['b', 'a', 'c', 'b'] })).toEqual(['a', 'b', 'c']);
    expect(gateNames({ skillNames: ['b'] })).toEqual(['b']);
    expect(gateNames({})).toEqual([]);
  });
});

describe('roundTripGate', () => {
  class Stopped extends Error {}
  const usage: Usage = {
    inputTokens: 7,
    outputTokens: 2,
    cacheReadInputTokens: 0,
    cacheCreationInputTokens: 0,
  };
  const trip = (run: RoundTrip['run']): RoundTrip => ({
    run,
    judge: (outcome, timeoutMs) => gateResult('round-trip', 'ok', `${outcome.kind} within ${timeoutMs}`),
    Aborted: Stopped,
  });

  it('skips without a key and runs nothing', async () => {
    const book = gateBook('codex', {});
    const result: { roundTripUsage?: Usage } = {};
    expect(await roundTripGate(book, { root: '/r' }, undefined, result)).toBeUndefined();
    expect(book.gates).toEqual([
      { gate: 'round-trip', status: 'skip', reason: 'needs a key (see the auth gate)', agent: 'codex' },
    ]);
    expect(result).toEqual({});
  });

  it('runs once against a stub named for the skill, keeps the usage and records the judgment', async () => {
    const book = gateBook('gemini', {});
    const result: { roundTripUsage?: Usage } = {};
    const runs: [RoundTripStub, number][] = [];
    const ran = trip(async (stub, timeoutMs) => {
      runs.push([stub, timeoutMs]);
      return { outcome: { kind: 'triggered' }, usage };
    });
    expect(await roundTripGate(book, { skillName: 's', root: '/r' }, ran, result)).toBeUndefined();
    expect(runs).toEqual([
      [{ skillName: 's', description: 'Stands in for the skill under test.', root: '/r' }, 60_000],
    ]);
    expect(result.roundTripUsage).toBe(usage);
    expect(book.gates.map((g) => g.reason)).toEqual(['triggered within 60000']);
    await roundTripGate(book, { roundTripTimeoutMs: 5, root: '/r' }, ran, result);
    expect(runs[1]).toEqual([
      { skillName: 'round-trip', description: 'Stands in for the skill under test.', root: '/r' },
      5,
    ]);
  });

  it("says 'aborted' for the agent's interruption and records nothing; any other error is thrown", async () => {
    const book = gateBook('codex', {});
    const stopped = trip(async () => {
      throw new Stopped();
    });
    expect(await roundTripGate(book, { root: '/r' }, stopped, {})).toBe('aborted');
    expect(book.gates).toEqual([]);
    const broken = trip(async () => {
      throw new Error('boom');
    });
    await expect(roundTripGate(book, { root: '/r' }, broken, {})).rejects.toThrow('boom');
  });
});
