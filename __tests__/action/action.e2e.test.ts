import type { ChildProcess } from 'node:child_process';
import { mkdir, readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { reportSchema } from '../../src/schemas/report.js';
import { type Behaviour, GATE_QUERY, type SimulatedModel } from '../../src/simulated/model.js';
import {
  type ActionWorld,
  actionLog as logOnFailure,
  startActionWorld,
  actionVerdicts as verdicts,
} from '../fakes/action-world.js';
import { type CacheServiceFake, startCacheService } from '../fakes/cache-service.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import type { GitHubApiFake } from '../fakes/github-api.js';
import { parseJunit } from '../fakes/junit-shape.js';
import { expectOneAtATime } from '../fakes/one-at-a-time.js';
import { liveProcessesIn, liveProjectsUnder, projectUnder } from '../fakes/process-group.js';
import { loadOwnStub, stubOfQuery } from '../fakes/query-stub.js';
import { ACTION_FAULT_CASES } from '../faults/cases.js';
import {
  type ActionResult,
  evalsJson,
  type GitRepo,
  node24,
  pullRequestPayload,
  pushPayload,
  runAction,
  skillFile,
} from './harness.js';

/**
 * The bundled Action (dist/index.js) run as the runner runs it, one scenario after another on one
 * repository, like a project's history: a push to main saves baselines, PRs restore them and
 * comment, and the failure modes end the step with their codes. Real git, the real `claude` binary
 * against the simulated model, and the loopback fakes of the GitHub REST API and the cache service.
 *
 * The eval sets are as small as the statistics allow: `handoff` has 6 positives (a regression must
 * clear the 2-hit noise band and an exact test at 1 run per query) and 2 negatives; `review` has 2
 * and 2. Every scenario runs `runs: 1`.
 */

const CANARY_KEY = 'sk-ant-action-canary-5e1f0c9b7a';
const ACTIONS_TOKEN = 'ghs_actions_token_for_tests';
const FORK_TOKEN = 'ghs_fork_readonly_token';

const HANDOFF = '.claude/skills/handoff/SKILL.md';
const REVIEW = '.claude/skills/review/SKILL.md';

const D1 =
  'Write HANDOFF.md summarising the session so a fresh session can resume. Use when ending a session.';
const D3 = 'REGRESS: a terse note about sessions.';
const R1 = 'Review a pull request diff for bugs and style. Use when asked to review changes.';
const R2 = 'Review a diff for bugs, then style. Use when the user asks for a review of their changes.';

const handoffEvals = evalsJson([
  ...Array.from({ length: 6 }, (_, i) => ({
    query: `handoff-pos ${i + 1}: write the handoff notes`,
    should_trigger: true,
  })),
  { query: 'handoff-neg 1: what is the capital of France', should_trigger: false },
  { query: 'handoff-neg 2: format this JSON file', should_trigger: false },
]);
const reviewEvals = evalsJson([
  { query: 'review-pos 1: review my diff', should_trigger: true },
  { query: 'review-pos 2: look over this PR for bugs', should_trigger: true },
  { query: 'review-neg 1: write a haiku', should_trigger: false },
  { query: 'review-neg 2: rename this variable', should_trigger: false },
]);

const TINY = '.claude/skills/tiny/SKILL.md';
const TINY_TEXT = 'Do the tiny thing. Use when asked for the tiny thing.';
const tinyEvals = evalsJson([
  { query: 'tiny-pos 1: do the tiny thing', should_trigger: true },
  { query: 'tiny-neg 1: what time is it', should_trigger: false },
]);

let world: ActionWorld;
let work: string;
let repo: GitRepo;
let model: SimulatedModel;
let github: GitHubApiFake;
let cache: CacheServiceFake;
/** What the simulated model does for the round-trip gate query (default: pong). */
let gateBehaviour: Behaviour | undefined;
/** Every eval query fails with this API error while set. */
let apiDown: Behaviour | undefined;
/** The step's TMPDIR (resolved), where every temp project is made. */
let tmp = '';
/**
 * The temp projects other than the gate's own with a live process while the round trip's request
 * was at the model: the first run's claude, started before the gates (src/action/first-standby.ts).
 */
let waitingAtGate: string[] = [];
/** Set: the round trip's request is held and the step is sent SIGTERM (a job cancelled in the gates). */
let cancelAtGate: ChildProcess | undefined;

const commits: Record<string, string> = {};
const results: Record<string, ActionResult> = {};

function inputs(extra: Record<string, string> = {}): Record<string, string> {
  return {
    'anthropic-api-key': CANARY_KEY,
    'github-token': ACTIONS_TOKEN,
    'claude-path': CLAUDE_BIN,
    runs: '1',
    timeout: '30',
    ...extra,
  };
}

/** SKILLTRIGGER_ACTION_DUMP=<dir> keeps each run's log, summary and comments for reading. */
async function dump(name: string, result: ActionResult): Promise<void> {
  const dir = process.env.SKILLTRIGGER_ACTION_DUMP;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, `${name}.log`), logOnFailure(result));
  await writeFile(path.join(dir, `${name}.comments.json`), JSON.stringify(github.comments(), null, 2));
}

function comments(issue: number) {
  return github.comments(issue);
}

/**
 * The body the Action sent in its last attempt to create a comment on that PR, posted or refused
 * (a scenario whose comment GitHub refuses is still asserted on what the Action wrote).
 */
function attemptedComment(issue: number): string {
  const sent = github.requests.filter(
    (r) => r.route === 'create-comment' && r.path.endsWith(`/issues/${issue}/comments`),
  );
  const body = sent.at(-1)?.body;
  return typeof body === 'object' && body !== null && 'body' in body ? String(body.body) : '';
}

/** The statuses GitHub answered the Action's create-comment requests with, in order. */
function createStatuses(): number[] {
  return github.requests.filter((r) => r.route === 'create-comment').map((r) => r.status);
}

/** A test title from its case in ACTION_FAULT_CASES (docs/faults.md): the id, the fault, the outcome. */
function actionFault(id: string): string {
  const c = ACTION_FAULT_CASES.find((x) => x.id === id);
  if (!c) throw new Error(`no action fault case ${id}`);
  return `${id}: ${c.fault} → ${c.outcome}`;
}

/** Warnings and notices about the PR comment. */
function commentWarnings(result: ActionResult): string[] {
  return result.annotations
    .filter((a) => a.level === 'warning' && a.message.includes('PR comment'))
    .map((a) => a.message);
}

beforeAll(async () => {
  world = await startActionWorld({
    name: 'action-e2e',
    seed: 5,
    tokens: {
      [ACTIONS_TOKEN]: { login: 'github-actions[bot]', type: 'Bot', installation: true },
      [FORK_TOKEN]: { login: 'github-actions[bot]', type: 'Bot', installation: true, readOnly: true },
    },
    script: (req) => {
      if (req.query === GATE_QUERY) {
        waitingAtGate = liveProjectsUnder(tmp).filter((p) => p !== projectUnder(tmp, req.cwd));
        if (cancelAtGate) {
          cancelAtGate.kill('SIGTERM');
          return { kind: 'hang' };
        }
        return gateBehaviour;
      }
      if (apiDown) return apiDown;
      const regressed = stubOfQuery(req)?.description.includes('REGRESS') === true;
      if (req.query.startsWith('handoff-pos')) return regressed ? { kind: 'text' } : loadOwnStub(req);
      if (req.query.startsWith('review-pos')) return loadOwnStub(req);
      if (req.query.startsWith('tiny-pos') || req.query.startsWith('cancel-pos')) return loadOwnStub(req);
      return { kind: 'text' };
    },
  });
  ({ work, repo, model, github, cache } = world);
  tmp = await realpath(path.join(work, 'tmp'));
  commits.c0 = await repo.commit('Initial', { 'README.md': '# skills\n' });
  commits.c1 = await repo.commit('Add skills', {
    [HANDOFF]: skillFile('handoff', D1),
    '.claude/skills/handoff/evals/evals.json': handoffEvals,
    [REVIEW]: skillFile('review', R1),
    '.claude/skills/review/evals.json': reviewEvals,
  });
});

afterAll(async () => {
  await world?.close();
});

beforeEach(async () => {
  gateBehaviour = undefined;
  apiDown = undefined;
  waitingAtGate = [];
  cancelAtGate = undefined;
  await world.freshJob();
});

/**
 * No trace of the API key anywhere but the runner's own masking command: the step's output, the
 * summary, the outputs, every request body the GitHub API received (the comments), and the report
 * files (JSON and Markdown) the run wrote.
 */
async function expectKeyMasked(result: ActionResult): Promise<void> {
  expect(result.stdout).toContain(`::add-mask::${CANARY_KEY}`);
  expect(result.stdout.split(CANARY_KEY).length - 1).toBe(1);
  expect(result.stderr).not.toContain(CANARY_KEY);
  expect(result.summary).not.toContain(CANARY_KEY);
  expect(JSON.stringify(result.outputs)).not.toContain(CANARY_KEY);
  expect(JSON.stringify(github.requests.map((r) => r.body ?? null))).not.toContain(CANARY_KEY);
  expect(JSON.stringify(github.comments())).not.toContain(CANARY_KEY);
  const dir = path.join(repo.dir, 'skilltrigger-results');
  const files = await readdir(dir);
  expect(files.some((f) => f.endsWith('.json'))).toBe(true);
  expect(files.some((f) => f.endsWith('.md'))).toBe(true);
  for (const file of files) {
    expect(await readFile(path.join(dir, file), 'utf8'), file).not.toContain(CANARY_KEY);
  }
}

/**
 * The step left nothing in its TMPDIR: no live process there (the first run's claude started
 * before the gates included), and no temp project that was not there before it.
 */
async function expectNothingLeftIn(tmpBefore: string[]): Promise<void> {
  expect(liveProcessesIn(tmp)).toEqual([]);
  expect((await readdir(tmp)).sort()).toEqual(tmpBefore);
}

describe('the bundled Action, as the runner runs it', () => {
  it('push to main: measures the added skills and saves each report as its baseline', {
    timeout: 300_000,
  }, async () => {
    repo.checkout(commits.c1 ?? '');
    const requestsBefore = model.requests.length;
    const tmpBefore = (await readdir(tmp)).sort();
    const result = await runAction({
      cwd: repo.dir,
      eventName: 'push',
      payload: pushPayload({ before: commits.c0 ?? '', after: commits.c1 ?? '' }),
      inputs: inputs(),
      env: world.env({ GITHUB_SHA: commits.c1 ?? '' }),
    });
    await dump('push', result);
    results.push = result;
    expect(result.code, logOnFailure(result)).toBe(0);
    expect(cache.entries.map((e) => e.key).sort()).toEqual([
      `skilltrigger-baseline-linux-handoff-${commits.c1}`,
      `skilltrigger-baseline-linux-review-${commits.c1}`,
    ]);
    const v = verdicts(result);
    expect(v.handoff).toMatchObject({
      standing: 'measured',
      verdict: 'ok',
      positives: { triggered: 6, runs: 6 },
    });
    expect(v.review).toMatchObject({ standing: 'measured', verdict: 'ok', negatives: { fired: 0, runs: 2 } });
    expect(result.outputs.regressions).toBe('0');
    expect(result.outputs['comment-id']).toBe('');
    const reports = (result.outputs.reports ?? '').split('\n');
    expect(reports).toHaveLength(2);
    for (const file of reports) {
      const report = reportSchema.parse(JSON.parse(await readFile(file, 'utf8')));
      // The roster gate's stub-less run, recorded in every report as on the CLI.
      expect(report.roster).not.toBeNull();
      expect(report.cli.version).toBe('2.1.328');
    }
    // The junit output: one JUnit file beside each report, one testcase per query.
    const junits = (result.outputs.junit ?? '').split('\n');
    expect(junits).toEqual(reports.map((file) => file.replace(/\.json$/, '.junit.xml')));
    for (const [i, file] of junits.entries()) {
      const report = reportSchema.parse(JSON.parse(await readFile(reports[i] ?? '', 'utf8')));
      const doc = parseJunit(await readFile(file, 'utf8'));
      expect(doc.suites.flatMap((suite) => suite.cases)).toHaveLength(report.candidate.queries.length);
    }
    expect(result.summary).toContain('Saved as the baseline for commit');
    expect(result.stdout).toMatch(/::group::Measure handoff/);
    // The CLI's gates, each its own log group, in order.
    const groups = [...result.stdout.matchAll(/^::group::Gate: (\S+)$/gm)].map((m) => m[1]);
    expect(groups).toEqual(['cli', 'auth', 'round-trip', 'conflict', 'sleep', 'roster']);
    expect(result.stdout).toMatch(/ok · nothing besides the stub answers to "handoff, review"/);
    expect(result.stdout).toMatch(/query 6\/8 · run 1\/1 · triggered/);
    expect(github.requests).toHaveLength(0);
    await expectKeyMasked(result);
    // The job's first run (handoff's, its sibling review installed) was started before the gates:
    // while the round trip was at the model a claude already waited in a temp project of its own,
    // and the first measured request came from that project, after the gate's exchange had ended.
    expect(waitingAtGate).toHaveLength(1);
    const ordered = model.requests
      .slice(requestsBefore)
      .filter((r) => r.view !== undefined)
      .sort((a, b) => a.at - b.at);
    expect(ordered[0]?.view?.query).toBe(GATE_QUERY);
    expect(ordered[1]?.view?.query).toMatch(/^handoff-/);
    expect(projectUnder(tmp, ordered[1]?.view?.cwd)).toBe(waitingAtGate[0]);
    // Serial towards the model through the whole job: no two exchanges overlap.
    expectOneAtATime(ordered);
    await expectNothingLeftIn(tmpBefore);
  });

  it('pull request: restores the base commit’s baseline, compares, and posts one sticky comment', {
    timeout: 300_000,
  }, async () => {
    repo.checkout(commits.c1 ?? '');
    repo.git('checkout', '-q', '-b', 'pr7');
    commits.c2 = await repo.commit('Reword review; tidy the handoff body', {
      [REVIEW]: skillFile('review', R2),
      [HANDOFF]: skillFile('handoff', D1, 'Keep it under a page.'),
    });
    // The first create answers 502 (action-comment-5xx-retry, asserted below on this same run).
    github.failNext('create-comment', { status: 502, times: 1 });
    const result = await runAction({
      cwd: repo.dir,
      eventName: 'pull_request',
      payload: pullRequestPayload({
        number: 7,
        baseSha: commits.c1 ?? '',
        headSha: commits.c2 ?? '',
        headRef: 'pr7',
      }),
      inputs: inputs(),
      env: world.env(),
    });
    await dump('pr', result);
    results.pr = result;
    expect(result.code, logOnFailure(result)).toBe(0);
    const v = verdicts(result);
    expect(v.review).toMatchObject({ standing: 'noise', label: 'noise', baseline: 'cache' });
    expect(v.handoff).toMatchObject({ standing: 'not-measured', reason: 'body-only' });
    const posted = comments(7);
    expect(posted).toHaveLength(1);
    const body = posted[0]?.body ?? '';
    expect(body.startsWith('<!-- skilltrigger:results -->')).toBe(true);
    expect(body).toContain(`Baseline: the report cached for the base commit \`${commits.c1?.slice(0, 7)}\``);
    expect(body).toMatch(
      /\| Positives triggered \(should load\) \| 2\/2 \(100%\) \| 2\/2 \(100%\) \| ±0 pp \(95% −\d+ pp to \+\d+ pp\) \| noise \|/,
    );
    expect(body).toContain('only the body changed');
    expect(result.outputs['comment-id']).toBe(String(posted[0]?.id));
    expect(result.summary).toContain('```mermaid');
    await expectKeyMasked(result);
  });

  it(actionFault('action-comment-5xx-retry'), () => {
    const result = results.pr;
    if (!result) throw new Error('the pull request scenario did not run');
    expect(result.code, logOnFailure(result)).toBe(0);
    // The result in the summary and the outputs as well.
    expect(result.summary).toContain('| Positives triggered (should load) | 2/2 (100%) | 2/2 (100%) |');
    expect(result.outputs.reports).toMatch(/review\.json$/m);
    expect(createStatuses()).toEqual([502, 201]);
    // Re-read before the retry: the 502 may have created the comment after all.
    const routes = github.requests.map((r) => r.route);
    expect(routes.indexOf('list-comments', routes.indexOf('create-comment'))).toBeGreaterThan(-1);
    expect(comments(7)).toHaveLength(1);
    expect(result.outputs['comment-id']).toBe(String(comments(7)[0]?.id));
    expect(commentWarnings(result)).toEqual([]);
  });

  it('a second push to the PR updates the same comment in place', { timeout: 300_000 }, async () => {
    // Back to the base's review (no longer in the diff); the handoff description changes for the worse.
    commits.c3 = await repo.commit('Shorten handoff', {
      [HANDOFF]: skillFile('handoff', D3),
      [REVIEW]: skillFile('review', R1),
    });
    const before = comments(7);
    const requestsBefore = github.requests.length;
    const result = await runAction({
      cwd: repo.dir,
      eventName: 'pull_request',
      payload: pullRequestPayload({
        number: 7,
        action: 'synchronize',
        baseSha: commits.c1 ?? '',
        headSha: commits.c3 ?? '',
        headRef: 'pr7',
      }),
      inputs: inputs({ 'fail-on-regression': 'true' }),
      env: world.env(),
    });
    await dump('pr-update', result);
    results.regression = result;
    const after = comments(7);
    expect(after, logOnFailure(result)).toHaveLength(1);
    expect(after[0]?.id).toBe(before[0]?.id);
    expect(after[0]?.body).not.toBe(before[0]?.body);
    expect(after[0]?.body).toContain(`<!-- skilltrigger-sha:${commits.c3} `);
    expect(after[0]?.body).not.toContain('review');
    expect(result.outputs['comment-id']).toBe(String(before[0]?.id));
    const writes = github.requests.slice(requestsBefore).filter((r) => r.method !== 'GET');
    expect(writes.map((r) => r.route)).toEqual(['update-comment']);
  });

  it('a regression with fail-on-regression fails the step, annotated on the description line', () => {
    const result = results.regression;
    if (!result) throw new Error('the previous scenario did not run');
    expect(result.code, logOnFailure(result)).toBe(1);
    expect(result.failure).toMatch(
      /^regression in 1 skill: handoff \(\.claude\/skills\/handoff\/SKILL\.md:3\): positives triggered 6\/6 → 0\/6/,
    );
    const annotation = result.annotations.find((a) => a.properties.file === HANDOFF);
    expect(annotation).toMatchObject({ level: 'error', properties: { line: '3' } });
    expect(result.outputs.regressions).toBe('1');
    expect(verdicts(result).handoff).toMatchObject({ standing: 'regression', label: 'regression' });
    expect(comments(7)[0]?.body).toContain('**regression**');
  });

  it('no baseline (the cache has none): the base is measured in this job, so a regression still fails — under Node 24', {
    timeout: 300_000,
  }, async () => {
    const empty = await startCacheService();
    try {
      repo.checkout(commits.c1 ?? '');
      commits.c4 = await repo.commit('Shorten handoff (no baseline reachable)', {
        [HANDOFF]: skillFile('handoff', D3),
      });
      const requestsBefore = model.requests.length;
      const result = await runAction({
        node: node24(),
        cwd: repo.dir,
        eventName: 'pull_request',
        payload: pullRequestPayload({
          number: 8,
          baseSha: commits.c1 ?? '',
          headSha: commits.c4 ?? '',
          headRef: 'pr8',
        }),
        inputs: inputs({ 'fail-on-regression': 'true' }),
        env: world.env(empty.env()),
      });
      await dump('no-baseline', result);
      expect(result.code, logOnFailure(result)).toBe(1);
      expect(result.failure).toMatch(/^regression in 1 skill: handoff/);
      expect(verdicts(result).handoff).toMatchObject({
        standing: 'regression',
        baseline: 'paired',
        label: 'regression',
      });
      const body = comments(8)[0]?.body ?? '';
      expect(body).toContain(
        'measured in this job interleaved with this PR’s (paired), because no baseline is cached for handoff',
      );
      expect(body).toContain('| Positives triggered (should load) | 6/6 (100%) | 0/6 (0%) |');
      expect(result.stdout).toMatch(/query 1\/8 · run 1\/1 · (baseline|this PR) · /);
      // Nothing cached, so the skill is paired and its base side runs first: the claude started
      // beside the gates was started for that side (the baseline fetched before them foresaw it),
      // and the first measured request came from its project.
      expect(waitingAtGate).toHaveLength(1);
      const ordered = model.requests
        .slice(requestsBefore)
        .filter((r) => r.view !== undefined)
        .sort((a, b) => a.at - b.at);
      expect(ordered[0]?.view?.query).toBe(GATE_QUERY);
      expect(ordered[1]?.view?.query).toMatch(/^handoff-/);
      expect(projectUnder(tmp, ordered[1]?.view?.cwd)).toBe(waitingAtGate[0]);
      expectOneAtATime(ordered);
    } finally {
      await empty.close();
    }
  });

  it('baseline: cache-only keeps measuring the PR alone when the cache has none, and says so', {
    timeout: 300_000,
  }, async () => {
    const empty = await startCacheService();
    try {
      repo.checkout(commits.c4 ?? '');
      github.clearRequests();
      // A read-only token: GitHub refuses the comment (action-comment-403, asserted below on this
      // same run), so the comment is read from the request the Action sent.
      const result = await runAction({
        cwd: repo.dir,
        eventName: 'pull_request',
        payload: pullRequestPayload({
          number: 10,
          baseSha: commits.c1 ?? '',
          headSha: commits.c4 ?? '',
          headRef: 'pr8',
        }),
        inputs: inputs({ 'fail-on-regression': 'true', baseline: 'cache-only', 'github-token': FORK_TOKEN }),
        env: world.env(empty.env()),
      });
      await dump('cache-only', result);
      results.cacheOnly = result;
      expect(result.code, logOnFailure(result)).toBe(0);
      expect(verdicts(result).handoff).toMatchObject({
        standing: 'no-baseline',
        baseline: 'none',
        label: null,
      });
      const body = attemptedComment(10);
      expect(body).toContain('**No baseline:** no baseline is cached for handoff');
      expect(body).toContain('| Positives triggered (should load) | 0/6 (0%) |');
      expect(result.summary).toContain('**No baseline:**');
      expect(result.stdout).not.toMatch(/· baseline · /);
      // Here, while the run's report files are still in the workspace (the next test is a new job).
      await expectKeyMasked(result);
    } finally {
      await empty.close();
    }
  });

  it(actionFault('action-comment-403'), () => {
    const result = results.cacheOnly;
    if (!result) throw new Error('the cache-only scenario did not run');
    // The result in the summary and the outputs, and the step exits as measured.
    expect(result.code, logOnFailure(result)).toBe(0);
    expect(result.summary).toContain('| Positives triggered (should load) | 0/6 (0%) |');
    expect(result.outputs.reports).toMatch(/handoff\.json$/m);
    // The key stays masked (checked in the scenario, while its report files exist).
    expect(createStatuses()).toEqual([403]);
    expect(comments(10)).toHaveLength(0);
    expect(result.outputs['comment-id']).toBe('');
    expect(commentWarnings(result)).toEqual([
      expect.stringMatching(
        /^the PR comment could not be posted: the token may not comment \(HTTP 403: Resource not accessible by integration.*pull-requests: write.*The results are in the job summary\.$/,
      ),
    ]);
    expect(result.summary).toContain('The PR comment could not be posted \\(the token may not comment');
  });

  it('environment drift: with baseline: measure, the base description is re-measured in the same job (paired)', {
    timeout: 300_000,
  }, async () => {
    repo.checkout(commits.c1 ?? '');
    commits.c5 = await repo.commit('Reword review again; add a tiny skill', {
      [REVIEW]: skillFile(
        'review',
        'Review changes in a pull request. Use when the user asks for a code review.',
      ),
      // A new skill: nothing at the base to compare with.
      [TINY]: skillFile('tiny', TINY_TEXT),
      '.claude/skills/tiny/evals/evals.json': tinyEvals,
    });
    // GitHub refuses the comment as too long (action-comment-422, asserted below on this same run).
    github.clearRequests();
    github.failNext('create-comment', {
      status: 422,
      message: 'Validation Failed: Body is too long (maximum is 65536 characters)',
    });
    const result = await runAction({
      cwd: repo.dir,
      eventName: 'pull_request',
      payload: pullRequestPayload({
        number: 9,
        baseSha: commits.c1 ?? '',
        headSha: commits.c5 ?? '',
        headRef: 'pr9',
      }),
      inputs: inputs({ model: 'claude-drift-test', baseline: 'measure' }),
      env: world.env(),
    });
    await dump('drift', result);
    results.drift = result;
    expect(result.code, logOnFailure(result)).toBe(0);
    expect(verdicts(result).review).toMatchObject({ standing: 'noise', baseline: 'paired' });
    const body = attemptedComment(9);
    expect(body).toContain(
      'measured in this job interleaved with this PR’s (paired), because the cached baseline',
    );
    expect(body).toContain(
      'the model differs: the baseline asked for the CLI default, this run for claude-drift-test',
    );
    expect(result.stdout).toMatch(/query 1\/4 · run 1\/1 · (baseline|this PR) · triggered/);
    const report = (result.outputs.reports ?? '').split('\n').find((f) => f.endsWith('review.json'));
    const parsed = reportSchema.parse(JSON.parse(await readFile(report ?? '', 'utf8')));
    expect(parsed.baseline?.totals.positives).toEqual({ triggered: 2, runs: 2 });
    await expectKeyMasked(result);
  });

  it(actionFault('action-comment-422'), () => {
    const result = results.drift;
    if (!result) throw new Error('the drift scenario did not run');
    expect(result.code, logOnFailure(result)).toBe(0);
    expect(result.summary).toContain('| Positives triggered (should load) | 2/2 (100%) | 2/2 (100%) |');
    expect(result.outputs.reports).toMatch(/review\.json$/m);
    // The new skill's result too, kept though the comment was refused.
    expect(verdicts(result).tiny).toMatchObject({ standing: 'no-baseline', verdict: 'ok' });
    expect(result.summary).toContain('| Positives triggered (should load) | 1/1 (100%) |');
    expect(result.outputs.reports).toMatch(/tiny\.json$/m);
    // The key stays masked (checked in the scenario, while its report files exist).
    expect(createStatuses()).toEqual([422]);
    expect(comments(9)).toHaveLength(0);
    expect(result.outputs['comment-id']).toBe('');
    expect(commentWarnings(result)).toEqual([
      expect.stringMatching(
        /^the PR comment could not be posted: GitHub refused the comment as too long \(HTTP 422: .*too long/,
      ),
    ]);
  });

  it('models: each model measured, one column per model in the comment, the cost in its footer', {
    timeout: 300_000,
  }, async () => {
    repo.checkout(commits.c1 ?? '');
    commits.models = await repo.commit('Reword review for two models', {
      [REVIEW]: skillFile('review', 'Review a pull request or a diff when the user asks for a code review.'),
    });
    const result = await runAction({
      cwd: repo.dir,
      eventName: 'pull_request',
      payload: pullRequestPayload({
        number: 77,
        baseSha: commits.c1 ?? '',
        headSha: commits.models ?? '',
        headRef: 'pr77',
      }),
      inputs: inputs({ models: 'claude-haiku-4-5, claude-sonnet-4-5', baseline: 'none' }),
      env: world.env(),
    });
    await dump('models', result);
    expect(result.code, logOnFailure(result)).toBe(0);
    const [report] = (result.outputs.reports ?? '').split('\n');
    const parsed = reportSchema.parse(JSON.parse(await readFile(report ?? '', 'utf8')));
    expect(parsed.settings.models).toEqual(['claude-haiku-4-5', 'claude-sonnet-4-5']);
    // The script loads the skill on every review-pos query, on either model.
    for (const m of ['claude-haiku-4-5', 'claude-sonnet-4-5'])
      expect(parsed.candidate.byModel?.[m]?.totals.positives).toEqual({ triggered: 2, runs: 2 });
    expect(result.stdout).toMatch(/query 1\/4 · run 1\/1 · claude-haiku-4-5 · triggered/);
    const body = comments(77)[0]?.body ?? '';
    // Each model's column holds its own hits/runs and pass; no pass pooled over the models.
    expect(body).toContain('| Id | Query | Should load | claude-haiku-4-5 | claude-sonnet-4-5 |\n');
    expect(body).toMatch(/\| yes \| 1\/1 · pass \| 1\/1 · pass \|\n/);
    expect(body).toMatch(
      /· claude-haiku-4-5, claude-sonnet-4-5 · 1 run per query · cost \$\d+\.\d{4} \(claude-haiku-4-5 \$[\d.]+, claude-sonnet-4-5 \$[\d.]+\)\./,
    );
  });

  it('a failed gate exits 2 and measures nothing', { timeout: 300_000 }, async () => {
    gateBehaviour = { kind: 'api-error', status: 401 };
    repo.checkout(commits.c5 ?? '');
    const requestsBefore = model.requests.length;
    const tmpBefore = (await readdir(tmp)).sort();
    const result = await runAction({
      cwd: repo.dir,
      eventName: 'pull_request',
      payload: pullRequestPayload({
        number: 9,
        action: 'synchronize',
        baseSha: commits.c1 ?? '',
        headSha: commits.c5 ?? '',
        headRef: 'pr9',
      }),
      inputs: inputs(),
      env: world.env(),
    });
    await dump('gate', result);
    expect(result.code, logOnFailure(result)).toBe(2);
    expect(result.failure).toMatch(/^gate round-trip failed: the login was refused/);
    // The failing gate is annotated with its fix, in the Action's words (its input, not `claude auth login`).
    expect(result.annotations).toContainEqual(
      expect.objectContaining({
        level: 'error',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the workflow expression the fix quotes
        message: expect.stringContaining('anthropic-api-key: ${{ secrets.ANTHROPIC_API_KEY }}'),
        properties: expect.objectContaining({
          title: expect.stringMatching(/^skilltrigger: gate round-trip failed: the login was refused/),
        }),
      }),
    );
    const seen = model.requests.slice(requestsBefore).flatMap((r) => (r.view ? [r.view.query] : []));
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((query) => query === GATE_QUERY)).toBe(true);
    expect(verdicts(result).review).toMatchObject({ standing: 'not-measured' });
    expect(comments(9)[0]?.body).toContain('Nothing was measured: a gate failed.');
    // The first run's claude waited through the gates; the failure killed it and removed its project.
    expect(waitingAtGate).toHaveLength(1);
    await expectNothingLeftIn(tmpBefore);
  });

  it('no verdict on a push exits 3 and saves no baseline', { timeout: 300_000 }, async () => {
    apiDown = { kind: 'api-error', status: 500 };
    repo.checkout('main');
    commits.c6 = await repo.commit('Reword review on main', {
      [REVIEW]: skillFile('review', 'Review a change set. Use when asked to check a diff before merging.'),
    });
    const entries = cache.entries.length;
    const result = await runAction({
      cwd: repo.dir,
      eventName: 'push',
      payload: pushPayload({ before: commits.c1 ?? '', after: commits.c6 ?? '' }),
      inputs: inputs(),
      env: world.env({ GITHUB_SHA: commits.c6 ?? '' }),
    });
    await dump('no-verdict', result);
    expect(result.code, logOnFailure(result)).toBe(3);
    expect(result.failure).toMatch(/^no verdict for review: /);
    // The status and what it means, in the step's error, the summary and the report.
    expect(result.failure).toMatch(
      /the API answered 500 on (\d+) of \1 runs?: Anthropic's side failed; re-run the job/,
    );
    expect(result.summary).toMatch(/the API answered 500 on (\d+) of \1 runs?: Anthropic's side failed/);
    const [lostReport] = (result.outputs.reports ?? '').split('\n');
    const lost = reportSchema.parse(JSON.parse(await readFile(lostReport ?? '', 'utf8')));
    expect(Object.keys(lost.candidate.totals.errorCauses)).toEqual(['api:500']);
    expect(cache.entries).toHaveLength(entries);
    expect(result.summary).toContain('Not saved as a baseline: it has no verdict');
    expect(verdicts(result).review).toMatchObject({ standing: 'no-verdict', verdict: 'no-verdict' });
  });
});

/**
 * What CI throws at the Action beyond the measurement: a fork under pull_request_target, a job
 * cancelled mid-run. (The GitHub API refusing or failing the comment rides on the pull request,
 * cache-only and drift scenarios above: one run serves both.)
 */
describe('the bundled Action under pull_request_target and cancellation', () => {
  const pr = (number: number, head: string, extra: { fromFork?: boolean } = {}) =>
    pullRequestPayload({
      number,
      baseSha: commits.c1 ?? '',
      headSha: head,
      headRef: `pr${number}`,
      ...extra,
    });

  beforeAll(async () => {
    repo.checkout(commits.c1 ?? '');
    commits.c8 = await repo.commit('Add a tiny skill', {
      [TINY]: skillFile('tiny', TINY_TEXT),
      '.claude/skills/tiny/evals/evals.json': tinyEvals,
    });
  });

  it(actionFault('action-pr-target-fork'), {
    timeout: 120_000,
  }, async () => {
    repo.checkout(commits.c8 ?? '');
    github.clearRequests();
    const before = model.requests.length;
    const result = await runAction({
      cwd: repo.dir,
      eventName: 'pull_request_target',
      payload: pr(13, commits.c8 ?? '', { fromFork: true }),
      inputs: inputs(),
      env: world.env(),
    });
    await dump('pr-target-refused', result);
    expect(result.code, logOnFailure(result)).toBe(1);
    expect(result.failure).toMatch(
      /^refused to measure pull request #13: it comes from a fork, and this is a pull_request_target run, which has this repository's secrets and a write token\./,
    );
    expect(result.failure).toContain('allow-pull-request-target: true');
    expect(model.requests.length).toBe(before);
    expect(result.stdout).not.toMatch(/::group::(Install Claude Code|Gate)/);
    expect(github.requests).toHaveLength(0);
    expect(result.outputs.reports).toBe('');
    expect(result.summary).toContain('refused to measure pull request #&#8203;13');
  });

  it(actionFault('action-pr-target-allowed'), {
    timeout: 120_000,
  }, async () => {
    // A failing gate keeps this to one model request: the refusal is what is under test.
    gateBehaviour = { kind: 'api-error', status: 401 };
    repo.checkout(commits.c8 ?? '');
    const result = await runAction({
      cwd: repo.dir,
      eventName: 'pull_request_target',
      payload: pr(13, commits.c8 ?? '', { fromFork: true }),
      inputs: inputs({ 'allow-pull-request-target': 'true' }),
      env: world.env(),
    });
    await dump('pr-target-allowed', result);
    expect(result.code, logOnFailure(result)).toBe(2);
    expect(result.failure).toMatch(/^gate round-trip failed/);
  });

  it(actionFault('action-cancel-gates'), {
    timeout: 120_000,
  }, async () => {
    repo.checkout(commits.c8 ?? '');
    const before = model.requests.length;
    const tmpBefore = (await readdir(tmp)).sort();
    const result = await runAction({
      cwd: repo.dir,
      eventName: 'pull_request',
      payload: pr(14, commits.c8 ?? ''),
      inputs: inputs(),
      env: world.env(),
      onStart: (child) => {
        cancelAtGate = child;
      },
    });
    await dump('cancel-gates', result);
    expect(result.code, logOnFailure(result)).toBe(3);
    expect(result.failure).toBe('interrupted during the gates; nothing was measured');
    // The first run's claude was waiting when the cancel came; it is gone, and so is its project.
    expect(waitingAtGate).toHaveLength(1);
    const seen = model.requests.slice(before).flatMap((r) => (r.view ? [r.view.query] : []));
    expect(seen).toEqual([GATE_QUERY]);
    await expectNothingLeftIn(tmpBefore);
  });

  const cancelCases = { SIGTERM: 'action-cancel-sigterm', SIGINT: 'action-cancel-sigint' } as const;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(actionFault(cancelCases[signal]), {
      timeout: 300_000,
    }, async () => {
      repo.checkout('main');
      const before = repo.git('rev-parse', 'HEAD');
      const head = await repo.commit(`Add a skill to cancel (${signal})`, {
        [`.claude/skills/cancel-${signal.toLowerCase()}/SKILL.md`]: skillFile(
          `cancel-${signal.toLowerCase()}`,
          'Cancel me. Use when testing cancellation.',
        ),
        [`.claude/skills/cancel-${signal.toLowerCase()}/evals.json`]: evalsJson([
          ...Array.from({ length: 6 }, (_, i) => ({
            query: `cancel-pos ${i + 1}: cancel me`,
            should_trigger: true,
          })),
          { query: 'cancel-neg 1: something else', should_trigger: false },
        ]),
      });
      const tmp = path.join(work, 'tmp');
      const tmpBefore = (await readdir(tmp)).sort();
      const entries = cache.entries.map((e) => e.key);
      const result = await runAction({
        cwd: repo.dir,
        eventName: 'push',
        payload: pushPayload({ before, after: head }),
        inputs: inputs(),
        env: world.env({ GITHUB_SHA: head }),
        interrupt: { signal, when: /query 1\/7 · run 1\/1 · / },
      });
      await dump(`cancel-${signal}`, result);
      // The step ends itself (no verdict, exit 3); the runner does not have to kill it.
      expect(result.code, logOnFailure(result)).toBe(3);
      expect(result.failure).toMatch(
        /^no verdict for cancel-\w+: the run was interrupted before every planned run finished/,
      );
      expect(result.summary).toContain(
        'Not saved as a baseline: the job was cancelled, and a cut-short run is never a baseline.',
      );
      const [report] = (result.outputs.reports ?? '').split('\n');
      const parsed = reportSchema.parse(JSON.parse(await readFile(report ?? '', 'utf8')));
      expect(parsed.candidate.interrupted).toBe(true);
      expect(result.stdout).not.toMatch(/query 7\/7/);
      expect(cache.entries.map((e) => e.key)).toEqual(entries);
      expect(result.stdout).not.toMatch(/baseline saved:/);
      expect((await readdir(tmp)).sort()).toEqual(tmpBefore);
      await expectKeyMasked(result);
    });
  }
});
