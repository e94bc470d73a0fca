import { cp, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATE_QUERY, type SimulatedModel } from '../../src/simulated/model.js';
import { type ActionWorld, actionLog as log, startActionWorld } from '../fakes/action-world.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import type { GitHubApiFake } from '../fakes/github-api.js';
import { loadOwnStub } from '../fakes/query-stub.js';
import {
  type ActionResult,
  evalsJson,
  type GitRepo,
  pullRequestPayload,
  runAction,
  skillFile,
} from './harness.js';

/**
 * Sharding through the bundled Action: a PR that rewords three skills' descriptions, measured by
 * three matrix legs (`shard: 1/3`, `2/3`, `3/3`; each measures one skill and posts no comment),
 * then a merge leg (`mode: merge`) that reads their results files as download-artifact leaves them
 * (`merge-multiple: true`: one folder) and posts the one comment. Real git, the real `claude`
 * binary against the simulated model, the loopback GitHub and cache fakes; `runs: 1`, 4 queries
 * per skill, baseline `cache` (a miss, so no base runs).
 */

const TOKEN = 'ghs_actions_token_for_shards';
const SKILLS = ['alpha', 'beta', 'gamma'] as const;
const file = (name: string) => `.claude/skills/${name}/SKILL.md`;

let world: ActionWorld;
let work: string;
let repo: GitRepo;
let model: SimulatedModel;
let github: GitHubApiFake;
/** Where the merge job's download-artifact step put every leg's artifact. */
let downloaded: string;
let base: string;
let head: string;

function env(): Record<string, string> {
  return world.env({ GITHUB_SHA: head, GITHUB_REF: 'refs/pull/7/merge' });
}

function verdictKeys(result: ActionResult): string[] {
  const parsed: unknown = JSON.parse(result.outputs.verdicts ?? '{}');
  if (typeof parsed !== 'object' || parsed === null) throw new Error('verdicts is not an object');
  return Object.keys(parsed).sort();
}

/** One matrix leg, on its own runner: a fresh RUNNER_TEMP and results folder; its artifact is kept. */
async function leg(inputs: Record<string, string>): Promise<ActionResult> {
  await world.freshJob();
  const out = path.join(repo.dir, 'skilltrigger-results');
  const result = await runAction({
    cwd: repo.dir,
    eventName: 'pull_request',
    payload: pullRequestPayload({ number: 7, baseSha: base, headSha: head, headRef: 'three' }),
    inputs: {
      'anthropic-api-key': 'sk-ant-shard-test',
      'github-token': TOKEN,
      'claude-path': CLAUDE_BIN,
      runs: '1',
      timeout: '30',
      ...inputs,
    },
    env: env(),
  });
  // upload-artifact + download-artifact with merge-multiple: every leg's files in one folder.
  await cp(out, downloaded, { recursive: true }).catch(() => undefined);
  return result;
}

beforeAll(async () => {
  world = await startActionWorld({
    name: 'shard-e2e',
    seed: 11,
    tokens: { [TOKEN]: { login: 'github-actions[bot]', type: 'Bot', installation: true } },
    script: (req) => {
      if (req.query === GATE_QUERY) return undefined;
      return /-pos \d/.test(req.query) ? loadOwnStub(req) : { kind: 'text' };
    },
  });
  ({ work, repo, model, github } = world);
  downloaded = path.join(work, 'downloaded');
  const files: Record<string, string> = { 'README.md': '# skills\n' };
  for (const name of SKILLS) {
    files[file(name)] = skillFile(name, `Do ${name} things. Use when asked about ${name}.`);
    files[`.claude/skills/${name}/evals.json`] = evalsJson([
      { query: `${name}-pos 1: please ${name} this`, should_trigger: true },
      { query: `${name}-pos 2: I need ${name}`, should_trigger: true },
      { query: `${name}-neg 1: what is the capital of France`, should_trigger: false },
      { query: `${name}-neg 2: format this JSON`, should_trigger: false },
    ]);
  }
  base = await repo.commit('Add skills', files);
  repo.git('checkout', '-q', '-b', 'three');
  head = await repo.commit(
    'Reword all three',
    Object.fromEntries(
      SKILLS.map((name) => [
        file(name),
        skillFile(name, `Handle ${name} requests; use whenever ${name} comes up.`),
      ]),
    ),
  );
});

afterAll(async () => {
  await world?.close();
});

describe('shard: i/n over a matrix, then mode: merge', () => {
  it('three legs each measure one skill, write a results file and post no comment; a merge posts one comment', {
    timeout: 600_000,
  }, async () => {
    for (const [i, name] of SKILLS.entries()) {
      const shard = `${i + 1}/3`;
      const result = await leg({ shard });
      expect(result.code, log(result)).toBe(0);
      // Sorted by path, skill k goes to shard (k mod 3)+1: alpha, beta, gamma.
      expect(verdictKeys(result)).toEqual([name]);
      expect(result.outputs['results-file']).toBe(
        path.join(repo.dir, 'skilltrigger-results', `skilltrigger-results.shard-${i + 1}-of-3.json`),
      );
      expect(result.summary).toContain(`Shard ${shard}: this leg holds 1 of the skills to measure`);
      expect(result.stdout).toMatch(new RegExp(`::group::Measure ${name}`));
      for (const other of SKILLS.filter((s) => s !== name))
        expect(result.stdout).not.toContain(`Measure ${other}`);
      expect(result.outputs['comment-id']).toBe('');
    }
    expect(github.comments(7)).toHaveLength(0);
    expect(github.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);

    const downloadedFiles = await readdir(downloaded);
    expect(downloadedFiles.filter((f) => f.startsWith('skilltrigger-results.shard-')).sort()).toEqual([
      'skilltrigger-results.shard-1-of-3.json',
      'skilltrigger-results.shard-2-of-3.json',
      'skilltrigger-results.shard-3-of-3.json',
    ]);

    // The merge job checks nothing out: its workspace holds only the downloaded artifacts.
    const merged = await runAction({
      cwd: work,
      eventName: 'pull_request',
      payload: pullRequestPayload({ number: 7, baseSha: base, headSha: head, headRef: 'three' }),
      inputs: { mode: 'merge', 'results-dir': 'downloaded', 'github-token': TOKEN },
      env: env(),
    });
    expect(merged.code, log(merged)).toBe(0);
    expect(verdictKeys(merged)).toEqual([...SKILLS]);
    const posted = github.comments(7);
    expect(posted).toHaveLength(1);
    const body = posted[0]?.body ?? '';
    for (const name of SKILLS) {
      expect(body).toContain(name);
      expect(merged.summary).toContain(name);
    }
    expect(body).toContain('Measured in 3 shards of a workflow matrix and merged here.');
    expect(body).not.toContain('this leg holds');
    expect(merged.outputs['comment-id']).toBe(String(posted[0]?.id));
    expect(merged.outputs.regressions).toBe('0');
    // The reports travel with the results files; their paths are resolved in the merge's folder.
    const reports = (merged.outputs.reports ?? '').split('\n');
    expect(reports).toHaveLength(3);
    for (const report of reports) {
      expect(report.startsWith(downloaded)).toBe(true);
      expect(JSON.parse(await readFile(report, 'utf8'))).toMatchObject({ schema: 'skilltrigger/report' });
    }
    // No claude in a merge: it only reads files and posts.
    expect(merged.stdout).not.toContain('::group::Gate');
  });

  it('a shard that no skill falls to says so and exits 0, without starting claude', {
    timeout: 60_000,
  }, async () => {
    const requests = model.requests.length;
    const result = await leg({ shard: '4/4' });
    expect(result.code, log(result)).toBe(0);
    expect(verdictKeys(result)).toEqual([]);
    expect(result.summary).toContain('Shard 4/4: no skill to measure falls to this shard');
    expect(result.outputs['results-file']).toMatch(/skilltrigger-results\.shard-4-of-4\.json$/);
    expect(model.requests.length).toBe(requests);
    expect(github.comments(7)).toHaveLength(1);
  });
});
