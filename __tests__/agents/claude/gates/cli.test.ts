import { describe, expect, it } from 'vitest';
import { judgeCli, parseCliVersion, withGitFinding } from '../../../../src/agents/claude/gates/cli.js';
import { gateResult } from '../../../../src/agents/gates.js';
import type { CommandResult } from '../../../../src/program-output.js';

/** `claude --version` as the adapter hands it over: it ran and exited with `exitCode`. */
const answered = (stdout: string, exitCode = 0, extra: Partial<CommandResult> = {}) =>
  ({ spawnFailed: false, timedOut: false, exitCode, stdout, stderr: '', ...extra }) satisfies CommandResult;

const INSTALL =
  /^install the Claude CLI \(npm install -g @anthropic-ai\/claude-code\) or point skilltrigger at it with --claude <path> \(or SKILLTRIGGER_CLAUDE\)$/;

describe('parseCliVersion', () => {
  it('reads the version `claude --version` prints (docs/claude-cli.md)', () => {
    expect(parseCliVersion('2.1.328 (Claude Code)\n')).toBe('2.1.328');
    expect(parseCliVersion('  10.20.30 (Claude Code)')).toBe('10.20.30');
  });

  it('keeps a pre-release or build suffix', () => {
    expect(parseCliVersion('2.2.0-beta.1 (Claude Code)')).toBe('2.2.0-beta.1');
    expect(parseCliVersion('2.2.0+build.7 (Claude Code)')).toBe('2.2.0+build.7');
    // A dash with nothing after it is not a suffix.
    expect(parseCliVersion('2.1.328- (Claude Code)')).toBe('2.1.328');
  });

  it('is undefined without three dotted numbers', () => {
    for (const out of ['', 'Claude Code', '2.1 (Claude Code)', 'version two', 'command not found']) {
      expect(parseCliVersion(out), out).toBeUndefined();
    }
  });
});

describe('judgeCli', () => {
  it('passes a CLI that prints its version, and returns the version', () => {
    expect(judgeCli('/usr/local/bin/claude', answered('2.1.328 (Claude Code)\n'))).toEqual({
      result: { gate: 'cli', status: 'ok', reason: 'claude 2.1.328' },
      version: '2.1.328',
    });
  });

  it('fails a CLI that cannot be started, naming the path as given and why', () => {
    const missing = judgeCli('/opt/my tools/claude', {
      ...answered('', 0, { exitCode: undefined }),
      spawnFailed: true,
      spawnError: 'EACCES',
    });
    expect(missing).toEqual({
      result: {
        gate: 'cli',
        status: 'fail',
        reason: 'the Claude CLI could not be started as "/opt/my tools/claude" (EACCES)',
        fix: expect.stringMatching(INSTALL),
      },
    });
    expect(
      judgeCli('claude', answered('', 0, { exitCode: undefined, spawnFailed: true })).result.reason,
    ).toBe('the Claude CLI could not be started as "claude"');
  });

  it('judges a failed start before a time-out', () => {
    const both = answered('', 0, { exitCode: undefined, spawnFailed: true, timedOut: true });
    expect(judgeCli('claude', both).result.reason).toMatch(/could not be started/);
  });

  it('fails a CLI that does not answer in time, even if a version was printed', () => {
    expect(
      judgeCli('claude', answered('2.1.328 (Claude Code)', 0, { exitCode: undefined, timedOut: true })),
    ).toEqual({
      result: {
        gate: 'cli',
        status: 'fail',
        reason: '"claude --version" did not answer in time',
        fix: expect.stringMatching(INSTALL),
      },
    });
  });

  it('fails a CLI that prints no version, quoting the first line of stdout, else of stderr', () => {
    const said = judgeCli('claude', answered('\nHello from a wrapper\nsecond line\n'));
    expect(said).toEqual({
      result: {
        gate: 'cli',
        status: 'fail',
        reason:
          '"claude --version" exited with code 0 and printed no version (it said: Hello from a wrapper)',
        fix: expect.stringMatching(INSTALL),
      },
    });
    expect(said).not.toHaveProperty('version');
    expect(
      judgeCli('claude', answered('', 127, { stderr: 'env: node: No such file or directory\n' })).result
        .reason,
    ).toBe(
      '"claude --version" exited with code 127 and printed no version (it said: env: node: No such file or directory)',
    );
    expect(judgeCli('claude', answered('', 0)).result.reason).toBe(
      '"claude --version" exited with code 0 and printed no version (it said: nothing)',
    );
  });

  it('reads the version from stdout only', () => {
    expect(judgeCli('claude', answered('', 0, { stderr: '2.1.328 (Claude Code)' })).result.status).toBe(
      'fail',
    );
  });

  it('fails a non-zero exit even when a version was printed', () => {
    const gate = judgeCli('claude', answered('2.1.328 (Claude Code)', 1));
    expect(gate.result.status).toBe('fail');
    expect(gate.result.reason).toMatch(/^"claude --version" exited with code 1 /);
    expect(gate).not.toHaveProperty('version');
  });

  it('says which signal killed it, or `?` for an unknown exit', () => {
    expect(
      judgeCli('claude', answered('', 0, { exitCode: undefined, signal: 'SIGSEGV' })).result.reason,
    ).toBe('"claude --version" was killed by SIGSEGV and printed no version (it said: nothing)');
    expect(judgeCli('claude', answered('', 0, { exitCode: undefined })).result.reason).toBe(
      '"claude --version" exited with code ? and printed no version (it said: nothing)',
    );
  });

  it('masks an sk-ant- token it quotes from what the CLI printed', () => {
    const gate = judgeCli('claude', answered('', 1, { stderr: 'bad key sk-ant-api03-abcDEF123' }));
    expect(gate.result.reason).toBe(
      '"claude --version" exited with code 1 and printed no version (it said: bad key ***)',
    );
  });
});

describe('withGitFinding', () => {
  it('turns an ok cli gate into a warning that keeps its reason, with the git fix', () => {
    expect(withGitFinding(gateResult('cli', 'ok', 'claude 2.1.328'), false)).toEqual({
      gate: 'cli',
      status: 'warn',
      reason:
        'claude 2.1.328; git is not on the PATH claude runs with, so the model\'s git status block says "(unavailable)" instead of "(clean)", unlike a session in a repository',
      fix: 'install git (apt-get install git, brew install git, …) or put it on PATH, then measure again',
    });
  });

  it('leaves any result that is not ok as it was, and an ok one when git is found', () => {
    for (const status of ['warn', 'fail', 'skip'] as const) {
      const r = gateResult('cli', status, 'something', 'do this');
      expect(withGitFinding(r, false)).toBe(r);
    }
    const ok = gateResult('cli', 'ok', 'claude 2.1.328');
    expect(withGitFinding(ok, true)).toBe(ok);
  });
});
