/**
 * Codex's warm standby through the REAL `codex` (pinned, node_modules/.bin/codex) against the
 * simulated model (docs/codex.md, "A warm standby"): driven as the loop drives an agent (each run
 * awaited, the next runs told once it has started), a standby waits between runs and sends nothing
 * until its prompt; each run's exchange ends before the next run's first request; its decisions are
 * a cold loop's, and its first request is a cold run's; nothing is left behind. Every Codex, warm or
 * cold, starts from the environment the loop was handed, not from this process's own.
 */
import { mkdtemp, readdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codexAgent } from '../../../src/agents/codex/agent.js';
import type { AgentRunResult, UpcomingRun } from '../../../src/agents/runs.js';
import type { RecordedRequest, SimulatedModel } from '../../../src/simulated/model.js';
import { startSimulatedModel } from '../../../src/simulated/model.js';
import { liveProcessesIn, liveProjectsUnder, processesIn } from '../../fakes/process-group.js';

const CODEX_BIN = resolve('node_modules/.bin/codex');
const QUERIES = [
  'hit: write the handoff notes',
  'miss: what time is it',
  'hit: end the session',
  'miss: hello',
];

let model: SimulatedModel;
let root = '';

/** A variable only the loop's handed environment holds, and one only this process's own holds. */
const HANDED_ONLY = 'SKILLTRIGGER_TEST_HANDED_ONLY';
const PROCESS_ONLY = 'SKILLTRIGGER_TEST_PROCESS_ONLY';
let handed: NodeJS.ProcessEnv = {};

/** Where the loop's runs start: the pinned codex, the handed environment, the simulated model. */
const launch = () => ({
  bin: CODEX_BIN,
  env: handed,
  provider: { baseUrl: `${model.url}/v1`, apiKey: 'sk-test-codex' },
});

beforeAll(async () => {
  model = await startSimulatedModel({
    chunkDelayMs: 0,
    recordBodies: true,
    script: (req) =>
      req.query.startsWith('hang')
        ? { kind: 'hang' }
        : req.query.startsWith('hit')
          ? { kind: 'read-stub' }
          : { kind: 'text' },
  });
  root = await realpath(await mkdtemp(join(tmpdir(), 'skilltrigger-codex-standby-')));
  handed = { ...process.env, [HANDED_ONLY]: 'handed' };
  process.env[PROCESS_ONLY] = 'this process only';
});

afterAll(async () => {
  delete process.env[PROCESS_ONLY];
  await model?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

interface LoopRun {
  result: AgentRunResult;
  /** The temp projects with a live process just before the run: the standby waiting for it. */
  waitingBefore: string[];
  /** The model's requests while the run ran. */
  requests: RecordedRequest[];
  /** How many requests the model had seen before the run, and once it ended. */
  seenBefore: number;
  seenAfter: number;
  /** The environments of the `codex exec` processes seen under `root` before and while the run ran. */
  envs: Record<string, string>[];
}

/** The environments of the `codex exec --json` processes under `root` (the launcher and the native binary). */
const codexEnvs = () =>
  processesIn(root)
    .filter((p) => p.argv.includes('exec') && p.argv.includes('--json'))
    .map((p) => p.env);

/** The queries run one after another, as the loop runs them, with `standby` standbys. */
async function loop(standby: number): Promise<LoopRun[]> {
  const agent = codexAgent(
    launch(),
    [{ skillName: 'handoff', description: 'Write HANDOFF.md when ending a session.', root }],
    { standby },
  );
  const runs: LoopRun[] = [];
  for (const [i, query] of QUERIES.entries()) {
    const waitingBefore = liveProjectsUnder(root);
    const envs = codexEnvs();
    const seenBefore = model.requests.length;
    const running = agent.run({ query, side: 0, timeoutMs: 60_000 });
    const watch = setInterval(() => envs.push(...codexEnvs()), 50);
    // The next runs, and one more at the end: a standby that is never prompted, then discarded.
    const upcoming: UpcomingRun[] = QUERIES.slice(i + 1).map(() => ({ agent: 'codex', side: 0 }));
    agent.ahead?.(upcoming.length > 0 ? upcoming : [{ agent: 'codex', side: 0 }]);
    const result = await running.finally(() => clearInterval(watch));
    runs.push({
      envs,
      result,
      waitingBefore,
      requests: model.requests.slice(seenBefore),
      seenBefore,
      seenAfter: model.requests.length,
    });
  }
  await agent.settle?.();
  return runs;
}

/** A first request's body with what differs between any two runs made alike: the stub's random name, the run's folder, ids, the turn's start, and key order. */
function normalised(request: RecordedRequest | undefined): string {
  const text = JSON.stringify(request?.body)
    .replaceAll(root, '<ROOT>')
    .replace(/skilltrigger-[A-Za-z0-9-]+/g, '<FOLDER>')
    .replace(/-stub-[0-9a-f]{8}/g, '-stub-<RANDOM>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<UUID>')
    .replace(/turn_started_at_unix_ms\\":\d+/g, 'turn_started_at_unix_ms\\":<MS>');
  return JSON.stringify(sorted(JSON.parse(text)));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => [k, sorted(v)]),
  );
}

const decisions = (runs: LoopRun[]) => runs.map((r) => [r.result.outcome.kind, r.result.loaded?.kind]);

describe("Codex's warm standby, through the real binary", () => {
  it('waits silent for its prompt, stays serial towards the model, decides as cold, sends what cold sends, leaves nothing', async () => {
    const warm = await loop(1);
    const cold = await loop(0);

    // A standby waited before every run but the first, and none before a cold run.
    expect(warm.map((r) => r.waitingBefore.length)).toEqual([0, 1, 1, 1]);
    expect(cold.map((r) => r.waitingBefore.length)).toEqual([0, 0, 0, 0]);
    for (const runs of [warm, cold]) {
      for (const [i, run] of runs.entries()) {
        // Nothing reached the model between two runs (a waiting standby sent nothing), and every
        // request while a run ran was that run's, its standby for the next run silent meanwhile.
        if (i > 0) expect(run.seenBefore).toBe(runs[i - 1]?.seenAfter);
        expect(run.requests.length).toBeGreaterThan(0);
        expect(run.requests.map((r) => r.view?.query)).toEqual(run.requests.map(() => QUERIES[i]));
        // Each run's exchange ended before the next run's first request.
        const next = runs[i + 1]?.requests[0];
        if (next) for (const r of run.requests) expect(r.endedAt ?? Infinity).toBeLessThanOrEqual(next.at);
      }
    }

    expect(decisions(warm)).toEqual([
      ['triggered', 'stub'],
      ['not-triggered', 'none'],
      ['triggered', 'stub'],
      ['not-triggered', 'none'],
    ]);
    expect(decisions(warm)).toEqual(decisions(cold));

    // The prompt written to a waiting Codex makes the request a cold run's argv makes.
    for (const i of QUERIES.keys()) {
      expect(normalised(warm[i]?.requests[0])).toBe(normalised(cold[i]?.requests[0]));
    }

    // Every Codex, the standbys and the cold starts, started from the environment the loop was
    // handed: a variable only it holds is there, one only this process holds is not.
    for (const runs of [warm, cold]) {
      const envs = runs.flatMap((r) => r.envs);
      expect(envs.length).toBeGreaterThan(0);
      expect(envs.map((e) => e[HANDED_ONLY])).toEqual(envs.map(() => 'handed'));
      expect(envs.flatMap((e) => e[PROCESS_ONLY] ?? [])).toEqual([]);
    }

    // Every standby, the one never prompted included, is gone with its project and CODEX_HOME.
    expect(await readdir(root)).toEqual([]);
    expect(liveProcessesIn(root)).toEqual([]);
  }, 180_000);

  it('an interrupt mid-run kills the prompted standby; the one waiting is discarded; nothing is left', async () => {
    const agent = codexAgent(
      launch(),
      [{ skillName: 'handoff', description: 'Write HANDOFF.md when ending a session.', root }],
      { standby: 1 },
    );
    const first = agent.run({ query: 'miss: first', side: 0, timeoutMs: 60_000 });
    agent.ahead?.([{ agent: 'codex', side: 0 }]);
    expect((await first).outcome.kind).toBe('not-triggered');
    expect(liveProjectsUnder(root)).toHaveLength(1); // the standby the hanging run takes
    const seen = model.requests.length;
    const interrupt = new AbortController();
    const hanging = agent.run({
      query: 'hang: taken from a standby',
      side: 0,
      timeoutMs: 60_000,
      signal: interrupt.signal,
    });
    agent.ahead?.([{ agent: 'codex', side: 0 }]);
    // The prompted standby's request is at the model (and hangs there) before the interrupt.
    while (model.requests.length === seen) await new Promise((r) => setTimeout(r, 20));
    interrupt.abort();
    await expect(hanging).rejects.toThrow();
    await agent.settle?.();
    expect(model.requests.slice(seen).map((r) => r.view?.query)).toEqual(['hang: taken from a standby']);
    expect(await readdir(root)).toEqual([]);
    expect(liveProcessesIn(root)).toEqual([]);
  }, 120_000);

  it('a run with a context takes a standby that resumed it, its history in the request', async () => {
    const agent = codexAgent(
      launch(),
      [{ skillName: 'handoff', description: 'Write HANDOFF.md when ending a session.', root }],
      { standby: 1 },
    );
    const context = [
      { role: 'user' as const, content: 'an earlier question' },
      { role: 'assistant' as const, content: 'an earlier answer' },
    ];
    const seen = model.requests.length;
    const first = agent.run({ query: 'hit: first with a context', side: 0, timeoutMs: 60_000, context });
    agent.ahead?.([{ agent: 'codex', side: 0, context }]);
    expect((await first).outcome.kind).toBe('triggered');
    expect(liveProjectsUnder(root)).toHaveLength(1); // the standby, its rollout placed
    const second = await agent.run({
      query: 'hit: second with a context',
      side: 0,
      timeoutMs: 60_000,
      context,
    });
    await agent.settle?.();
    expect(second.outcome.kind).toBe('triggered');
    const requests = model.requests.slice(seen).filter((r) => r.turn === 1);
    expect(requests.map((r) => r.view?.query)).toEqual([
      'hit: first with a context',
      'hit: second with a context',
    ]);
    for (const r of requests) expect(JSON.stringify(r.body)).toContain('an earlier answer');
    expect(await readdir(root)).toEqual([]);
    expect(liveProcessesIn(root)).toEqual([]);
  }, 120_000);
});
