import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContextTurn, describeContext } from '../../src/inputs/context.js';
import { reportSchema } from '../../src/schemas/report.js';
import { GATE_QUERY } from '../../src/simulated/model.js';
import { type ActionWorld, actionLog, startActionWorld } from '../fakes/action-world.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { evalsJson, pullRequestPayload, runAction, skillFile } from './harness.js';
import { runActionInProcess } from './in-process.js';

/**
 * The Action's `context` and `versus-fresh` inputs (docs/action.md, docs/context.md) through the real
 * `claude` against the simulated model: a pull request's skill measured with every query both fresh
 * and with the workspace's context file, interleaved, in one report that says what the session
 * costs; `versus-fresh` with no context anywhere refused before anything is installed or spent.
 * The same runs carry `memory: auto`: the repository's root CLAUDE.md in every measured run's project.
 * The model loads the skill on a "pos" query only in a fresh session, so the session costs all of it.
 * Runs: 2 queries × 2 arms × 1 run = 4 measured runs, plus the gates.
 *
 * The Action's entry runs in this process (in-process.ts): the bundle in dist/ is rebuilt at
 * release, and these inputs are newer than it.
 */

const TOKEN = 'ghs_actions_token_for_context';
const SKILL = '.claude/skills/tiny/SKILL.md';
/** The repository's own CLAUDE.md, which `memory: auto` installs in each run's project. */
const CLAUDE_MD = '# House rules\n\nRun the linter before every commit (marker-7f3c).\n';
const TURNS: ContextTurn[] = [
  { role: 'user', content: 'The deploy script broke after the rename; please look at deploy.sh.' },
  { role: 'assistant', content: 'Found it: deploy.sh still sourced the old env file. Fixed and re-ran.' },
];

let world: ActionWorld;
let base: string;
let head: string;

beforeAll(async () => {
  world = await startActionWorld({
    name: 'context-e2e',
    tokens: { [TOKEN]: { login: 'github-actions[bot]', type: 'Bot', installation: true } },
    model: { recordBodies: true },
    script: (req) =>
      req.query !== GATE_QUERY && req.query.startsWith('pos') && (req.priorTurns ?? 0) === 0
        ? { kind: 'skill' }
        : undefined,
  });
  const { repo } = world;
  await repo.commit('Initial', {
    'README.md': '# skills\n',
    'CLAUDE.md': CLAUDE_MD,
    '.github/contexts/mid-session.json': JSON.stringify(TURNS),
  });
  base = await repo.commit('Add tiny', {
    [SKILL]: skillFile('tiny', 'Say hello in the tiny way. Use when the user wants a tiny greeting.'),
    '.claude/skills/tiny/evals.json': evalsJson([
      { query: 'pos: say hello tinily', should_trigger: true },
      { query: 'neg: what time is it', should_trigger: false },
    ]),
  });
  repo.git('checkout', '-q', '-b', 'reword');
  head = await repo.commit('Reword tiny', {
    [SKILL]: skillFile('tiny', 'Greet the user the tiny way. Use when asked for a tiny hello.'),
  });
}, 120_000);

afterAll(async () => {
  await world?.close();
});

/** The bundle as the runner runs it for the first measurement; the entry in this process after. */
const measure = (pr: number, inputs: Record<string, string>, bundled = false) =>
  (bundled ? runAction : runActionInProcess)({
    cwd: world.repo.dir,
    eventName: 'pull_request',
    payload: pullRequestPayload({ number: pr, baseSha: base, headSha: head, headRef: 'reword' }),
    inputs: {
      'anthropic-api-key': 'sk-test',
      'github-token': TOKEN,
      'claude-path': CLAUDE_BIN,
      baseline: 'none',
      competition: 'isolated',
      runs: '1',
      timeout: '60',
      ...inputs,
    },
    env: world.env({ GITHUB_SHA: head, GITHUB_REF: `refs/pull/${pr}/merge` }),
  });

describe('the Action with context and versus-fresh', () => {
  it('measures each query fresh and with the context file, interleaved, in one report with the session’s cost', {
    timeout: 600_000,
  }, async () => {
    await world.freshJob();
    const from = world.model.requests.length;
    const result = await measure(
      1,
      { context: '.github/contexts/mid-session.json', 'versus-fresh': 'true', memory: 'auto' },
      true,
    );
    expect(result.code, actionLog(result)).toBe(0);
    // The job's estimate counts both arms: 2 queries, each fresh and with its context.
    expect(result.stdout).toMatch(/estimate: 4 runs over 1 skill/);
    const reportPath = result.outputs.reports?.split('\n')[0] ?? '';
    const report = reportSchema.parse(JSON.parse(await readFile(reportPath, 'utf8')));
    expect(report.settings.versusFresh).toBe(true);
    expect(report.settings.context).toEqual(describeContext(TURNS));
    expect(report.candidate.queries.map((q) => q.outcomes)).toEqual([
      ['triggered', 'not-triggered'],
      ['not-triggered', 'not-triggered'],
    ]);
    expect(report.candidate.sessionCost?.positives.deltaRate).toBe(-1);
    // Each query's runs went fresh, then with the two turns before it.
    const measured = world.model.requests
      .slice(from)
      .filter((q) => q.turn === 1 && /^(pos|neg):/.test(q.view?.query ?? ''));
    expect(measured.map((q) => [q.view?.query.slice(0, 3), q.view?.priorTurns])).toEqual([
      ['pos', 0],
      ['pos', 2],
      ['neg', 0],
      ['neg', 2],
    ]);
    // memory: auto: the root CLAUDE.md reached every measured run, and the report holds its hash and size.
    expect(measured.every((q) => JSON.stringify(q.body).includes('marker-7f3c'))).toBe(true);
    expect(report.settings.memory).toEqual([
      {
        sha256: createHash('sha256').update(CLAUDE_MD).digest('hex'),
        bytes: Buffer.byteLength(CLAUDE_MD),
        agents: ['claude'],
      },
    ]);
    // The context's and the memory file's text never reach the report.
    expect(JSON.stringify(report)).not.toContain('deploy.sh');
    expect(JSON.stringify(report)).not.toContain('marker-7f3c');
  });

  it('refuses versus-fresh when no query carries a context, before anything is installed or spent', {
    timeout: 300_000,
  }, async () => {
    await world.freshJob();
    const from = world.model.requests.length;
    const result = await measure(2, { 'versus-fresh': 'true' });
    expect(result.code, actionLog(result)).toBe(1);
    expect(result.failure).toBe(
      'input versus-fresh: no query of the measured skills carries a context, so there is no session to measure against a fresh start. Fix: set context or context-fill, give the eval sets\' entries a "context" (docs/context.md), or set versus-fresh: false',
    );
    expect(world.model.requests.length).toBe(from);
  });
});
