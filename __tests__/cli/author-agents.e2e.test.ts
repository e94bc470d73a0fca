import { cp, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEvalSet } from '../../src/inputs/eval-set.js';
import { authorPromptKind } from '../../src/simulated/description-script.js';
import type { RecordedRequest } from '../../src/simulated/model.js';
import { REPO_ROOT, runCli } from '../fakes/cli.js';
import {
  GOOD,
  type ImproveResult,
  type ImproveScenario,
  INCUMBENT,
  startImproveScenario,
} from '../fakes/improve-scenario.js';

/**
 * `init` and `improve` on another agent, through the real `codex` and `gemini` against the simulated
 * model, which answers the author prompts on their APIs by the same rule as on claude's: a draft
 * through each, one improve round end to end on each (its gates, its runs, its rewrite call), and
 * the failures named as each agent's facts name its CLI. One world for the file.
 */
const CODEX_BIN = path.resolve('node_modules/.bin/codex');
const GEMINI_BIN = path.resolve('node_modules/.bin/gemini');

let scenario: ImproveScenario;

beforeAll(async () => {
  scenario = await startImproveScenario('author-agents-e2e');
});

afterAll(async () => {
  await scenario?.world.close();
});

const agentEnv = (): NodeJS.ProcessEnv => ({
  OPENAI_BASE_URL: `${scenario.world.model.url}/v1`,
  OPENAI_API_KEY: 'sk-author-codex-0123456789',
  GOOGLE_GEMINI_BASE_URL: scenario.world.model.url,
  GEMINI_API_KEY: 'author-gemini-key-0123456789',
});

const authorRequests = (from: number) =>
  scenario.world.model.requests
    .slice(from)
    .filter((r) => r.turn === 1 && r.view !== undefined && authorPromptKind(r.view.query) !== undefined);

async function skillCopy(name: string): Promise<string> {
  const dir = path.join(scenario.world.work, name, 'handoff');
  await cp(path.join(REPO_ROOT, 'examples', 'handoff', 'SKILL.md'), path.join(dir, 'SKILL.md'));
  return dir;
}

describe('init --agent', () => {
  it.each([
    ['codex', ['--codex', CODEX_BIN], /^\/v1\/responses$/, 'Codex'],
    ['gemini', ['--gemini', GEMINI_BIN], /:streamGenerateContent$/, 'Gemini CLI'],
  ] as const)('drafts the eval set through %s', async (agent, bin, apiPath, label) => {
    const dir = await skillCopy(`init-${agent}`);
    const from = scenario.world.model.requests.length;
    const r = await runCli(['init', '--skill', dir, '--count', '8', '--agent', agent, ...bin], {
      env: { ...scenario.world.claude.env, ...agentEnv() },
    });
    expect(r.stderr).toContain(`init: asking the default model through ${label} for 8 prompts`);
    expect(r.code).toBe(0);
    const file = path.join(dir, 'evals', 'evals.json');
    expect(parseEvalSet(await readFile(file, 'utf8'), file, 'handoff').items).toHaveLength(8);
    // Every author call (the draft, and the contexts when a prompt presupposes a session) went to
    // that agent's API, its prompt naming that agent; nothing reached claude's.
    const asked: RecordedRequest[] = authorRequests(from);
    expect(asked.map((q) => authorPromptKind(q.view?.query ?? ''))).toContain('draft');
    for (const q of asked) {
      expect(q.path).toMatch(apiPath);
      expect(q.view?.query).toContain(`author of a ${label} skill`);
    }
    expect(
      scenario.world.model.requests.slice(from).filter((q) => q.path.startsWith('/v1/messages')),
    ).toEqual([]);
  });

  it('names a failure as the agent names its CLI, with the fix for that agent, and writes nothing', async () => {
    const dir = await skillCopy('init-fail');
    const missing = await runCli(
      ['init', '--skill', dir, '--agent', 'codex', '--codex', '/nonexistent/codex'],
      {
        env: { ...scenario.world.claude.env, ...agentEnv() },
      },
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('init: no draft: the Codex CLI could not be started');
    const { OPENAI_API_KEY: _key, ...noKey } = agentEnv();
    const env: NodeJS.ProcessEnv = { ...scenario.world.claude.env, ...noKey };
    delete env.OPENAI_API_KEY;
    delete env.CODEX_API_KEY;
    const keyless = await runCli(['init', '--skill', dir, '--agent', 'codex', '--codex', CODEX_BIN], { env });
    expect(keyless.code).toBe(3);
    expect(keyless.stderr).toContain(
      'init: no draft: the API call failed (auth): no API key in CODEX_API_KEY or OPENAI_API_KEY. Fix: run `skilltrigger preflight --agent codex`',
    );
    await expect(readFile(path.join(dir, 'evals', 'evals.json'))).rejects.toThrow();
  });

  it('refuses a list of agents before anything is spent', async () => {
    const dir = await skillCopy('init-list');
    const r = await runCli(['init', '--skill', dir, '--agent', 'claude,codex'], {
      env: scenario.world.claude.env,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('init runs on one agent per call; got --agent claude,codex');
  });
});

describe('improve --agent: refused before anything is spent', () => {
  it('a list of agents, and a context on an agent whose runs cannot start from one', async () => {
    const dir = await skillCopy('improve-refused');
    const evalFile = await scenario.world.write(
      'improve-refused/evals.json',
      JSON.stringify([
        { query: 'r: write the handoff', should_trigger: true },
        { query: 'r: what is a monad', should_trigger: false },
        { query: 'r: hand the work over', should_trigger: true, split: 'holdout' },
        { query: 'r: sort this list', should_trigger: false, split: 'holdout' },
      ]),
    );
    const from = scenario.world.model.requests.length;
    const base = ['improve', '--skill', dir, '--eval', evalFile];
    const env = { ...scenario.world.claude.env, ...agentEnv() };
    const list = await runCli([...base, '--agent', 'codex,gemini'], { env });
    expect(list.code).toBe(1);
    expect(list.stderr).toContain('improve runs on one agent per call; got --agent codex,gemini');
    const fill = await runCli(
      [...base, '--agent', 'gemini', '--gemini', GEMINI_BIN, '--context-fill', '2000'],
      {
        env,
      },
    );
    expect(fill.code).toBe(1);
    expect(fill.stderr).toContain('--context-fill: Gemini CLI cannot be measured with a context yet');
    expect(scenario.world.model.requests.length).toBe(from);
  });
});

describe('improve --agent codex', () => {
  let s: ImproveResult;

  beforeAll(async () => {
    scenario.rewrites([GOOD]);
    s = await scenario.improve(
      'improve-codex',
      ['--iterations', '1', '--agent', 'codex', '--codex', CODEX_BIN],
      {
        env: agentEnv(),
      },
    );
  }, 900_000);

  it('runs one round on Codex: its gates, its runs, its rewrite call, and the winner that held', () => {
    const { r, report } = s;
    expect(r.code).toBe(0);
    if (report === undefined) throw new Error(`no improve report: ${r.stderr}`);
    expect(r.stderr).toMatch(/codex round-trip/);
    expect(report.settings.agent).toBe('codex');
    expect(report.original.description).toBe(INCUMBENT);
    expect(report.candidates).toHaveLength(1);
    expect(report.candidates[0]).toMatchObject({ description: GOOD, decision: 'accepted' });
    expect(report.final).toMatchObject({ winner: GOOD, recommendation: 'adopt', written: false });
    expect(s.markdown).toContain('· agent Codex ·');
    // Every measured run and the rewrite call went through Codex's API; claude's was never asked.
    expect(s.measured.length).toBeGreaterThan(0);
    for (const q of [...s.measured, ...s.rewritePrompts]) expect(q.path).toBe('/v1/responses');
    expect(s.rewritePrompts).toHaveLength(1);
    expect(s.rewritePrompts[0]?.view?.query).toContain('description of a Codex skill');
  });
});

describe('improve --agent gemini', () => {
  let s: ImproveResult;
  let since: RecordedRequest[];

  beforeAll(async () => {
    scenario.rewrites([GOOD]);
    const from = scenario.world.model.requests.length;
    // One run a query, the fewest Gemini starts that reach a verdict: two train positives cannot
    // make an improvement significant, so the round keeps the original, on rates that show each run decided.
    s = await scenario.improve(
      'improve-gemini',
      ['--iterations', '1', '--agent', 'gemini', '--gemini', GEMINI_BIN],
      { runs: 1, env: agentEnv() },
    );
    since = scenario.world.model.requests.slice(from);
  }, 900_000);

  it("runs one round on Gemini CLI: its gates, its runs, its rewrite call on the Gemini API, none on Claude's", () => {
    const { r, report } = s;
    expect(r.code, r.stderr).toBe(0);
    if (report === undefined) throw new Error(`no improve report: ${r.stderr}`);
    expect(report.settings.agent).toBe('gemini');
    // The scripted rates, as Gemini CLI's runs decided them: the original loads on nothing, the rewrite on each positive.
    expect(report.candidates[0]).toMatchObject({
      description: GOOD,
      decision: 'rejected',
      train: {
        incumbent: { positives: { hits: 0, runs: 2 }, negatives: { hits: 0, runs: 2 } },
        candidate: { positives: { hits: 2, runs: 2 }, negatives: { hits: 0, runs: 2 } },
      },
    });
    expect(report.final).toMatchObject({ winner: null, recommendation: 'keep-original', written: false });
    // Every measured run and the rewrite call went through the Gemini API; claude's was never asked.
    expect(s.measured.length).toBeGreaterThan(0);
    expect(s.rewritePrompts).toHaveLength(1);
    for (const q of [...s.measured, ...s.rewritePrompts]) expect(q.path).toMatch(/:streamGenerateContent$/);
    expect(s.rewritePrompts[0]?.view?.query).toContain('description of a Gemini CLI skill');
    expect(since.filter((q) => q.path.startsWith('/v1/messages'))).toEqual([]);
  });
});
