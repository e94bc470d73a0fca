import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATE_QUERY } from '../../src/simulated/model.js';
import { type ActionWorld, actionLog, actionVerdicts, startActionWorld } from '../fakes/action-world.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { loadOwnStub, stubOfQuery } from '../fakes/query-stub.js';
import { evalsJson, pullRequestPayload, pushPayload, runAction, skillFile } from './harness.js';

/**
 * The example workflow's events through the bundled Action (examples/workflows/skilltrigger.yml):
 * a push to main saves the baselines, `workflow_dispatch` measures every skill and saves each, the
 * weekly `schedule` runs the drift watch (every skill against its stored baseline: nothing moved,
 * so no issue, and the baselines refreshed), and a pull request that narrows a skill gets a comment that says what moved: the count
 * line, the moved queries first, the links to the run, its summary and the pages, and the next step.
 */

const TOKEN = 'ghs_actions_token_for_events';
const ALPHA = '.claude/skills/alpha/SKILL.md';
const BETA = '.claude/skills/beta/SKILL.md';
/** The runner's variables the footer's links are built from. */
const RUN_ENV = {
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_REPOSITORY: 'octo-org/skills',
  GITHUB_RUN_ID: '777',
};
const RUN_URL = 'https://github.com/octo-org/skills/actions/runs/777';

let world: ActionWorld;
let c1 = '';
let c2 = '';
/** The default branch's newest commit. */
let main = '';

const inputs = (extra: Record<string, string> = {}) => ({
  'anthropic-api-key': 'sk-ant-events-0123456789',
  'github-token': TOKEN,
  'claude-path': CLAUDE_BIN,
  runs: '1',
  competition: 'isolated',
  ...extra,
});

beforeAll(async () => {
  world = await startActionWorld({
    name: 'events-e2e',
    tokens: { [TOKEN]: { login: 'github-actions[bot]', type: 'Bot', installation: true } },
    script: (req) => {
      if (req.query === GATE_QUERY) return undefined;
      // A description marked NARROW no longer loads on the positives.
      const narrowed = stubOfQuery(req)?.description.includes('NARROW') === true;
      if (req.query.includes('-pos')) return narrowed ? { kind: 'text' } : loadOwnStub(req);
      return { kind: 'text' };
    },
  });
  const { repo } = world;
  await repo.commit('Initial', { 'README.md': '# skills\n' });
  c1 = await repo.commit('Add skills', {
    [ALPHA]: skillFile('alpha', 'Do the alpha thing. Use when asked for alpha work.'),
    '.claude/skills/alpha/evals.json': evalsJson([
      ...Array.from({ length: 6 }, (_, i) => ({
        query: `alpha-pos ${i + 1}: do alpha`,
        should_trigger: true,
      })),
      { query: 'alpha-neg 1: what time is it', should_trigger: false },
      { query: 'alpha-neg 2: format this file', should_trigger: false },
    ]),
    [BETA]: skillFile('beta', 'Do the beta thing. Use when asked for beta work.'),
    '.claude/skills/beta/evals.json': evalsJson([
      { query: 'beta-pos 1: do beta', should_trigger: true },
      { query: 'beta-neg 1: write a haiku', should_trigger: false },
    ]),
  });
});

afterAll(async () => {
  await world?.close();
});

describe('the example workflow’s events', () => {
  it('push to main: measures the changed skills and saves them as baselines', {
    timeout: 300_000,
  }, async () => {
    const result = await runAction({
      cwd: world.repo.dir,
      eventName: 'push',
      payload: pushPayload({ before: '0'.repeat(40), after: c1 }),
      inputs: inputs(),
      env: world.env(RUN_ENV),
    });
    expect(result.code, actionLog(result)).toBe(0);
    expect(actionVerdicts(result).alpha).toMatchObject({ standing: 'measured', passed: true });
    expect(result.summary).toMatch(/Saved as the baseline for commit/);
  });

  it.each([
    ['workflow_dispatch', {}],
    // The example's schedule is its drift job's.
    ['schedule', { mode: 'drift' }],
  ])(
    '%s on main: measures every skill, changed or not, and saves each',
    {
      timeout: 300_000,
    },
    async (eventName, extra: Record<string, string>) => {
      // A later commit on main that changes no skill: a push would measure nothing.
      main = await world.repo.commit(`Docs for ${eventName}`, { 'README.md': `# skills (${eventName})\n` });
      await world.freshJob();
      const result = await runAction({
        cwd: world.repo.dir,
        eventName,
        payload: {
          ref: 'refs/heads/main',
          repository: { default_branch: 'main', full_name: 'octo-org/skills' },
        },
        inputs: inputs(extra),
        env: world.env({ ...RUN_ENV, GITHUB_SHA: main, GITHUB_REF: 'refs/heads/main' }),
      });
      expect(result.code, actionLog(result)).toBe(0);
      expect(Object.keys(actionVerdicts(result)).sort()).toEqual(['alpha', 'beta']);
      expect(result.summary.match(/Saved as the baseline for commit/g), actionLog(result)).toHaveLength(2);
      if (extra.mode === 'drift') {
        expect(actionVerdicts(result).alpha).toMatchObject({ standing: 'noise', baseline: 'cache' });
        expect(result.summary).toContain('**No drift:**');
        expect(world.github.issues()).toEqual([]);
      }
    },
  );

  it('a pull request that narrows a skill: the comment says what moved, where to read more and what next', {
    timeout: 300_000,
  }, async () => {
    world.repo.git('checkout', '-q', '-b', 'narrow');
    c2 = await world.repo.commit('Narrow alpha', {
      [ALPHA]: skillFile('alpha', 'NARROW: only the alpha thing, rarely.'),
    });
    world.github.clearRequests();
    const result = await runAction({
      cwd: world.repo.dir,
      eventName: 'pull_request',
      payload: pullRequestPayload({ number: 21, baseSha: main, headSha: c2, headRef: 'narrow' }),
      inputs: inputs(),
      env: world.env(RUN_ENV),
    });
    expect(result.code, actionLog(result)).toBe(0);
    expect(result.summary).toContain('Baseline: the report cached for the base commit');
    const body = world.github.comments(21).at(-1)?.body ?? '';
    expect(body, actionLog(result)).toContain(
      '**1 regression** · 0 improvements · 0 noise · 0 not measured · 1 listing change',
    );
    // The deciding rows carry their interval; the six positives moved, worst first.
    expect(body).toMatch(
      /\| Positives triggered \(should load\) \| 6\/6 \(100%\) \| 0\/6 \(0%\) \| −100 pp \(95% −\d+ pp to −\d+ pp\) \| \*\*regression\*\* \|/,
    );
    expect(body).toContain('6 of 8 queries moved');
    const moved = body.split('\n').filter((l) => l.startsWith('| **▼ −100 pp** |'));
    expect(moved).toHaveLength(6);
    expect(body.indexOf('| **▼ −100 pp** |')).toBeLessThan(
      body.indexOf('<summary>The other 2 queries, unmoved</summary>'),
    );
    expect(body).toContain(`[workflow run](${RUN_URL}) · [job summary](${RUN_URL}#summary)`);
    expect(body).toContain(
      '**Next:** reproduce a measurement locally with npx skilltrigger run --skill .claude/skills/alpha --runs 1.',
    );
    expect(body).toContain('To accept a deliberate change');
    expect(actionVerdicts(result).alpha).toMatchObject({
      standing: 'regression',
      verdict: 'ok',
      passed: false,
    });
  });
});
