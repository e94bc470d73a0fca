import { describe, expect, it } from 'vitest';
import { GateRecorder } from '../../../../src/agents/claude/gates/gate-order.js';
import { type GateResult, gateResult } from '../../../../src/agents/gates.js';

describe('GateRecorder', () => {
  it('passes results on in gate order, holding a later gate until every earlier one is known', () => {
    const seen: string[] = [];
    const recorder = new GateRecorder((r: GateResult) => seen.push(r.gate));
    recorder.record(gateResult('auth', 'ok', 'logged in'));
    expect(seen).toEqual([]);
    recorder.record(gateResult('cli', 'ok', 'found'));
    expect(seen).toEqual(['cli', 'auth']);
    recorder.record(gateResult('conflict', 'ok', 'none'));
    expect(seen).toEqual(['cli', 'auth']);
  });

  it('skips every gate not yet known, and lists a gate never reached as not run', () => {
    const seen: string[] = [];
    const recorder = new GateRecorder((r) => seen.push(`${r.gate}:${r.status}`));
    recorder.record(gateResult('cli', 'fail', 'missing'));
    recorder.skipRest('needs a working CLI');
    expect(seen).toEqual([
      'cli:fail',
      'auth:skip',
      'round-trip:skip',
      'conflict:skip',
      'sleep:skip',
      'roster:skip',
    ]);
    expect(recorder.get('auth')?.reason).toBe('needs a working CLI');
    const fresh = new GateRecorder();
    fresh.record(gateResult('cli', 'ok', 'found'));
    expect(fresh.gates().map((g) => `${g.gate}:${g.reason}`)).toEqual([
      'cli:found',
      'auth:not run',
      'round-trip:not run',
      'conflict:not run',
      'sleep:not run',
      'roster:not run',
    ]);
  });
});
