import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODEX_ROUND_TRIP_QUERY } from '../../src/agents/codex/launch.js';
import { AGENTS } from '../../src/agents/registry.js';
import { costOf, formatUsd } from '../../src/cost/cost.js';
import { DEFAULT_PRICE_TABLE } from '../../src/cost/price-table.js';
import { matrixReportSchema } from '../../src/schemas/matrix.js';
import { reportSchema } from '../../src/schemas/report.js';
import { GATE_QUERY } from '../../src/simulated/model.js';
import { listedNameOf } from '../../src/simulated/route.js';
import { type ActionWorld, actionLog, startActionWorld } from '../fakes/action-world.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { writeFakeNpm } from '../fakes/fake-npm.js';
import { parseJunit } from '../fakes/junit-shape.js';
import { liveProcessesIn, processesIn, projectUnder } from '../fakes/process-group.js';
import {
  type ActionResult,
  evalsJson,
  pullRequestPayload,
  pushPayload,
  runAction,
  skillFile,
} from './harness.js';

/**
 * `agents: claude,codex`: one pull request measured on the real `claude` and the real `codex`
 * (the simulated model answers claude's Messages API and Codex's Responses API on one port), the
 * base description measured here beside the PR's (paired), each agent compared on its own runs.
 *
 * Codex is got as the runner would get it: no `codex-path`, so `@openai/codex@<codex-version>` is
 * installed into its private prefix and saved to the cache fake. The `npm` on PATH is a tiny
 * script (the registry is not reachable offline, fakes/fake-npm.ts), as in install.e2e.test.ts: it
 * records its argv and links the project's own pinned `codex` into the prefix.
 *
 * Runs: 2 queries × 1 run × 2 sides × 2 agents = 8 measured runs (4 claude, 4 codex), plus each
 * agent's gates; then a job on Codex alone with a sibling, cancelled in its second run (Codex's
 * gates, 2 codex runs); then a job on Codex alone with the routing matrix (Codex's gates, 2 runs of
 * the changed skill, 4 runs of the matrix); then a job on Codex alone refused by `max-cost-usd`
 * (Codex's gates only).
 */

const TOKEN = 'ghs_actions_token_for_agents';
const OPENAI_KEY = 'sk-openai-agents-e2e-secret';
const SKILL = '.claude/skills/tiny/SKILL.md';
const CODEX_BIN = path.resolve('node_modules/.bin/codex');
const CODEX_KEY = `skilltrigger-codex-${AGENTS.codex.pinnedVersion}-linux-${process.arch}`;

let world: ActionWorld;
let result: ActionResult;
let npmLog: string;
let haltRuns = 0;
/**
 * The cancelled job's early start, watched at its Codex round trip: the temp projects (under the
 * job's TMPDIR, the gate's own aside) where a live codex reads its prompt from stdin (`-- -`).
 */
const gateWatch = { tmp: '', waiting: [] as string[] };

/**
 * A job's environment: the fake `npm` (which installs the pinned Codex) first on PATH, the job's
 * head commit, and Codex's endpoint; its key comes from the openai-api-key input alone.
 */
function codexJobEnv(head: string, extra: Record<string, string> = {}) {
  return world.env({
    PATH: `${path.join(world.work, 'bin')}:${process.env.PATH ?? ''}`,
    GITHUB_SHA: head,
    OPENAI_BASE_URL: `${world.model.url}/v1`,
    FAKE_NPM_LOG: npmLog,
    FAKE_NPM_CODEX: CODEX_BIN,
    ...extra,
  });
}

beforeAll(async () => {
  world = await startActionWorld({
    name: 'agents-e2e',
    tokens: { [TOKEN]: { login: 'github-actions[bot]', type: 'Bot', installation: true } },
    // Both agents load the skill on the positive and answer the negative in text. The cancelled
    // job's first run loads the skill, and its second waits until the job is cancelled, whichever
    // query the plan puts first.
    script: (req) => {
      if (req.query === CODEX_ROUND_TRIP_QUERY && gateWatch.tmp !== '') {
        const gate = projectUnder(gateWatch.tmp, req.cwd);
        const onStdin = processesIn(gateWatch.tmp).filter((p) => p.argv.slice(-2).join(' ') === '-- -');
        gateWatch.waiting = [...new Set(onStdin.map((p) => projectUnder(gateWatch.tmp, p.cwd)))].filter(
          (p): p is string => p !== undefined && p !== gate,
        );
      }
      if (req.query.startsWith('halt')) return haltRuns++ === 0 ? { kind: 'skill' } : { kind: 'hang' };
      // The routing matrix's job: route's positive loads route, its negative the sibling tiny.
      if (req.query.startsWith('route-pos')) return { kind: 'skill', name: listedNameOf(req, 'route') };
      if (req.query.startsWith('route-neg')) return { kind: 'skill', name: listedNameOf(req, 'tiny') };
      return req.query !== GATE_QUERY && req.query.startsWith('pos')
        ? { kind: 'skill', name: listedNameOf(req, 'tiny') }
        : undefined;
    },
  });
  await writeFakeNpm(path.join(world.work, 'bin'), 'codex');
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
      agents: 'claude,codex',
      'anthropic-api-key': 'sk-test',
      'openai-api-key': OPENAI_KEY,
      'github-token': TOKEN,
      'claude-path': CLAUDE_BIN,
      competition: 'isolated',
      baseline: 'measure',
      runs: '1',
      timeout: '60',
    },
    env: codexJobEnv(head, { GITHUB_REF: 'refs/pull/1/merge' }),
  });
}, 600_000);

afterAll(async () => {
  await world?.close();
});

describe('agents: claude,codex on a pull request', () => {
  it('installs Codex at codex-version into its own prefix and caches it beside Claude Code', async () => {
    expect(result.code, actionLog(result)).toBe(0);
    const calls = (await readFile(npmLog, 'utf8')).split('\n').filter(Boolean);
    expect(calls).toHaveLength(1);
    const argv: unknown = JSON.parse(calls[0] ?? '[]');
    expect(argv).toContain(`@openai/codex@${AGENTS.codex.pinnedVersion}`);
    expect(argv).toContain(
      path.join(world.repo.dir, '.skilltrigger-cache', 'codex', AGENTS.codex.pinnedVersion),
    );
    expect(world.cache.entries.map((e) => e.key)).toContain(CODEX_KEY);
  });

  it('runs each agent’s gates and measures every query on both, through the key the input gave', () => {
    // Codex's auth gate passes only with a key: the step's env has none, so the input's reached it.
    expect(result.stdout).toContain('Gate: codex auth');
    expect(result.stdout).toMatch(/Gate: codex round-trip\n(::debug::.*\n)*ok · /);
    const own = world.model.requests.filter((r) => /^(pos|neg):/.test(r.view?.query ?? ''));
    const firstTurns = (api: string) => own.filter((r) => r.path.endsWith(api) && r.turn === 1).length;
    expect(firstTurns('/messages'), actionLog(result)).toBe(4);
    expect(firstTurns('/responses'), actionLog(result)).toBe(4);
    // Masked in the log, and never in what the Action writes for people.
    expect(result.stdout).toContain(`::add-mask::${OPENAI_KEY}`);
    const comment = world.github.comments(1)[0]?.body ?? '';
    for (const text of [comment, result.summary]) expect(text).not.toContain(OPENAI_KEY);
  });

  it('shows each agent in the comment and the summary: its comparison, its columns, its version', () => {
    const comments = world.github.comments(1);
    expect(comments, actionLog(result)).toHaveLength(1);
    for (const text of [comments[0]?.body ?? '', result.summary]) {
      expect(text).toContain('Agent by agent:');
      expect(text).toMatch(/^\| Agent \| Positives triggered \|.*\| Agent label \|$/m);
      expect(text).toMatch(/^\| claude \| 1\/1 \(100%\) → 1\/1 \(100%\) \|/m);
      expect(text).toMatch(/^\| codex \| 1\/1 \(100%\) → 1\/1 \(100%\) \|/m);
      expect(text).toContain('Totals, all agents pooled');
      // The per-query table: a column per agent, baseline → this PR.
      expect(text).toMatch(
        /^\| Id \| Query \| Should load \| claude: baseline → This PR \| codex: baseline → This PR \|$/m,
      );
      // Each agent's own counts of the query, not the pooled ones (nor none).
      expect(text).toMatch(/^\| [^|]+ \| [^|]+ \| yes \| 1\/1 → 1\/1 · [^|]+ \| 1\/1 → 1\/1 · [^|]+ \|$/m);
      expect(text).toContain(`Codex ${AGENTS.codex.pinnedVersion} (its default model)`);
    }
  });

  it('writes one report naming both agents, and a JUnit suite per agent and side', async () => {
    const reportPath = result.outputs.reports?.split('\n')[0] ?? '';
    const report = reportSchema.parse(JSON.parse(await readFile(reportPath, 'utf8')));
    expect(report.agents.map((a) => [a.name, a.version])).toEqual([
      ['claude', expect.any(String)],
      ['codex', AGENTS.codex.pinnedVersion],
    ]);
    expect(Object.keys(report.candidate.byAgent ?? {})).toEqual(['claude', 'codex']);
    const junit = parseJunit(await readFile(result.outputs.junit?.split('\n')[0] ?? '', 'utf8'));
    // Paired: each side's suites, one per agent.
    expect(junit.suites.map((s) => s.name)).toEqual([
      'tiny (baseline) · claude',
      'tiny (baseline) · codex',
      'tiny (candidate) · claude',
      'tiny (candidate) · codex',
    ]);
    expect(junit.suites.map((s) => s.tests)).toEqual([2, 2, 2, 2]);
  });
});

/**
 * A job on Codex alone, with the default competition (the repository's other skill, tiny,
 * installed beside the stub as Codex lists it), cancelled while its second run waits on the model.
 */
describe('agents: codex, siblings, a cancelled job', () => {
  let cancelled: ActionResult;
  let tmp: string;
  let tmpBefore: string[];
  let leftRunning: string[];

  beforeAll(async () => {
    const { repo } = world;
    const before = repo.git('rev-parse', 'HEAD');
    const head = await repo.commit('Add halt', {
      '.claude/skills/halt/SKILL.md': skillFile('halt', 'Halt the tiny way. Use when testing a cancel.'),
      '.claude/skills/halt/evals.json': evalsJson([
        { query: 'halt: stop tinily', should_trigger: true },
        { query: 'halt: wait for nothing', should_trigger: false },
      ]),
    });
    tmp = path.join(world.work, 'tmp');
    tmpBefore = (await readdir(tmp)).sort();
    gateWatch.tmp = tmp;
    cancelled = await runAction({
      cwd: repo.dir,
      eventName: 'push',
      payload: pushPayload({ before, after: head }),
      inputs: {
        agents: 'codex',
        'openai-api-key': OPENAI_KEY,
        'github-token': TOKEN,
        runs: '1',
        timeout: '120',
      },
      env: codexJobEnv(head),
      interrupt: { signal: 'SIGTERM', when: /query \d\/2 · run 1\/1 · / },
    });
    gateWatch.tmp = '';
    leftRunning = liveProcessesIn(tmp);
  }, 300_000);

  it('starts the first Codex run before the gates, waiting on stdin through the round trip, and measures on it', () => {
    expect(gateWatch.waiting, actionLog(cancelled)).toHaveLength(1);
    const firstHalt = world.model.requests.find(
      (r) => r.path.endsWith('/responses') && r.view?.query.startsWith('halt'),
    );
    expect(projectUnder(tmp, firstHalt?.view?.cwd)).toBe(gateWatch.waiting[0]);
  });

  it('installs the sibling Codex lists in each Codex run, as its SKILL.md holds it', async () => {
    const first = world.model.requests.find(
      (r) => r.path.endsWith('/responses') && r.view?.query.startsWith('halt'),
    );
    expect(first?.view?.listing, actionLog(cancelled)).toContainEqual({
      name: expect.stringMatching(/^tiny-stub-/),
      description: 'Greet the user the tiny way. Use when asked for a tiny hello.',
    });
    const report = reportSchema.parse(
      JSON.parse(await readFile(cancelled.outputs.reports?.split('\n')[0] ?? '', 'utf8')),
    );
    expect(report.siblings?.members.map((m) => m.name)).toEqual(['tiny']);
  });

  it('kills the Codex run in flight and leaves no codex process and no project folder', async () => {
    expect(cancelled.code, actionLog(cancelled)).toBe(3);
    expect(cancelled.failure).toMatch(/^no verdict for halt: the run was interrupted/);
    // The cancel came during the second run: while its project was made, or while Codex waited
    // on the model's answer (then its request is the second).
    expect(haltRuns, actionLog(cancelled)).toBeGreaterThanOrEqual(1);
    expect(cancelled.stdout).not.toMatch(/run 1\/1 · timeout/);
    expect(cancelled.stdout).toMatch(/query \d\/2 · run 1\/1 · triggered/);
    expect(leftRunning).toEqual([]);
    expect((await readdir(tmp)).sort()).toEqual(tmpBefore);
  });
});

/**
 * `routing-matrix: true` on Codex alone: every skill of the repository installed in every Codex
 * run as Codex lists it, each run attributed to the skill whose SKILL.md it read (halt, its eval
 * set removed, competes only).
 */
describe('agents: codex, routing-matrix', () => {
  let job: ActionResult;

  beforeAll(async () => {
    const { repo } = world;
    const before = repo.git('rev-parse', 'HEAD');
    repo.git('rm', '-q', '.claude/skills/halt/evals.json');
    const head = await repo.commit('Add route', {
      '.claude/skills/route/SKILL.md': skillFile(
        'route',
        'Route the parcels. Use when a parcel needs a route.',
      ),
      '.claude/skills/route/evals.json': evalsJson([
        { query: 'route-pos: route this parcel', should_trigger: true },
        { query: 'route-neg: say hi to the courier', should_trigger: false },
      ]),
    });
    job = await runAction({
      cwd: repo.dir,
      eventName: 'push',
      payload: pushPayload({ before, after: head }),
      inputs: {
        agents: 'codex',
        'openai-api-key': OPENAI_KEY,
        'github-token': TOKEN,
        'routing-matrix': 'true',
        runs: '1',
        timeout: '60',
      },
      env: codexJobEnv(head),
    });
  }, 300_000);

  it('measures the matrix on Codex: a load goes to the skill read, a miss to none/other', async () => {
    expect(job.code, actionLog(job)).toBe(0);
    const out = path.join(world.repo.dir, 'skilltrigger-results');
    const [file] = (await readdir(out)).filter((f) => f.endsWith('-matrix.json'));
    const report = matrixReportSchema.parse(JSON.parse(await readFile(path.join(out, file ?? ''), 'utf8')));
    expect(report.agent).toBe('codex');
    expect(report.cli.version).toBe(AGENTS.codex.pinnedVersion);
    expect(report.skills.map((k) => k.name)).toEqual(['halt', 'route', 'tiny']);
    const where = Object.fromEntries(
      report.queries.map((q) => [q.query, { ...q.loaded, none: q.noneOther }]),
    );
    expect(where).toEqual({
      'route-pos: route this parcel': { route: 1, none: 0 },
      'route-neg: say hi to the courier': { tiny: 1, none: 0 },
      'pos: say hello tinily': { tiny: 1, none: 0 },
      'neg: what time is it': { none: 1 },
    });
  });
});

/**
 * `max-cost-usd` with Codex: the job is estimated from Codex's own round trip, priced as the model
 * it runs (gpt-5 here), and a budget below the estimate refuses before any measured run. Runs:
 * Codex's gates only.
 */
describe('agents: codex, max-cost-usd below the estimate', () => {
  let refused: ActionResult;
  let from: number;

  beforeAll(async () => {
    const { repo } = world;
    const before = repo.git('rev-parse', 'HEAD');
    const head = await repo.commit('Add thrift', {
      '.claude/skills/thrift/SKILL.md': skillFile('thrift', 'Count the pennies. Use when testing a budget.'),
      '.claude/skills/thrift/evals.json': evalsJson([
        { query: 'thrift: count tinily', should_trigger: true },
        { query: 'thrift: spend nothing', should_trigger: false },
      ]),
    });
    from = world.model.requests.length;
    refused = await runAction({
      cwd: repo.dir,
      eventName: 'push',
      payload: pushPayload({ before, after: head }),
      inputs: {
        agents: 'codex',
        model: 'gpt-5',
        'openai-api-key': OPENAI_KEY,
        'github-token': TOKEN,
        competition: 'isolated',
        runs: '1',
        'max-cost-usd': '0.0001',
      },
      env: codexJobEnv(head),
    });
  }, 300_000);

  it("refuses with exit 1 at the estimate from Codex's round trip, and measures nothing", () => {
    expect(refused.code, actionLog(refused)).toBe(1);
    const gate = world.model.requests
      .slice(from)
      .filter((r) => r.path.endsWith('/responses') && r.view?.query === CODEX_ROUND_TRIP_QUERY && r.usage);
    expect(gate, actionLog(refused)).toHaveLength(1);
    const trip = gate[0]?.usage;
    const perRun = costOf(
      {
        inputTokens: trip?.input ?? 0,
        outputTokens: trip?.output ?? 0,
        cacheReadInputTokens: 0,
        cacheCreationInputTokens: 0,
      },
      'gpt-5',
      DEFAULT_PRICE_TABLE,
    );
    expect(perRun.kind === 'priced' && perRun.usd > 0).toBe(true);
    const estimate = formatUsd(2 * (perRun.kind === 'priced' ? perRun.usd : 0));
    expect(refused.stdout).toContain(`estimate: 2 runs over 1 skill, ${estimate}`);
    expect(refused.failure).toBe(
      `input max-cost-usd: the job's plan is estimated at ${estimate} for 2 runs, more than max-cost-usd $0.0001, which buys about 0 of them; nothing was measured. Fix: raise max-cost-usd, or plan fewer runs (runs, fewer queries, models or skills)`,
    );
    // Nothing measured: no eval query reached the model.
    const asked = world.model.requests.slice(from).map((r) => r.view?.query ?? '');
    expect(asked.filter((q) => q.startsWith('thrift'))).toEqual([]);
  });
});
