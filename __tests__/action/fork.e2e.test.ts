import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORK_NOT_MEASURED } from '../../src/action/fork.js';
import { GATE_QUERY } from '../../src/simulated/model.js';
import { type ActionWorld, actionLog, actionVerdicts, startActionWorld } from '../fakes/action-world.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { evalsJson, pullRequestPayload, runAction, skillFile } from './harness.js';

/**
 * A fork's pull request through the bundled Action, as the runner runs it: GitHub gives its
 * `pull_request` run no secrets and a read-only token. With `on-fork: skip` (the default) that is
 * a neutral result, never a red required check: exit 0, a notice, the summary says why, and
 * nothing is installed, gated or asked of a model. `on-fork: fail` keeps the old red check.
 */

const FORK_TOKEN = 'ghs_fork_readonly_token';
const REVIEW = '.claude/skills/review/SKILL.md';
const BROKEN = '.claude/skills/broken/SKILL.md';

let world: ActionWorld;
let base = '';
let head = '';
let brokenHead = '';

const forkPr = (number: number, headSha: string) =>
  pullRequestPayload({ number, baseSha: base, headSha, headRef: 'patch-1', fromFork: true });
/** A fork's run: no key input (the secret expression is empty there), a read-only token. */
const forkInputs = (extra: Record<string, string> = {}) => ({
  'github-token': FORK_TOKEN,
  'claude-path': CLAUDE_BIN,
  runs: '1',
  ...extra,
});

beforeAll(async () => {
  world = await startActionWorld({
    name: 'fork-e2e',
    tokens: {
      [FORK_TOKEN]: { login: 'github-actions[bot]', type: 'Bot', installation: true, readOnly: true },
    },
    script: (req) =>
      req.query !== GATE_QUERY && req.query.startsWith('review-pos') ? { kind: 'skill' } : undefined,
  });
  const { repo } = world;
  await repo.commit('Initial', { 'README.md': '# skills\n' });
  base = await repo.commit('Add review', {
    [REVIEW]: skillFile('review', 'Review a pull request diff for bugs. Use when asked to review changes.'),
    '.claude/skills/review/evals.json': evalsJson([
      { query: 'review-pos 1: review my diff', should_trigger: true },
      { query: 'review-neg 1: write a haiku', should_trigger: false },
    ]),
  });
  repo.git('checkout', '-q', '-b', 'patch-1');
  head = await repo.commit('Fork: reword review', {
    [REVIEW]: skillFile('review', 'Check a pull request for mistakes. Use for code review requests.'),
  });
  brokenHead = await repo.commit('Fork: add a skill with a broken eval set', {
    [BROKEN]: skillFile('broken', 'Break things on purpose. Use when asked to break things.'),
    '.claude/skills/broken/evals.json': '{ not json',
  });
});

afterAll(async () => {
  await world?.close();
});

describe('a fork pull request without secrets', () => {
  it('on-fork: skip (the default): exit 0, a notice, the summary says why, no model call, no install', {
    timeout: 120_000,
  }, async () => {
    world.repo.checkout(head);
    world.github.clearRequests();
    const before = world.model.requests.length;
    const result = await runAction({
      cwd: world.repo.dir,
      eventName: 'pull_request',
      payload: forkPr(11, head),
      inputs: forkInputs(),
      env: world.env(),
    });
    expect(result.code, actionLog(result)).toBe(0);
    expect(result.failure).toBeUndefined();
    const notice = result.annotations.find(
      (a) => a.level === 'notice' && a.message.includes(FORK_NOT_MEASURED),
    );
    expect(notice, actionLog(result)).toBeDefined();
    expect(notice?.message).toContain('pushes its head to a branch of this repository');
    expect(result.summary.toLowerCase()).toContain(FORK_NOT_MEASURED);
    expect(result.summary).toContain('1 not measured');
    expect(world.model.requests.length).toBe(before);
    expect(result.stdout).not.toMatch(/::group::(Install Claude Code|Gate)/);
    expect(world.github.requests).toHaveLength(0);
    expect(result.outputs.reports).toBe('');
    // The eval set's findings, as check prints them: annotated on the eval set, one line in the summary.
    const weak = result.annotations.filter(
      (a) => a.level === 'warning' && a.properties.file === '.claude/skills/review/evals.json',
    );
    expect(weak.map((a) => a.properties.title)).toContain('skilltrigger: eval set of review: few-positives');
    expect(weak.find((a) => a.properties.title?.endsWith('no-holdout'))?.message).toContain(
      'Fix: mark about 40%',
    );
    expect(result.summary).toMatch(
      /Eval-set findings \(each annotated on its eval set; .*\): review: few-positives, few-negatives/,
    );
    expect(actionVerdicts(result).review).toEqual({
      file: REVIEW,
      standing: 'not-measured',
      passed: null,
    });
  });

  it('a broken eval set still fails (exit 1): checking it needs no secret', {
    timeout: 120_000,
  }, async () => {
    world.repo.checkout(brokenHead);
    const before = world.model.requests.length;
    const result = await runAction({
      cwd: world.repo.dir,
      eventName: 'pull_request',
      payload: forkPr(12, brokenHead),
      inputs: forkInputs(),
      env: world.env(),
    });
    expect(result.code, actionLog(result)).toBe(1);
    expect(result.failure).toMatch(/^input error: 1 problem/);
    expect(result.summary.toLowerCase()).toContain(FORK_NOT_MEASURED);
    expect(world.model.requests.length).toBe(before);
    expect(actionVerdicts(result).broken).toMatchObject({ standing: 'invalid', passed: false });
  });

  it('on-fork: fail runs it as any pull request: the auth gate fails it (exit 2), with the fork story', {
    timeout: 300_000,
  }, async () => {
    world.repo.checkout(head);
    world.github.clearRequests();
    const result = await runAction({
      cwd: world.repo.dir,
      eventName: 'pull_request',
      payload: forkPr(13, head),
      inputs: forkInputs({ 'on-fork': 'fail' }),
      env: world.env(),
    });
    expect(result.code, actionLog(result)).toBe(2);
    expect(result.failure).toMatch(/^gate auth failed: `claude auth status` says not logged in/);
    expect(world.github.requests).toHaveLength(0);
    expect(result.summary).toContain('Nothing was measured: a gate failed.');
    expect(result.summary).toContain('GitHub passes no secrets');
    expect(result.summary.toLowerCase()).not.toContain(FORK_NOT_MEASURED);
  });

  it('a fork run that a key reached (a private repository sending secrets) is measured', {
    timeout: 300_000,
  }, async () => {
    world.repo.checkout(head);
    const before = world.model.requests.length;
    const result = await runAction({
      cwd: world.repo.dir,
      eventName: 'pull_request',
      payload: forkPr(14, head),
      inputs: forkInputs({ 'anthropic-api-key': 'sk-ant-fork-secret-0123456789', baseline: 'none' }),
      env: world.env(),
    });
    expect(result.code, actionLog(result)).toBe(0);
    expect(world.model.requests.length).toBeGreaterThan(before);
    expect(actionVerdicts(result).review).toMatchObject({ standing: 'no-baseline', passed: true });
  });
});
