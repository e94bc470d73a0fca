import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ActionWorld,
  actionLog as log,
  startActionWorld,
  actionVerdicts as verdicts,
} from '../fakes/action-world.js';
import type { CacheServiceFake } from '../fakes/cache-service.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import type { GitHubApiFake } from '../fakes/github-api.js';
import { loadOwnStub } from '../fakes/query-stub.js';
import {
  type ActionResult,
  evalsJson,
  GitRepo,
  pullRequestPayload,
  pushPayload,
  runAction,
  skillFile,
} from './harness.js';

/**
 * The bundled Action where runners differ: a push saves the baseline on one runner, and the PR is
 * measured on another whose workspace and RUNNER_TEMP sit at other absolute paths (a self-hosted
 * fleet, a container job). The baseline must still restore; the outputs must count what the
 * comment shows; and a broken SKILL.md beside a good one must not stop the good one.
 */

const TOKEN = 'ghs_runner_paths_token';
const SKILL = '.claude/skills/paths/SKILL.md';
const BROKEN = '.claude/skills/broken/SKILL.md';
const P1 = 'Explain file system paths. Use when asked about relative or absolute paths.';
const P2 = 'Explain relative and absolute file system paths. Use when the user asks about paths.';

const evals = (extra: { query: string; should_trigger: boolean }[] = []) =>
  evalsJson([
    { query: 'paths-pos 1: what is a relative path', should_trigger: true },
    { query: 'paths-pos 2: resolve this path for me', should_trigger: true },
    { query: 'paths-neg 1: write a limerick', should_trigger: false },
    { query: 'paths-neg 2: sort this list', should_trigger: false },
    ...extra,
  ]);

let world: ActionWorld;
let work: string;
let github: GitHubApiFake;
let cache: CacheServiceFake;
/** The runner that saved the baseline, then the one that measures the PR. */
let pushRepo: GitRepo;
let prRepo: GitRepo;
const commits: Record<string, string> = {};

function env(workspace: string, runnerTemp: string, sha: string): Record<string, string> {
  return world.env({ GITHUB_SHA: sha, GITHUB_WORKSPACE: workspace, RUNNER_TEMP: runnerTemp });
}

const inputs = (extra: Record<string, string> = {}) => ({
  'anthropic-api-key': 'sk-test',
  'github-token': TOKEN,
  'claude-path': CLAUDE_BIN,
  runs: '1',
  timeout: '30',
  ...extra,
});

/** SKILLTRIGGER_ACTION_DUMP=<dir> keeps each run's log for reading. */
async function dump(name: string, result: ActionResult): Promise<void> {
  const dir = process.env.SKILLTRIGGER_ACTION_DUMP;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, `${name}.log`), log(result));
}

beforeAll(async () => {
  // A hosted-style layout for the push; another root, depth and temp folder for the PR.
  world = await startActionWorld({
    name: 'runners-e2e',
    seed: 11,
    tokens: { [TOKEN]: { login: 'github-actions[bot]', type: 'Bot', installation: true } },
    script: (req) => (req.query.startsWith('paths-pos') ? loadOwnStub(req) : { kind: 'text' }),
    repoDir: path.join('runner-a', '_work', 'skills', 'skills'),
  });
  ({ work, github, cache, repo: pushRepo } = world);
  commits.c0 = await pushRepo.commit('Initial', { 'README.md': '# skills\n' });
  commits.c1 = await pushRepo.commit('Add the paths skill', {
    [SKILL]: skillFile('paths', P1),
    '.claude/skills/paths/evals.json': evals(),
  });
  const prDir = path.join(work, 'runner-b', 'w', 'checkout');
  await mkdir(path.dirname(prDir), { recursive: true });
  execFileSync('git', ['clone', '-q', pushRepo.dir, prDir], {
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });
  prRepo = new GitRepo(prDir);
  prRepo.git('config', 'user.name', 'Test Author');
  prRepo.git('config', 'user.email', 'author@example.com');
  prRepo.git('config', 'commit.gpgsign', 'false');
});

afterAll(async () => {
  await world?.close();
});

describe('the bundled Action across runners', () => {
  it('a baseline saved on one runner restores on a runner with other absolute paths; outputs count what the comment shows', {
    timeout: 300_000,
  }, async () => {
    const tempA = path.join(work, 'runner-a', '_work', '_temp');
    await mkdir(tempA, { recursive: true });
    pushRepo.checkout(commits.c1 ?? '');
    const push = await runAction({
      cwd: pushRepo.dir,
      eventName: 'push',
      payload: pushPayload({ before: commits.c0 ?? '', after: commits.c1 ?? '' }),
      inputs: inputs(),
      env: env(pushRepo.dir, tempA, commits.c1 ?? ''),
    });
    await dump('runners-push', push);
    expect(push.code, log(push)).toBe(0);
    expect(cache.entries.map((e) => e.key)).toEqual([`skilltrigger-baseline-linux-paths-${commits.c1}`]);
    // What the Action cached stays out of git: a later step's `git add -A` commits none of it.
    expect(pushRepo.git('status', '--porcelain')).not.toContain('.skilltrigger-cache');

    prRepo.git('checkout', '-q', '-b', 'reword');
    commits.c2 = await prRepo.commit('Reword paths; one more positive', {
      [SKILL]: skillFile('paths', P2),
      '.claude/skills/paths/evals.json': evals([
        { query: 'paths-pos 3: is ./a the same as a', should_trigger: true },
      ]),
    });
    const tempB = path.join(work, 'runner-b', 'temp');
    await mkdir(tempB, { recursive: true });
    const pr = await runAction({
      cwd: prRepo.dir,
      eventName: 'pull_request',
      payload: pullRequestPayload({
        number: 21,
        baseSha: commits.c1 ?? '',
        headSha: commits.c2 ?? '',
        headRef: 'reword',
      }),
      inputs: inputs(),
      env: env(prRepo.dir, tempB, commits.c2 ?? ''),
    });
    await dump('runners-pr', pr);
    expect(pr.code, log(pr)).toBe(0);
    expect(pr.stdout).toContain(`baseline: restored skilltrigger-baseline-linux-paths-${commits.c1}`);
    const body = github.comments(21)[0]?.body ?? '';
    expect(body).toContain(`Baseline: the report cached for the base commit \`${commits.c1?.slice(0, 7)}\``);
    // The comment compares the 4 shared queries; the outputs count the same, and the one left out.
    expect(body).toMatch(
      /\| Positives triggered \(should load\) \| 2\/2 \(100%\) \| 2\/2 \(100%\) \| ±0 pp \(95% −\d+ pp to \+\d+ pp\) \| noise \|/,
    );
    expect(verdicts(pr).paths).toMatchObject({
      standing: 'noise',
      baseline: 'cache',
      positives: { triggered: 2, runs: 2 },
      negatives: { fired: 0, runs: 2 },
      queries: { compared: 4, leftOut: 1 },
    });
  });

  it('a broken SKILL.md beside a good one: the good one is measured, the broken one annotated, exit 1', {
    timeout: 300_000,
  }, async () => {
    prRepo.checkout(commits.c1 ?? '');
    commits.c3 = await prRepo.commit('Reword paths; add a broken skill', {
      [SKILL]: skillFile('paths', P2),
      [BROKEN]: '---\nname: broken\ndescription: [never closed\n---\n\nBody.\n',
      '.claude/skills/broken/evals.json': evals(),
    });
    const temp = path.join(work, 'runner-b', 'temp2');
    await mkdir(temp, { recursive: true });
    const result = await runAction({
      cwd: prRepo.dir,
      eventName: 'pull_request',
      payload: pullRequestPayload({
        number: 22,
        baseSha: commits.c1 ?? '',
        headSha: commits.c3 ?? '',
        headRef: 'broken',
      }),
      inputs: inputs(),
      env: env(prRepo.dir, temp, commits.c3 ?? ''),
    });
    await dump('runners-broken', result);
    expect(result.code, log(result)).toBe(1);
    expect(result.failure).toMatch(
      /^input error: 1 problem in the skills' inputs; the other skills were measured/,
    );
    const v = verdicts(result);
    expect(v.paths).toMatchObject({ standing: 'noise', verdict: 'ok', baseline: 'cache' });
    expect(v[BROKEN]).toMatchObject({ standing: 'invalid' });
    expect(result.annotations).toContainEqual(
      expect.objectContaining({ level: 'error', properties: expect.objectContaining({ file: BROKEN }) }),
    );
    expect(result.stdout).toMatch(/::group::Measure paths/);
    expect(result.stdout).not.toMatch(/::group::Measure broken/);
    const body = github.comments(22)[0]?.body ?? '';
    expect(body).toMatch(
      /\| Positives triggered \(should load\) \| 2\/2 \(100%\) \| 2\/2 \(100%\) \| ±0 pp \(95% −\d+ pp to \+\d+ pp\) \| noise \|/,
    );
    expect(body).toContain('.claude/skills/broken/SKILL.md');
  });
});
