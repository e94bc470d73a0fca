import { describe, expect, it } from 'vitest';
import { judgeAuth, LOGIN_FIX, parseAuthStatus } from '../../../../src/agents/claude/gates/auth.js';
import type { CommandResult } from '../../../../src/program-output.js';

/** `claude auth status` as the adapter hands it over: it ran and exited with `exitCode`. */
const answered = (stdout: string, exitCode = 0, extra: Partial<CommandResult> = {}) =>
  ({ spawnFailed: false, timedOut: false, exitCode, stdout, stderr: '', ...extra }) satisfies CommandResult;

const json = (fields: Record<string, unknown>) => JSON.stringify(fields);

describe('parseAuthStatus', () => {
  it('reads the fields the gate uses from the JSON object, pretty-printed or not', () => {
    const fields = {
      loggedIn: true,
      authMethod: 'claude.ai',
      apiProvider: 'firstParty',
      apiKeySource: 'none',
    };
    expect(parseAuthStatus(json(fields))).toEqual(fields);
    expect(parseAuthStatus(`${JSON.stringify(fields, null, 2)}\n`)).toEqual(fields);
  });

  it('keeps only loggedIn and the string fields it knows, dropping the rest', () => {
    expect(
      parseAuthStatus(
        json({ loggedIn: false, authMethod: 5, apiProvider: null, email: 'a@b.c', orgId: 'x' }),
      ),
    ).toEqual({ loggedIn: false });
  });

  it('is undefined for anything that is not that object', () => {
    for (const out of [
      '',
      'Not logged in. Run claude auth login.',
      'null',
      '[]',
      '"loggedIn"',
      '{}',
      '{"loggedIn":"true"}',
      '{"loggedIn":1}',
      '{"loggedIn":true',
      // A line printed before the JSON makes the whole output unreadable.
      'Update available!\n{"loggedIn":true}',
    ]) {
      expect(parseAuthStatus(out), out).toBeUndefined();
    }
  });
});

describe('judgeAuth', () => {
  it('passes a login and says how, with what it knows of the method and the key source', () => {
    expect(judgeAuth(answered(json({ loggedIn: true })))).toEqual({
      gate: 'auth',
      status: 'ok',
      reason: 'logged in',
    });
    expect(judgeAuth(answered(json({ loggedIn: true, authMethod: 'claude.ai' }))).reason).toBe(
      'logged in (claude.ai)',
    );
    expect(judgeAuth(answered(json({ loggedIn: true, apiKeySource: 'ANTHROPIC_API_KEY' }))).reason).toBe(
      'logged in (from ANTHROPIC_API_KEY)',
    );
    expect(
      judgeAuth(answered(json({ loggedIn: true, authMethod: 'api_key', apiKeySource: '/login managed key' })))
        .reason,
    ).toBe('logged in (api_key from /login managed key)');
  });

  it('passes a login whatever the exit code says, and has no fix when ok', () => {
    const ok = judgeAuth(answered(json({ loggedIn: true }), 1));
    expect(ok.status).toBe('ok');
    expect(ok).not.toHaveProperty('fix');
  });

  it('fails without a login to Anthropic, with the login fix', () => {
    const expected = {
      gate: 'auth',
      status: 'fail',
      reason: '`claude auth status` says not logged in',
      fix: LOGIN_FIX,
    };
    expect(judgeAuth(answered(json({ loggedIn: false }), 1))).toEqual(expected);
    expect(judgeAuth(answered(json({ loggedIn: false, apiProvider: 'firstParty' }), 1))).toEqual(expected);
    // The fix names the login for a person and for CI.
    expect(LOGIN_FIX).toContain('claude auth login');
    expect(LOGIN_FIX).toContain('claude setup-token');
    expect(LOGIN_FIX).toContain('ANTHROPIC_API_KEY');
  });

  it('only warns when a cloud provider authenticates outside the login', () => {
    for (const provider of ['bedrock', 'vertex', 'foundry']) {
      expect(judgeAuth(answered(json({ loggedIn: false, apiProvider: provider }), 1))).toEqual({
        gate: 'auth',
        status: 'warn',
        reason: `not logged in to Anthropic, but the API provider is ${provider}`,
        fix: 'the round-trip gate checks that provider with a real request',
      });
    }
  });

  it('only warns when the answer cannot be read, quoting its first line (stdout, else stderr)', () => {
    const fix = 'the round-trip gate checks the login instead; update the Claude CLI if this persists';
    expect(judgeAuth(answered('\n  Not logged in. Run claude auth login.  \nmore\n', 1))).toEqual({
      gate: 'auth',
      status: 'warn',
      reason: 'could not read `claude auth status` (exit 1; it said: Not logged in. Run claude auth login.)',
      fix,
    });
    expect(judgeAuth(answered('', 2, { stderr: "error: unknown command 'auth'\nusage…" })).reason).toBe(
      "could not read `claude auth status` (exit 2; it said: error: unknown command 'auth')",
    );
    expect(judgeAuth(answered('', 0, { exitCode: undefined, signal: 'SIGKILL' })).reason).toBe(
      'could not read `claude auth status` (exit ?; it said: nothing)',
    );
    expect(judgeAuth(answered(json({ authenticated: true }))).status).toBe('warn');
  });

  it('caps a long quoted line', () => {
    const reason = judgeAuth(answered('x'.repeat(500), 1)).reason;
    expect(reason).toContain(`it said: ${'x'.repeat(159)}…)`);
    expect(reason).not.toContain('x'.repeat(160));
  });

  it('only warns when the command did not answer in time, even if it printed a status first', () => {
    const late = {
      gate: 'auth',
      status: 'warn',
      reason: '`claude auth status` did not answer in time',
      fix: 'the round-trip gate checks the login instead',
    };
    expect(judgeAuth(answered('', 0, { exitCode: undefined, timedOut: true, signal: 'SIGTERM' }))).toEqual(
      late,
    );
    expect(
      judgeAuth(answered(json({ loggedIn: false }), 0, { exitCode: undefined, timedOut: true })),
    ).toEqual(late);
  });

  it('masks an sk-ant- token it quotes from unreadable output', () => {
    const gate = judgeAuth(answered('', 1, { stderr: 'API key sk-ant-api03-abcDEF123 refused' }));
    expect(gate.reason).toBe('could not read `claude auth status` (exit 1; it said: API key *** refused)');
  });
});
