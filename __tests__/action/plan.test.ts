import { describe, expect, it } from 'vitest';
import type { ActionEvent } from '../../src/action/context.js';
import { forkTargetRefusal, forkWithoutSecrets } from '../../src/action/plan.js';
import { forTheAction } from '../../src/action/preflight.js';
import { LOGIN_FIX } from '../../src/agents/claude/gates/auth.js';
import { gateResult } from '../../src/agents/gates.js';

const pr = (name: string, fromFork: boolean): ActionEvent => ({
  kind: 'pull_request',
  name,
  number: 7,
  baseSha: 'b'.repeat(40),
  headSha: 'h'.repeat(40),
  baseRef: 'main',
  fromFork,
});
const push: ActionEvent = {
  kind: 'push',
  ref: 'refs/heads/main',
  after: 'a'.repeat(40),
  onDefaultBranch: true,
};
const dispatch: ActionEvent = { kind: 'other', name: 'workflow_dispatch', onDefaultBranch: true };

const authFailed = gateResult('auth', 'fail', '`claude auth status` says not logged in', LOGIN_FIX);
const keyRefused = gateResult('round-trip', 'fail', 'the login was refused', LOGIN_FIX);
const codexAuthFailed = {
  ...gateResult('auth', 'fail', 'no CODEX_API_KEY or OPENAI_API_KEY', 'export CODEX_API_KEY=…'),
  agent: 'codex' as const,
};

/** The fix the gates print for a run of this event: what the workflow author is told to do. */
const fixes = (event: ActionEvent) =>
  [authFailed, keyRefused, codexAuthFailed].map((g) => forTheAction(g, forkWithoutSecrets(event)).fix ?? '');

describe('a fork under pull_request_target', () => {
  it('is refused without allow-pull-request-target, naming the pull request, the danger and every way out', () => {
    const message = forkTargetRefusal(pr('pull_request_target', true), false);
    expect(message).toMatch(
      /^refused to measure pull request #7: it comes from a fork, and this is a pull_request_target run/,
    );
    expect(message).toContain('Nothing was measured');
    expect(message).toContain('Use the pull_request event');
    expect(message).toContain('push the change to a branch of this repository');
    expect(message).toMatch(/set allow-pull-request-target: true$/);
  });

  it('is not refused with the input set, nor is any other event or a same-repository pull request', () => {
    expect(forkTargetRefusal(pr('pull_request_target', true), true)).toBeUndefined();
    expect(forkTargetRefusal(pr('pull_request_target', false), false)).toBeUndefined();
    expect(forkTargetRefusal(pr('pull_request', true), false)).toBeUndefined();
    expect(forkTargetRefusal(pr('pull_request', false), false)).toBeUndefined();
    expect(forkTargetRefusal(push, false)).toBeUndefined();
    expect(forkTargetRefusal(dispatch, false)).toBeUndefined();
  });
});

describe('the auth fix for each event', () => {
  it("a fork's pull_request run has no secrets: the fix says so and how a maintainer measures it", () => {
    expect(forkWithoutSecrets(pr('pull_request', true))).toBe(true);
    for (const fix of fixes(pr('pull_request', true))) {
      expect(fix).toContain('GitHub passes no secrets to its pull_request runs');
      expect(fix).toContain('a maintainer can measure it from a branch of this repository');
      expect(fix).not.toContain('secrets.');
    }
  });

  it('an allowed fork under pull_request_target has the secrets: the fix is to pass the key, not the fork story', () => {
    const event = pr('pull_request_target', true);
    expect(forkTargetRefusal(event, true)).toBeUndefined();
    expect(forkWithoutSecrets(event)).toBe(false);
    const [auth, refused, codex] = fixes(event);
    expect(auth).toMatch(
      /^pass a key from a secret: `anthropic-api-key: \$\{\{ secrets\.ANTHROPIC_API_KEY \}\}`/,
    );
    expect(refused).toMatch(/^the API key was refused: pass a key from a secret/);
    expect(codex).toMatch(/^pass a key from a secret: `openai-api-key: \$\{\{ secrets\.OPENAI_API_KEY \}\}`/);
    for (const fix of [auth, refused, codex]) expect(fix).not.toContain('GitHub passes no secrets');
  });

  it('a same-repository pull request (either event), a push and a dispatch: pass the key', () => {
    for (const event of [pr('pull_request', false), pr('pull_request_target', false), push, dispatch]) {
      expect(forkWithoutSecrets(event)).toBe(false);
      const [auth, refused, codex] = fixes(event);
      expect(auth).toContain('anthropic-api-key');
      expect(refused).toMatch(/^the API key was refused: pass a key from a secret/);
      expect(codex).toContain('openai-api-key');
    }
  });
});
