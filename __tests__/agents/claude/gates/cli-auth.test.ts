import { describe, expect, it } from 'vitest';
import type { ClaudeCommandResult } from '../../../../src/agents/claude/command.js';
import { judgeAuth, parseAuthStatus } from '../../../../src/agents/claude/gates/auth.js';
import { judgeCli, parseCliVersion } from '../../../../src/agents/claude/gates/cli.js';

const ran = (
  stdout: string,
  exitCode = 0,
  extra: Partial<ClaudeCommandResult> = {},
): ClaudeCommandResult => ({
  spawnFailed: false,
  timedOut: false,
  aborted: false,
  exitCode,
  stdout,
  stderr: '',
  ...extra,
});

describe('cli gate', () => {
  it('records the version `claude --version` prints', () => {
    expect(parseCliVersion('2.1.328 (Claude Code)\n')).toBe('2.1.328');
    expect(judgeCli('claude', ran('2.1.328 (Claude Code)\n'))).toEqual({
      result: { gate: 'cli', status: 'ok', reason: 'claude 2.1.328' },
      version: '2.1.328',
    });
  });

  it('fails a missing CLI with the install fix, and a CLI that prints no version', () => {
    const missing = judgeCli(
      '/nonexistent',
      ran('', 0, { spawnFailed: true, spawnError: 'ENOENT', exitCode: undefined }),
    );
    expect(missing.result).toMatchObject({
      status: 'fail',
      reason: 'the Claude CLI could not be started as "/nonexistent" (ENOENT)',
    });
    expect(missing.result.fix).toMatch(/--claude <path>/);
    expect(judgeCli('claude', ran('', 1, { stderr: 'segfault' })).result.reason).toBe(
      '"claude --version" exited with code 1 and printed no version (it said: segfault)',
    );
  });
});

describe('auth gate', () => {
  const status = (loggedIn: boolean, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      loggedIn,
      authMethod: loggedIn ? 'api_key' : 'none',
      apiProvider: 'firstParty',
      ...extra,
    });

  it('passes a login and says how', () => {
    expect(judgeAuth(ran(status(true, { apiKeySource: 'ANTHROPIC_API_KEY' })))).toEqual({
      gate: 'auth',
      status: 'ok',
      reason: 'logged in (api_key from ANTHROPIC_API_KEY)',
    });
  });

  it('fails when not logged in (exit 1), with the login fix', () => {
    const gate = judgeAuth(ran(status(false), 1));
    expect(gate).toMatchObject({ status: 'fail', reason: '`claude auth status` says not logged in' });
    expect(gate.fix).toMatch(/claude auth login/);
  });

  it('only warns for a cloud provider or output it cannot read: the round-trip decides', () => {
    expect(judgeAuth(ran(status(false, { apiProvider: 'bedrock' }), 1)).status).toBe('warn');
    expect(judgeAuth(ran('Not logged in. Run claude auth login.', 1)).status).toBe('warn');
    expect(parseAuthStatus('[]')).toBeUndefined();
    expect(parseAuthStatus('{"loggedIn":"yes"}')).toBeUndefined();
  });
});
