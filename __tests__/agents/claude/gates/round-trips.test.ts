import { describe, expect, it } from 'vitest';
import type { ClaudeCommandResult } from '../../../../src/agents/claude/command.js';
import { runRoundTrips } from '../../../../src/agents/claude/gates/round-trips.js';

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
