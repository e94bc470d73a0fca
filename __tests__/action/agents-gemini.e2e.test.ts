import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENTS } from '../../src/agents/registry.js';
import { matrixReportSchema } from '../../src/schemas/matrix.js';
import { reportSchema } from '../../src/schemas/report.js';
import { GATE_QUERY } from '../../src/simulated/model.js';
import { listedNameOf } from '../../src/simulated/route.js';
import { type ActionWorld, actionLog, startActionWorld } from '../fakes/action-world.js';
import { writeFakeNpm } from '../fakes/fake-npm.js';
import {
  type ActionResult,
  evalsJson,
  pullRequestPayload,
  pushPayload,
  runAction,
  skillFile,
} from './harness.js';

/**
 * `agents: gemini`: a pull request measured on the real `gemini` alone, got as the runner would
 * get it (no `gemini-path`: `@google/gemini-cli@<gemini-version>` installed by the fake `npm` into a
 * cached prefix), with its key from the `gemini-api-key` input only. Nothing in the Action names
 * Gemini: its inputs, install, key, gates and label all come from the registry.
 * Runs: 2 queries × 1 run × 2 sides = 4 measured runs, plus the round-trip gate; then a push job
 * with the routing matrix (below).
 */

const TOKEN = 'ghs_actions_token_for_gemini';
const GEMINI_KEY = 'gemini-agents-e2e-secret-key';
const SKILL = '.claude/skills/tiny/SKILL.md';
const GEMINI_BIN = path.resolve('node_modules/.bin/gemini');
const CACHE_KEY = `skilltrigger-gemini-${AGENTS.gemini.pinnedVersion}-linux-${process.arch}`;

let world: ActionWorld;
let result: ActionResult;
let npmLog: string;

beforeAll(async () => {
  world = await startActionWorld({
    name: 'agents-gemini-e2e',
    tokens: { [TOKEN]: { login: 'github-actions[bot]', type: 'Bot', installation: true } },
    script: (req) =>
      req.query !== GATE_QUERY && req.query.startsWith('pos')
        ? { kind: 'skill', name: listedNameOf(req, 'tiny') }
        : undefined,
  });
  await writeFakeNpm(path.join(world.work, 'bin'), 'gemini');
  npmLog = path.join(world.work, 'npm-calls.jsonl');
  await writeFile(npmLog, '');

  const { repo } = world;
  await repo.commit('Initial', { 'README.md': '# skills\n' });
  const base = await repo.commit('Add tiny', {
    [SKILL]: skillFile('tiny', 'Say hello in the tiny way. Use when the user wants a tiny greeting.'),
    '.claude/skills/tiny/evals.json': evalsJson([
      { query: 'pos: say hello tinily', should_trigger: true },
      { query: 'neg: what time is it', should_trigger: false },
    ]),
  });
  repo.git('checkout', '-q', '-b', 'reword');
  const head = await repo.commit('Reword tiny', {
    [SKILL]: skillFile('tiny', 'Greet the user the tiny way. Use when asked for a tiny hello.'),
  });

  result = await runAction({
    cwd: repo.dir,
    eventName: 'pull_request',
    payload: pullRequestPayload({ number: 1, baseSha: base, headSha: head, headRef: 'reword' }),
    inputs: {
      agents: 'gemini',
      'gemini-api-key': GEMINI_KEY,
      'github-token': TOKEN,
      competition: 'isolated',
      baseline: 'measure',
      runs: '1',
      timeout: '60',
    },
    env: world.env({
      PATH: `${path.join(world.work, 'bin')}:${process.env.PATH ?? ''}`,
      GITHUB_SHA: head,
      GITHUB_REF: 'refs/pull/1/merge',
      GOOGLE_GEMINI_BASE_URL: world.model.url,
      FAKE_NPM_LOG: npmLog,
      FAKE_NPM_GEMINI: GEMINI_BIN,
    }),
  });
}, 600_000);

afterAll(async () => {
  await world?.close();
});

describe('agents: gemini on a pull request', () => {
  it('installs Gemini CLI at gemini-version into its own prefix and caches it', async () => {
    expect(result.code, actionLog(result)).toBe(0);
    const calls = (await readFile(npmLog, 'utf8')).split('\n').filter(Boolean);
    expect(calls).toHaveLength(1);
    const argv: unknown = JSON.parse(calls[0] ?? '[]');
    expect(argv).toContain(`@google/gemini-cli@${AGENTS.gemini.pinnedVersion}`);
    expect(argv).toContain(
      path.join(world.repo.dir, '.skilltrigger-cache', 'gemini-cli', AGENTS.gemini.pinnedVersion),
    );
    expect(world.cache.entries.map((e) => e.key)).toContain(CACHE_KEY);
  });

  it('runs its gates and measures both sides through the key the input gave, masked', () => {
    expect(result.stdout).toMatch(/Gate: gemini round-trip\n(::debug::.*\n)*ok · /);
    const own = world.model.requests.filter(
      (r) => r.path.includes(':streamGenerateContent') && /^(pos|neg):/.test(r.view?.query ?? ''),
    );
    expect(own, actionLog(result)).toHaveLength(4);
    expect(result.stdout).toContain(`::add-mask::${GEMINI_KEY}`);
    const comment = world.github.comments(1)[0]?.body ?? '';
    for (const text of [comment, result.summary]) {
      expect(text).not.toContain(GEMINI_KEY);
      expect(text).toContain(`Gemini CLI ${AGENTS.gemini.pinnedVersion}`);
    }
  });

  it('writes a report whose only agent is gemini, its runs decided', async () => {
    const reportPath = result.outputs.reports?.split('\n')[0] ?? '';
    const report = reportSchema.parse(JSON.parse(await readFile(reportPath, 'utf8')));
    expect(report.agents.map((a) => [a.name, a.version])).toEqual([['gemini', AGENTS.gemini.pinnedVersion]]);
    for (const side of [report.candidate, report.baseline]) {
      expect(side?.totals.positives).toEqual({ triggered: 1, runs: 1 });
      expect(side?.totals.negatives).toEqual({ fired: 0, runs: 1 });
    }
  });
});

/**
 * `routing-matrix: true` on Gemini alone, as `matrix --agent gemini` does: every skill of the
 * repository installed in every Gemini run as Gemini lists it, each run in the cell of the skill its
 * `activate_skill` named (the model sends every `pos` query to tiny). Runs: the gates, the changed
 * skill's 2, the matrix's 4.
 */
describe('agents: gemini, routing-matrix', () => {
  let job: ActionResult;

  beforeAll(async () => {
    const { repo } = world;
    const before = repo.git('rev-parse', 'HEAD');
    const head = await repo.commit('Add wave', {
      '.claude/skills/wave/SKILL.md': skillFile('wave', 'Wave at the user. Use when a wave is asked for.'),
      '.claude/skills/wave/evals.json': evalsJson([
        { query: 'pos-wave: wave at me', should_trigger: true },
        { query: 'neg-wave: sort this list', should_trigger: false },
      ]),
    });
    job = await runAction({
      cwd: repo.dir,
      eventName: 'push',
      payload: pushPayload({ before, after: head }),
      inputs: {
        agents: 'gemini',
        'gemini-api-key': GEMINI_KEY,
        'github-token': TOKEN,
        'routing-matrix': 'true',
        runs: '1',
        timeout: '60',
      },
      env: world.env({
        PATH: `${path.join(world.work, 'bin')}:${process.env.PATH ?? ''}`,
        GITHUB_SHA: head,
        GITHUB_REF: 'refs/heads/reword',
        GOOGLE_GEMINI_BASE_URL: world.model.url,
        FAKE_NPM_LOG: npmLog,
        FAKE_NPM_GEMINI: GEMINI_BIN,
      }),
    });
  }, 600_000);

  it('measures the matrix on Gemini: a load goes to the skill activated, a text answer to none/other', async () => {
    expect(job.code, actionLog(job)).toBe(0);
    const out = path.join(world.repo.dir, 'skilltrigger-results');
    const [file] = (await readdir(out)).filter((f) => f.endsWith('-matrix.json'));
    const report = matrixReportSchema.parse(JSON.parse(await readFile(path.join(out, file ?? ''), 'utf8')));
    expect(report.agent).toBe('gemini');
    expect(report.cli.version).toBe(AGENTS.gemini.pinnedVersion);
    expect(report.skills.map((k) => k.name)).toEqual(['tiny', 'wave']);
    const where = Object.fromEntries(
      report.queries.map((q) => [q.query, { ...q.loaded, none: q.noneOther }]),
    );
    expect(where).toEqual({
      'pos: say hello tinily': { tiny: 1, none: 0 },
      'neg: what time is it': { none: 1 },
      'pos-wave: wave at me': { tiny: 1, none: 0 },
      'neg-wave: sort this list': { none: 1 },
    });
  });
});
