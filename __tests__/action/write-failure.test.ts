import { describe, expect, it } from 'vitest';
import { githubFailureText } from '../../src/action/write-failure.js';

/** The words of a failed write to GitHub, for the PR comment and the drift issue alike (pure). */

const issue = { what: 'issue', act: 'write issues', needs: 'the drift job needs permissions: issues: write' };

describe('githubFailureText', () => {
  it('names what was refused and the permission that fixes it', () => {
    expect(
      githubFailureText(
        { kind: 'forbidden', status: 403, message: 'Resource not accessible by integration' },
        issue,
      ),
    ).toBe(
      'the token may not write issues (HTTP 403: Resource not accessible by integration); the drift job needs permissions: issues: write',
    );
    expect(githubFailureText({ kind: 'too-large', status: 422, message: 'Body is too long' }, issue)).toBe(
      'GitHub refused the issue as too long (HTTP 422: Body is too long)',
    );
    expect(githubFailureText({ kind: 'rejected', status: 410, message: 'Issues are disabled' }, issue)).toBe(
      'GitHub rejected the issue (HTTP 410: Issues are disabled)',
    );
  });

  it('counts the attempts of an unavailable API, with or without an answer', () => {
    expect(
      githubFailureText({ kind: 'unavailable', status: 502, message: 'Bad Gateway', attempts: 4 }, issue),
    ).toBe('the GitHub API was unavailable after 4 attempts (HTTP 502: Bad Gateway)');
    expect(githubFailureText({ kind: 'unavailable', message: 'ECONNRESET', attempts: 1 }, issue)).toBe(
      'the GitHub API was unavailable after 1 attempt (no answer: ECONNRESET)',
    );
  });
});
