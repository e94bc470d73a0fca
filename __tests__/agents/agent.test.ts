import { describe, expect, it } from 'vitest';
import { GATE_NAMES, gateLabel, gateResult } from '../../src/agents/gates.js';
import { DEFAULT_AGENTS, measures } from '../../src/agents/ids.js';

describe('GATE_NAMES', () => {
  it('lists the gates in the order they run (the Action opens one log group after another in it)', () => {
    expect(GATE_NAMES).toEqual(['cli', 'auth', 'round-trip', 'conflict', 'sleep', 'roster']);
  });
});

describe('gateResult', () => {
  it('carries gate, status and reason, and no fix key at all when none is given', () => {
    const ok = gateResult('cli', 'ok', 'claude 2.1.328');
    expect(ok).toEqual({ gate: 'cli', status: 'ok', reason: 'claude 2.1.328' });
    expect(Object.keys(ok)).toEqual(['gate', 'status', 'reason']);
    // A report or a JSON answer must not gain `"fix": undefined` → no key, not an undefined value.
    expect(JSON.stringify(ok)).toBe('{"gate":"cli","status":"ok","reason":"claude 2.1.328"}');
  });

  it('keeps a fix as given, even an empty one, and for every status', () => {
    expect(gateResult('auth', 'fail', 'not logged in', 'log in')).toEqual({
      gate: 'auth',
      status: 'fail',
      reason: 'not logged in',
      fix: 'log in',
    });
    expect(gateResult('sleep', 'warn', 'may sleep', '')).toHaveProperty('fix', '');
    expect(gateResult('roster', 'skip', 'needs a working Claude CLI')).not.toHaveProperty('fix');
    const multiLine = 'run:\nclaude plugin disable x --scope user';
    expect(gateResult('conflict', 'fail', 'a plugin is in the way', multiLine).fix).toBe(multiLine);
  });

  it('never sets the agent: only a rule for another agent adds it', () => {
    expect(gateResult('round-trip', 'ok', 'pong')).not.toHaveProperty('agent');
  });
});

describe('gateLabel', () => {
  it('names a Claude Code gate by its name alone', () => {
    expect(gateLabel(gateResult('roster', 'ok', 'ok'))).toBe('roster');
    expect(gateLabel(gateResult('round-trip', 'fail', 'no'))).toBe('round-trip');
  });

  it('puts the agent before the gate for another agent', () => {
    expect(gateLabel({ ...gateResult('roster', 'warn', 'x'), agent: 'codex' })).toBe('codex roster');
    expect(gateLabel({ ...gateResult('auth', 'fail', 'x'), agent: 'codex' })).toBe('codex auth');
  });
});

describe('measures', () => {
  it('says whether an agent is among the agents measured', () => {
    expect(measures([{ agent: 'claude' }], 'codex')).toBe(false);
    expect(measures([{ agent: 'claude' }, { agent: 'codex', model: 'gpt-5' }], 'codex')).toBe(true);
    expect(measures(DEFAULT_AGENTS, 'claude')).toBe(true);
  });
});
