import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATE_QUERY } from '../../src/simulated/model.js';
import { type ActionWorld, actionLog, actionVerdicts, startActionWorld } from '../fakes/action-world.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { type ActionResult, evalsJson, runAction, skillFile } from './harness.js';

/**
 * The drift watch (`mode: drift`) through the bundled Action, the real claude, the simulated model
 * and the fakes of the cache service and of GitHub's issues: a run by hand seeds every skill's
 * baseline on one model; a scheduled drift run on another model, under which one skill stops
 * loading, opens the one drift issue (the skill, by how much, the model change) and refreshes no
 * baseline; a later run updates that issue in place; a run back on the first model, where every
 * skill is noise again, closes it and only then refreshes the baselines.
 */

const HAIKU = 'claude-haiku-4-5';
const SONNET = 'claude-sonnet-4-5';
const TOKEN = 'ghs_actions_token_for_drift';
const HANDOFF = '.claude/skills/handoff/SKILL.md';
const STEADY = '.claude/skills/steady/SKILL.md';
const SERVER = 'https://github.com';

let world: ActionWorld;
let main = '';

const inputs = (model: string, extra: Record<string, string> = {}) => ({
  'anthropic-api-key': 'sk-ant-drift-0123456789abcdef',
  'github-token': TOKEN,
  'claude-path': CLAUDE_BIN,
  runs: '2',
  competition: 'isolated',
  model,
  'max-cost-usd': '5',
  ...extra,
});

beforeAll(async () => {
  world = await startActionWorld({
    name: 'drift-e2e',
    seed: 44,
    tokens: { [TOKEN]: { login: 'github-actions[bot]', type: 'Bot', installation: true } },
    script: (req) => {
      if (req.query === GATE_QUERY) return undefined;
      // handoff's positives load on haiku and never on sonnet; steady's load on both.
      if (req.query.startsWith('handoff-pos'))
        return req.model === HAIKU ? { kind: 'skill' } : { kind: 'text' };
      if (req.query.startsWith('steady-pos')) return { kind: 'skill' };
      return { kind: 'text' };
    },
  });
  const { repo } = world;
  await repo.commit('Initial', { 'README.md': '# skills\n' });
  main = await repo.commit('Add skills', {
    [HANDOFF]: skillFile(
      'handoff',
      'Write HANDOFF.md so a fresh session can resume. Use when ending a session.',
    ),
    '.claude/skills/handoff/evals.json': evalsJson([
      { query: 'handoff-pos 1: write the handoff notes', should_trigger: true },
      { query: 'handoff-pos 2: I am done for today, hand off', should_trigger: true },
      { query: 'handoff-pos 3: save where we are for tomorrow', should_trigger: true },
      { query: 'handoff-neg 1: what is the capital of France', should_trigger: false },
    ]),
    [STEADY]: skillFile('steady', 'Format a changelog entry. Use when asked for a changelog entry.'),
    '.claude/skills/steady/evals.json': evalsJson([
      { query: 'steady-pos 1: add a changelog entry', should_trigger: true },
      { query: 'steady-neg 1: write a haiku', should_trigger: false },
    ]),
  });
});

afterAll(async () => {
  await world?.close();
});

/** One job on main, as the runner starts it for `eventName` (run `runId`). */
async function job(
  eventName: string,
  runId: number,
  jobInputs: Record<string, string>,
): Promise<ActionResult> {
  await world.freshJob();
  return runAction({
    cwd: world.repo.dir,
    eventName,
    payload: {
      ...(eventName === 'schedule' ? { schedule: '17 6 * * 1' } : { ref: 'refs/heads/main', inputs: {} }),
      repository: { default_branch: 'main', full_name: 'octo-org/skills' },
    },
    inputs: jobInputs,
    env: world.env({
      GITHUB_SHA: main,
      GITHUB_REF: 'refs/heads/main',
      GITHUB_SERVER_URL: SERVER,
      GITHUB_RUN_ID: String(runId),
      GITHUB_RUN_ATTEMPT: '1',
    }),
  });
}

const issues = () => world.github.issues();
const baselineKeys = () =>
  world.cache.entries.map((e) => e.key).filter((k) => k.startsWith('skilltrigger-baseline-'));

describe('drift watch', () => {
  it('a run by hand on haiku seeds every skill’s baseline', { timeout: 300_000 }, async () => {
    const result = await job('workflow_dispatch', 100, inputs(HAIKU));
    expect(result.code, actionLog(result)).toBe(0);
    expect(baselineKeys().sort(), actionLog(result)).toEqual([
      `skilltrigger-baseline-linux-handoff-${main}`,
      `skilltrigger-baseline-linux-steady-${main}`,
    ]);
    expect(issues()).toEqual([]);
  });

  it('a scheduled drift run on sonnet opens the issue: the skill that moved, by how much, the model change', {
    timeout: 300_000,
  }, async () => {
    world.github.clearRequests();
    const result = await job('schedule', 101, inputs(SONNET, { mode: 'drift' }));
    // A drift regression is reported, not failed, without fail-on-regression.
    expect(result.code, actionLog(result)).toBe(0);
    expect(actionVerdicts(result).handoff).toMatchObject({ standing: 'regression', baseline: 'cache' });
    expect(actionVerdicts(result).steady).toMatchObject({ standing: 'noise' });

    expect(issues()).toHaveLength(1);
    const [issue] = issues();
    expect(issue).toMatchObject({ state: 'open', user: { login: 'github-actions[bot]' } });
    expect(issue?.title).toBe(
      `skilltrigger drift: handoff moved after the model changed (${HAIKU} → ${SONNET})`,
    );
    const body = issue?.body ?? '';
    expect(body.startsWith('<!-- skilltrigger:drift -->\n'), body).toBe(true);
    // The three positives at 2 runs: 6/6 on haiku, 0/6 on sonnet, paired by query.
    expect(body).toMatch(/❌ handoff \| 6\/6 → 0\/6 \(100% → 0%, −100 pp\) \*\*regression\*\*/);
    expect(body).toContain(`model asked for ${HAIKU} → ${SONNET}`);
    expect(body).toContain('Noise (no change): steady');
    expect(body).toContain('The stored baselines were not refreshed');
    expect(body).toContain(`${SERVER}/octo-org/skills/actions/runs/101`);
    // The drift is not adopted: the two baselines are still the seeded ones.
    expect(baselineKeys(), actionLog(result)).toHaveLength(2);
    expect(result.summary).toContain('### Drift watch');
    expect(result.summary).toContain(`The drift issue was created: #${issue?.number}`);
    expect(result.annotations.some((a) => a.message.includes('With the same description, handoff'))).toBe(
      true,
    );
  });

  it('a later scheduled run updates the same issue in place', { timeout: 300_000 }, async () => {
    const before = issues()[0];
    world.github.clearRequests();
    const result = await job('schedule', 102, inputs(SONNET, { mode: 'drift' }));
    expect(result.code, actionLog(result)).toBe(0);
    expect(issues()).toHaveLength(1);
    const [issue] = issues();
    expect(issue?.number).toBe(before?.number);
    expect(issue?.state).toBe('open');
    expect(issue?.updatedAt).not.toBe(before?.updatedAt);
    expect(issue?.body).toContain('/actions/runs/102');
    expect(world.github.requests.filter((r) => r.route === 'create-issue')).toEqual([]);
    expect(world.github.requests.filter((r) => r.route === 'update-issue')).toHaveLength(1);
    expect(baselineKeys()).toHaveLength(2);
  });

  it('back on haiku every skill is noise: the issue is closed, and only now are the baselines refreshed', {
    timeout: 300_000,
  }, async () => {
    const result = await job('schedule', 103, inputs(HAIKU, { mode: 'drift' }));
    expect(result.code, actionLog(result)).toBe(0);
    expect(actionVerdicts(result).handoff).toMatchObject({ standing: 'noise' });
    const [issue] = issues();
    expect(issue).toMatchObject({ state: 'closed', stateReason: 'completed' });
    expect(issue?.body).toContain('Every skill is back to noise');
    expect(baselineKeys().sort(), actionLog(result)).toEqual([
      `skilltrigger-baseline-linux-handoff-${main}`,
      `skilltrigger-baseline-linux-handoff-${main}-drift-103-1`,
      `skilltrigger-baseline-linux-steady-${main}`,
      `skilltrigger-baseline-linux-steady-${main}-drift-103-1`,
    ]);
    expect(result.summary).toContain('The drift issue was closed');
  });

  it('accept-drift adopts a drift: the issue is closed as accepted, and the next run is noise against it', {
    timeout: 300_000,
  }, async () => {
    const opened = await job('schedule', 104, inputs(SONNET, { mode: 'drift' }));
    expect(opened.code, actionLog(opened)).toBe(0);
    // The first issue is closed: a new drift opens a new one.
    expect(issues().map((i) => i.state)).toEqual(['closed', 'open']);

    const accepted = await job(
      'workflow_dispatch',
      105,
      inputs(SONNET, { mode: 'drift', 'accept-drift': 'true' }),
    );
    expect(accepted.code, actionLog(accepted)).toBe(0);
    expect(actionVerdicts(accepted).handoff).toMatchObject({ standing: 'regression' });
    expect(issues()[1]).toMatchObject({ state: 'closed', stateReason: 'completed' });
    expect(issues()[1]?.body).toContain('The drift was accepted');
    expect(baselineKeys().filter((k) => k.endsWith('-drift-105-1'))).toHaveLength(2);

    const after = await job('schedule', 106, inputs(SONNET, { mode: 'drift' }));
    expect(after.code, actionLog(after)).toBe(0);
    expect(actionVerdicts(after).handoff).toMatchObject({ standing: 'noise' });
    expect(issues().map((i) => i.state)).toEqual(['closed', 'closed']);
  });

  it('max-cost-usd bounds a drift run: a refused estimate measures nothing, and the open issue and the baselines stay as they were', {
    timeout: 300_000,
  }, async () => {
    // Back on haiku against the accepted sonnet baselines: handoff improves, a drift too.
    const opened = await job('schedule', 107, inputs(HAIKU, { mode: 'drift' }));
    expect(opened.code, actionLog(opened)).toBe(0);
    expect(actionVerdicts(opened).handoff).toMatchObject({ standing: 'improvement' });
    expect(issues().map((i) => i.state)).toEqual(['closed', 'closed', 'open']);
    expect(issues()[2]?.title).toBe(
      `skilltrigger drift: handoff moved after the model changed (${SONNET} → ${HAIKU})`,
    );
    const before = { ...issues()[2] };
    const keys = baselineKeys().sort();

    const from = world.model.requests.length;
    world.github.clearRequests();
    const refused = await job('schedule', 108, inputs(HAIKU, { mode: 'drift', 'max-cost-usd': '0.0001' }));
    expect(refused.code, actionLog(refused)).toBe(1);
    expect(refused.failure).toMatch(
      /^input max-cost-usd: the job's plan is estimated at .*nothing was measured/,
    );
    const asked = world.model.requests.slice(from).map((r) => r.view?.query ?? '');
    expect(asked.filter((q) => q.startsWith('handoff') || q.startsWith('steady'))).toEqual([]);
    expect(issues()[2]).toEqual(before);
    expect(world.github.requests.filter((r) => r.route.includes('issue'))).toEqual([]);
    expect(baselineKeys().sort()).toEqual(keys);
    expect(refused.summary).toContain(
      'Nothing was measured, so the drift issue and the stored baselines were left as they were.',
    );
  });

  it('mode: drift on a push has nothing to do: a notice, exit 0, no model call', {
    timeout: 120_000,
  }, async () => {
    const from = world.model.requests.length;
    await world.freshJob();
    const result = await runAction({
      cwd: world.repo.dir,
      eventName: 'push',
      payload: {
        ref: 'refs/heads/main',
        before: '0'.repeat(40),
        after: main,
        repository: { default_branch: 'main', full_name: 'octo-org/skills' },
      },
      inputs: inputs(HAIKU, { mode: 'drift' }),
      env: world.env({ GITHUB_SHA: main }),
    });
    expect(result.code, actionLog(result)).toBe(0);
    expect(result.annotations.some((a) => a.level === 'notice' && a.message.includes('mode: drift'))).toBe(
      true,
    );
    expect(world.model.requests.length).toBe(from);
  });
});
