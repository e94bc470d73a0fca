import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { node24, pushPayload, runAction } from './harness.js';

/**
 * dist/index.js starting up, under the Node the runner uses (24) and the one this project develops
 * on (20): the ways a run ends before any `claude` is needed.
 */

let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'skilltrigger-entry-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function env(): Record<string, string> {
  return { PATH: process.env.PATH ?? '', GITHUB_REPOSITORY: 'octo-org/skills', RUNNER_TEMP: work };
}

describe('dist/index.js', () => {
  it('starts under Node 24 and ends a push to another branch with a notice and exit 0', {
    timeout: 180_000,
  }, async () => {
    const result = await runAction({
      node: node24(),
      cwd: work,
      eventName: 'push',
      payload: pushPayload({ before: 'a'.repeat(40), after: 'b'.repeat(40), ref: 'refs/heads/feature' }),
      inputs: {},
      env: env(),
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^::notice::skilltrigger measures pull requests, and pushes to main/m);
    expect(result.summary).toContain('Nothing to do');
    expect(result.outputs).toMatchObject({ regressions: '0', 'comment-id': '', reports: '', verdicts: '{}' });
  });

  it('a bad input is exit 1, naming the input and what it accepts (Node 20)', async () => {
    const result = await runAction({
      cwd: work,
      eventName: 'push',
      payload: pushPayload({ before: 'a'.repeat(40), after: 'b'.repeat(40) }),
      inputs: { runs: 'many' },
      env: env(),
    });
    expect(result.code).toBe(1);
    expect(result.failure).toBe('input runs: expected a whole number from 1 to 100, got "many"');
  });

  it('outside a workflow it says so (Node 24)', { timeout: 180_000 }, async () => {
    const result = await runAction({
      node: node24(),
      cwd: work,
      eventName: '',
      payload: {},
      inputs: {},
      env: env(),
    });
    expect(result.code).toBe(1);
    expect(result.failure).toMatch(/^GITHUB_EVENT_NAME is not set/);
  });
});
