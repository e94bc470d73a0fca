import { describe, expect, it } from 'vitest';
import type { ClaudeCommandResult } from '../../src/adapters/claude-command.js';
import { gateResult } from '../../src/gates/gate.js';
import { combineRoundTrips, runRoundTrips } from '../../src/gates/round-trips.js';

describe('combineRoundTrips', () => {
  it('one model: its own result, unchanged', () => {
    const only = gateResult('round-trip', 'fail', 'haiku: refused', 'check the key');
    expect(combineRoundTrips([only])).toBe(only);
  });

  it('several that pass: one ok naming each reason', () => {
    const combined = combineRoundTrips([
      gateResult('round-trip', 'ok', 'haiku answered'),
      gateResult('round-trip', 'ok', 'sonnet answered'),
    ]);
    expect(combined).toEqual(gateResult('round-trip', 'ok', 'haiku answered; sonnet answered'));
  });

  it('any failure fails the gate, naming only the failed ones, each distinct fix once', () => {
    const combined = combineRoundTrips([
      gateResult('round-trip', 'ok', 'haiku answered'),
      gateResult('round-trip', 'fail', 'sonnet: 401', 'check the key'),
      gateResult('round-trip', 'fail', 'opus: 401', 'check the key'),
      gateResult('round-trip', 'fail', 'mini: no such model', 'name a model the API knows'),
      gateResult('round-trip', 'fail', 'nano: cut'),
    ]);
    expect(combined.status).toBe('fail');
    expect(combined.reason).toBe('sonnet: 401; opus: 401; mini: no such model; nano: cut');
    expect(combined.fix).toBe('check the key; name a model the API knows');
  });
});

describe('runRoundTrips', () => {
  const result = (over: Partial<ClaudeCommandResult>): ClaudeCommandResult => ({
    spawnFailed: false,
    timedOut: false,
    aborted: false,
    stdout: '',
    stderr: '',
    ...over,
  });

  it('calls each model in turn (one at a time), judging each; no model asked: one call with none', async () => {
    const calls: (string | undefined)[] = [];
    let running = 0;
    const call = async (model: string | undefined) => {
      running++;
      expect(running).toBe(1);
      calls.push(model);
      await Promise.resolve();
      running--;
      return result({ spawnFailed: true, spawnError: 'ENOENT' });
    };
    const trips = await runRoundTrips({ models: ['haiku', 'sonnet'], timeoutMs: 1000 }, undefined, call);
    expect(calls).toEqual(['haiku', 'sonnet']);
    expect(trips.judged).toHaveLength(2);
    expect(trips.judged.every((j) => j.gate === 'round-trip' && j.status === 'fail')).toBe(true);

    calls.length = 0;
    const one = await runRoundTrips({ timeoutMs: 1000 }, undefined, call);
    expect(calls).toEqual([undefined]);
    expect(one.judged).toHaveLength(1);
    expect(one.usage).toEqual({});
  });

  it('an aborted call ends the sequence: the models after it are not called, nothing judged for it', async () => {
    const calls: (string | undefined)[] = [];
    const trips = await runRoundTrips(
      { models: ['haiku', 'sonnet', 'opus'], timeoutMs: 1000 },
      undefined,
      async (model) => {
        calls.push(model);
        return model === 'sonnet' ? result({ aborted: true }) : result({ spawnFailed: true });
      },
    );
    expect(calls).toEqual(['haiku', 'sonnet']);
    expect(trips.judged).toHaveLength(1);
  });
});
