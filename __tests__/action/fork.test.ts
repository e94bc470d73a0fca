import { describe, expect, it } from 'vitest';
import type { ActionEvent } from '../../src/action/context.js';
import { FORK_NOT_MEASURED, hasCredential, skipsFork } from '../../src/action/fork.js';
import { readSettings } from '../../src/action/settings.js';

/**
 * Which runs the fork skip ends neutral: a fork's `pull_request` run that no credential reached,
 * with `on-fork: skip` (the default). Anything that can be measured still is.
 */

const pr = (name: string, fromFork: boolean): ActionEvent => ({
  kind: 'pull_request',
  name,
  number: 7,
  baseSha: 'b'.repeat(40),
  headSha: 'h'.repeat(40),
  baseRef: 'main',
  fromFork,
});
const settings = (inputs: Record<string, string> = {}) => readSettings((name) => inputs[name] ?? '');
const fork = pr('pull_request', true);

describe('skipsFork', () => {
  it('skips a fork’s pull_request run without a key input or a credential variable', () => {
    expect(skipsFork(fork, settings(), {})).toBe(true);
    expect(skipsFork(fork, settings(), { ANTHROPIC_API_KEY: '  ', PATH: '/bin' })).toBe(true);
  });

  it('measures a fork run that a credential reached: a key input, or any agent’s variable', () => {
    expect(skipsFork(fork, settings({ 'anthropic-api-key': 'sk-ant-x' }), {})).toBe(false);
    expect(skipsFork(fork, settings({ 'openai-api-key': 'sk-x' }), {})).toBe(false);
    for (const name of ['ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN', 'CODEX_API_KEY', 'OPENAI_API_KEY'])
      expect(skipsFork(fork, settings(), { [name]: 'secret-value' }), name).toBe(false);
    expect(hasCredential(settings(), { CLAUDE_CODE_OAUTH_TOKEN: 'tok-123456' })).toBe(true);
  });

  it('on-fork: fail runs it as any pull request', () => {
    expect(skipsFork(fork, settings({ 'on-fork': 'fail' }), {})).toBe(false);
  });

  it('never skips a same-repository pull request, a pull_request_target run, a push or a dispatch', () => {
    expect(skipsFork(pr('pull_request', false), settings(), {})).toBe(false);
    expect(skipsFork(pr('pull_request_target', true), settings(), {})).toBe(false);
    const push: ActionEvent = {
      kind: 'push',
      ref: 'refs/heads/main',
      after: 'a'.repeat(40),
      onDefaultBranch: true,
    };
    expect(skipsFork(push, settings(), {})).toBe(false);
    expect(skipsFork({ kind: 'other', name: 'schedule', onDefaultBranch: true }, settings(), {})).toBe(false);
  });

  it('says it in the words the docs quote', () => {
    expect(FORK_NOT_MEASURED).toBe(
      'not measured: this pull request comes from a fork, which gets no secrets',
    );
  });
});
