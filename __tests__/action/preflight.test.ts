import { describe, expect, it } from 'vitest';
import { forTheAction, versionDrift } from '../../src/action/preflight.js';
import { LOGIN_FIX } from '../../src/agents/claude/gates/auth.js';
import { gateLabel, gateResult } from '../../src/agents/gates.js';

/** The Action shows the CLI's gate results, worded for a workflow where the CLI's name a terminal. */
describe("the Action's gate wording", () => {
  it('an auth failure names the input (or, for a fork, why there is no secret)', () => {
    const failed = gateResult('auth', 'fail', '`claude auth status` says not logged in', LOGIN_FIX);
    expect(forTheAction(failed, false).fix).toMatch(
      /anthropic-api-key: \$\{\{ secrets\.ANTHROPIC_API_KEY \}\}/,
    );
    expect(forTheAction(failed, true).fix).toMatch(/GitHub passes no secrets/);
    expect(forTheAction(failed, false).reason).toBe(failed.reason);
  });

  it('a refused login on the round-trip names the input too; other results pass through unchanged', () => {
    const refused = gateResult('round-trip', 'fail', 'the login was refused', LOGIN_FIX);
    expect(forTheAction(refused, false).fix).toMatch(/^the API key was refused: pass a key from a secret/);
    const other = gateResult('round-trip', 'fail', 'the request failed (api)', 'retry');
    expect(forTheAction(other, false)).toBe(other);
    const ok = gateResult('conflict', 'ok', 'nothing besides the stub answers to "a"');
    expect(forTheAction(ok, true)).toBe(ok);
  });

  it("Codex's auth failure names openai-api-key; its other results pass through, labelled with the agent", () => {
    const failed = {
      ...gateResult('auth', 'fail', 'no CODEX_API_KEY or OPENAI_API_KEY', 'export CODEX_API_KEY=…'),
      agent: 'codex' as const,
    };
    expect(forTheAction(failed, false).fix).toMatch(/openai-api-key: \$\{\{ secrets\.OPENAI_API_KEY \}\}/);
    expect(forTheAction(failed, true).fix).toMatch(/GitHub passes no secrets/);
    const refused = {
      ...gateResult('round-trip', 'fail', 'the key was refused', LOGIN_FIX),
      agent: 'codex' as const,
    };
    expect(forTheAction(refused, false)).toBe(refused);
    expect(gateLabel(refused)).toBe('codex round-trip');
    expect(gateLabel(gateResult('roster', 'ok', 'listed'))).toBe('roster');
  });

  it('a CLI answering another version than the one installed warns', () => {
    const ok = gateResult('cli', 'ok', 'claude 2.1.300');
    expect(versionDrift(ok, '2.1.328', '2.1.300')).toMatchObject({
      status: 'warn',
      reason: 'claude 2.1.300 answered, not the 2.1.328 installed',
    });
    expect(versionDrift(ok, '2.1.300', '2.1.300')).toBe(ok);
    expect(versionDrift(ok, undefined, '2.1.300')).toBe(ok);
  });
});
