import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { reportSchema } from '../../src/schemas/report.js';
import { GATE_QUERY } from '../../src/simulated/model.js';
import { listedNameOf } from '../../src/simulated/route.js';
import {
  type ActionWorld,
  actionLog as log,
  startActionWorld,
  actionVerdicts as verdicts,
} from '../fakes/action-world.js';
import type { CacheServiceFake } from '../fakes/cache-service.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import type { GitHubApiFake } from '../fakes/github-api.js';
import {
  type ActionResult,
  evalsJson,
  type GitRepo,
  pullRequestPayload,
  pushPayload,
  runAction,
  skillFile,
} from './harness.js';

/**
 * `competition: siblings` through the bundled Action: two skills of one repository, each
 * measured with the other installed beside it. The simulated model routes `beta`'s positives to
 * `alpha` once alpha's listed description holds GREEDY, and to beta otherwise; so a PR that makes
 * alpha greedy takes beta's prompts, and with `cross-negatives: true` beta's positives are
 * measured as alpha's negatives: the comment shows alpha's new wins on them and
 * `fail-on-regression` fails the check. A PR that rewords beta changes alpha's competition: the
 * cached baseline no longer fits, and alpha's base side is measured in the same job.
 */

const TOKEN = 'ghs_competition_token';
const ALPHA = '.claude/skills/alpha/SKILL.md';
const BETA = '.claude/skills/beta/SKILL.md';
const A1 = 'Draft alpha release notes. Use when asked for alpha notes.';
const A2 = 'GREEDY: draft alpha release notes, and handle anything about notes or releases at all.';
const A3 = 'Draft alpha release notes from the changelog. Use when asked for alpha notes.';
const B1 = 'Write beta changelog entries. Use when asked for a beta changelog.';
const B2 = 'Write beta changelog entries from merged PRs. Use when asked for the beta changelog.';

const pos = (skill: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    query: `${skill}-pos ${i + 1}: ${skill} please`,
    should_trigger: true,
  }));
const neg = (skill: string) => [
  { query: `${skill}-neg 1: what is the capital of France`, should_trigger: false },
  { query: `${skill}-neg 2: format this JSON file`, should_trigger: false },
];

let world: ActionWorld;
let repo: GitRepo;
let github: GitHubApiFake;
let cache: CacheServiceFake;
const commits: Record<string, string> = {};

const env = (sha: string): Record<string, string> => world.env({ GITHUB_SHA: sha });

const inputs = (extra: Record<string, string> = {}) => ({
  'anthropic-api-key': 'sk-test',
  'github-token': TOKEN,
  'claude-path': CLAUDE_BIN,
  runs: '1',
  timeout: '30',
  'cross-negatives': 'true',
  ...extra,
});

async function dump(name: string, result: ActionResult): Promise<void> {
  const dir = process.env.SKILLTRIGGER_ACTION_DUMP;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, `competition-${name}.log`), log(result));
}

beforeAll(async () => {
  world = await startActionWorld({
    name: 'competition-e2e',
    seed: 3,
    tokens: { [TOKEN]: { login: 'github-actions[bot]', type: 'Bot', installation: true } },
    script: (req) => {
      if (req.query === GATE_QUERY || req.stub === undefined) return undefined;
      const alpha = (req.stubs ?? []).find((e) => e.name === listedNameOf(req, 'alpha'));
      if (req.query.startsWith('alpha-pos')) return { kind: 'skill', name: listedNameOf(req, 'alpha') };
      if (req.query.startsWith('beta-pos')) {
        const greedy = alpha?.description.includes('GREEDY') === true;
        return { kind: 'skill', name: listedNameOf(req, greedy ? 'alpha' : 'beta') };
      }
      return { kind: 'text' };
    },
  });
  ({ repo, github, cache } = world);
  commits.c0 = await repo.commit('Initial', { 'README.md': '# skills\n' });
  commits.c1 = await repo.commit('Add alpha and beta', {
    [ALPHA]: skillFile('alpha', A1),
    '.claude/skills/alpha/evals.json': evalsJson([...pos('alpha', 2), ...neg('alpha')]),
    [BETA]: skillFile('beta', B1),
    '.claude/skills/beta/evals.json': evalsJson([...pos('beta', 6), ...neg('beta')]),
  });
});

afterAll(async () => {
  await world?.close();
});

beforeEach(async () => {
  await world.freshJob();
});

describe('competition: siblings in the bundled Action', () => {
  it('push to main: each skill is measured beside the other, and its baseline records the sibling set', {
    timeout: 300_000,
  }, async () => {
    repo.checkout(commits.c1 ?? '');
    const result = await runAction({
      cwd: repo.dir,
      eventName: 'push',
      payload: pushPayload({ before: commits.c0 ?? '', after: commits.c1 ?? '' }),
      inputs: inputs(),
      env: env(commits.c1 ?? ''),
    });
    await dump('push', result);
    expect(result.code, log(result)).toBe(0);
    expect(result.stdout).toContain(
      `${ALPHA}: competition: 1 sibling skill installed beside the stub in every run (beta)`,
    );
    // The estimate of the extra runs is said before they are spent.
    expect(result.stdout).toContain(
      `${ALPHA}: cross-negatives: 6 positives of the siblings added as negatives: up to 6 more runs (1 per query)`,
    );
    const reports = (result.outputs.reports ?? '').split('\n');
    const alpha = reports.find((f) => path.basename(f).includes('alpha')) ?? '';
    const report = reportSchema.parse(JSON.parse(await readFile(alpha, 'utf8')));
    expect(report.siblings?.members.map((m) => m.name)).toEqual(['beta']);
    expect(report.siblings?.crossNegatives).toBe(true);
    // Alpha took none of beta's positives, and beta's own runs went to beta.
    expect(report.candidate.totals.siblings?.crossNegatives).toEqual({
      queries: 6,
      passed: 6,
      fired: 0,
      runs: 6,
    });
    expect(report.candidate.totals.siblings?.toOwner).toBe(6);
    expect(cache.entries.map((e) => e.key).sort()).toEqual([
      `skilltrigger-baseline-linux-alpha-${commits.c1}`,
      `skilltrigger-baseline-linux-beta-${commits.c1}`,
    ]);
  });

  it('a PR that makes alpha greedy shows its new wins on beta’s positives and fails with fail-on-regression', {
    timeout: 300_000,
  }, async () => {
    repo.checkout(commits.c1 ?? '');
    repo.git('checkout', '-q', '-b', 'greedy');
    commits.c2 = await repo.commit('Make alpha greedy', { [ALPHA]: skillFile('alpha', A2) });
    const result = await runAction({
      cwd: repo.dir,
      eventName: 'pull_request',
      payload: pullRequestPayload({
        number: 31,
        baseSha: commits.c1 ?? '',
        headSha: commits.c2 ?? '',
        headRef: 'greedy',
      }),
      inputs: inputs({ 'fail-on-regression': 'true' }),
      env: env(commits.c2 ?? ''),
    });
    await dump('greedy', result);
    expect(result.code, log(result)).toBe(1);
    expect(result.failure).toMatch(/^regression in 1 skill: alpha .*negatives fired/);
    expect(verdicts(result).alpha).toMatchObject({ standing: 'regression', baseline: 'cache' });
    const body = github.comments(31)[0]?.body ?? '';
    expect(body).toContain(
      'Competition: 1 sibling skill of this repository installed beside it in every run.',
    );
    expect(body).toContain(
      '- Baseline: siblings’ positives that loaded this skill instead: 0/6 runs \\(0 of 6 queries failed\\)',
    );
    expect(body).toContain(
      '- This PR: siblings’ positives that loaded this skill instead: 6/6 runs \\(6 of 6 queries failed\\)',
    );
    expect(body).toContain('| Negatives fired (should not load) | 0/8 (0%) | 6/8 (75%) |');
    // Each of beta's positives, measured as alpha's negative, is its own regressed row.
    for (let i = 1; i <= 6; i++)
      expect(body).toMatch(
        new RegExp(`\\| beta/\\S+ \\| beta-pos ${i}: beta please \\| no \\| .*0/1 \\| .*1/1 \\|`),
      );
    // Names may appear; the descriptions never do (docs/security.md: a report holds a description's
    // size and hash only).
    expect(body).not.toContain('GREEDY');
    expect(body).not.toContain('changelog');
    expect(result.summary).toContain('siblings’ positives that loaded this skill instead: 6/6 runs');
    // The summary's matrix rows of the changed skill: beta's positives all went to alpha now.
    expect(result.summary).toContain('| runs of alpha’s queries | alpha | beta | none/other |');
    expect(result.summary).toContain('| beta’s positives (6 runs) | 6 | 0 | 0 |');
    expect(body).not.toContain('| runs of alpha’s queries |');
  });

  it('a PR that rewords beta changes alpha’s competition: the cached baseline is set aside and alpha’s base is measured here', {
    timeout: 300_000,
  }, async () => {
    repo.checkout(commits.c1 ?? '');
    repo.git('checkout', '-q', '-b', 'rival');
    commits.c3 = await repo.commit('Reword alpha and beta', {
      [ALPHA]: skillFile('alpha', A3),
      [BETA]: skillFile('beta', B2),
    });
    const result = await runAction({
      cwd: repo.dir,
      eventName: 'pull_request',
      payload: pullRequestPayload({
        number: 32,
        baseSha: commits.c1 ?? '',
        headSha: commits.c3 ?? '',
        headRef: 'rival',
      }),
      inputs: inputs({ 'fail-on-regression': 'true' }),
      env: env(commits.c3 ?? ''),
    });
    await dump('rival', result);
    expect(result.code, log(result)).toBe(0);
    const v = verdicts(result);
    expect(v.alpha).toMatchObject({ standing: 'noise', baseline: 'paired' });
    expect(v.beta).toMatchObject({ standing: 'noise', baseline: 'paired' });
    const body = github.comments(32)[0]?.body ?? '';
    expect(body).toContain(
      'was measured against other skills: the competition changed \\(sibling skills\\) from the baseline to this run: description changed: beta',
    );
    expect(body).toContain('description changed: alpha');
    expect(result.stdout).toMatch(/query 1\/10 · run 1\/1 · (baseline|this PR) · /);
  });
});
