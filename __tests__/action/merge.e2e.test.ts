import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type GitHubApiFake, startGitHubApi } from '../fakes/github-api.js';
import { type ActionResult, pullRequestPayload, runAction } from './harness.js';

/**
 * `mode: merge` through the bundled Action with hand-built results files: no claude, no git, only
 * the files and the loopback GitHub fake. Files that do not cover shards 1..n of this head exactly
 * once, or that are not results files, end the step with exit 1 and no comment.
 */

const TOKEN = 'ghs_merge_token';
const BASE = 'b'.repeat(40);
const HEAD = 'a'.repeat(40);

let work: string;
let dir: string;
let github: GitHubApiFake;

/** What a leg writes when its only skill had a body-only change (no report needed). */
function resultsFile(index: number, count: number, opts: { sha?: string; stage?: string } = {}) {
  const sha = opts.sha ?? HEAD;
  return {
    schema: 'skilltrigger/action-results',
    schemaVersion: 1,
    tool: { name: 'skilltrigger', version: '0.0.0-test' },
    shard: { index, count },
    headSha: sha,
    run: {
      event: 'pull_request',
      eventName: 'pull_request',
      prNumber: 9,
      headSha: sha,
      baseSha: BASE,
      fromFork: false,
      stage: opts.stage ?? 'nothing',
      skills: [
        {
          kind: 'skipped',
          file: `.claude/skills/s${index}/SKILL.md`,
          change: 'modified',
          reason: 'body-only',
          skill: `skill-${index}`,
        },
      ],
      gates: [],
      notes: [],
      settings: { runs: 1, baseline: 'cache', failOnRegression: false },
    },
  };
}

async function put(name: string, value: unknown): Promise<void> {
  await writeFile(path.join(dir, name), typeof value === 'string' ? value : JSON.stringify(value));
}

async function merge(): Promise<ActionResult> {
  const env: Record<string, string> = { ...github.env(), RUNNER_OS: 'Linux', RUNNER_ARCH: 'X64' };
  if (process.env.PATH !== undefined) env.PATH = process.env.PATH;
  return runAction({
    cwd: work,
    eventName: 'pull_request',
    payload: pullRequestPayload({ number: 9, baseSha: BASE, headSha: HEAD, headRef: 'shards' }),
    inputs: { mode: 'merge', 'results-dir': 'downloaded', 'github-token': TOKEN },
    env,
  });
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'skilltrigger-merge-'));
  github = await startGitHubApi({
    tokens: { [TOKEN]: { login: 'github-actions[bot]', type: 'Bot', installation: true } },
  });
});

afterAll(async () => {
  await github?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

beforeEach(async () => {
  dir = path.join(work, 'downloaded');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
});

function expectNoComment(result: ActionResult): void {
  expect(github.comments(9)).toHaveLength(0);
  expect(result.outputs['comment-id'] ?? '').toBe('');
}

describe('mode: merge with hand-built results files', () => {
  it('a missing shard fails with exit 1 naming it, and posts nothing', async () => {
    await put('skilltrigger-results.shard-1-of-3.json', resultsFile(1, 3));
    await put('skilltrigger-results.shard-3-of-3.json', resultsFile(3, 3));
    const result = await merge();
    expect(result.code, result.stdout).toBe(1);
    expect(result.stdout).toContain('shard 2/3 is missing');
    expectNoComment(result);
  });

  it('a duplicate shard fails with exit 1 naming both files', async () => {
    await put('skilltrigger-results.shard-1-of-2.json', resultsFile(1, 2));
    await mkdir(path.join(dir, 'again'));
    await put('again/skilltrigger-results.shard-1-of-2.json', resultsFile(1, 2));
    await put('skilltrigger-results.shard-2-of-2.json', resultsFile(2, 2));
    const result = await merge();
    expect(result.code, result.stdout).toBe(1);
    expect(result.stdout).toContain('shard 1/2 appears 2 times: ');
    expect(result.stdout).toContain(path.join(dir, 'again', 'skilltrigger-results.shard-1-of-2.json'));
    expect(result.stdout).toContain(`${path.join(dir, 'skilltrigger-results.shard-1-of-2.json')}`);
    expectNoComment(result);
  });

  it('a foreign file under a results file name fails with exit 1 naming it', async () => {
    await put('skilltrigger-results.shard-1-of-1.json', { schema: 'someone-else/v9', data: [] });
    const result = await merge();
    expect(result.code, result.stdout).toBe(1);
    expect(result.failure).toContain(
      'skilltrigger-results.shard-1-of-1.json: not a skilltrigger shard results file',
    );
    expectNoComment(result);
  });

  it('a garbled file (not JSON, or a results file with a bad field) fails with exit 1 naming it', async () => {
    await put('skilltrigger-results.shard-1-of-1.json', '{"schema": "skilltrigger/action-res');
    const notJson = await merge();
    expect(notJson.code).toBe(1);
    expect(notJson.failure).toContain('skilltrigger-results.shard-1-of-1.json: not JSON');

    const bad = JSON.stringify(resultsFile(1, 1)).replace('"body-only"', '"felt-like-it"');
    await put('skilltrigger-results.shard-1-of-1.json', bad);
    const badField = await merge();
    expect(badField.code).toBe(1);
    expect(badField.failure).toContain('$.run.skills[0].reason');
    expectNoComment(badField);
  });

  it('shards of another head sha fail with exit 1', async () => {
    await put('skilltrigger-results.shard-1-of-2.json', resultsFile(1, 2));
    await put('skilltrigger-results.shard-2-of-2.json', resultsFile(2, 2, { sha: 'c'.repeat(40) }));
    const mixed = await merge();
    expect(mixed.code).toBe(1);
    expect(mixed.stdout).toContain('the shards measured different commits');

    await put('skilltrigger-results.shard-1-of-2.json', resultsFile(1, 2, { sha: 'c'.repeat(40) }));
    const stale = await merge();
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain(`but this run is for ${HEAD}`);
    expectNoComment(stale);
  });

  it('no results files at all fails with exit 1', async () => {
    await put('2026-01-01-alpha.json', { schema: 'skilltrigger/report' });
    const result = await merge();
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('no shard results files were found');
    expectNoComment(result);
  });

  it('complete shards merge into one comment and one summary with every shard’s skills', async () => {
    await put('skilltrigger-results.shard-1-of-2.json', resultsFile(1, 2));
    await put('skilltrigger-results.shard-2-of-2.json', resultsFile(2, 2));
    const result = await merge();
    expect(result.code, result.stdout).toBe(0);
    const posted = github.comments(9);
    expect(posted).toHaveLength(1);
    for (const name of ['skill-1', 'skill-2']) {
      expect(posted[0]?.body).toContain(name);
      expect(result.summary).toContain(name);
    }
    expect(result.outputs['comment-id']).toBe(String(posted[0]?.id));
  });
});
