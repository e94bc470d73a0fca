import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeEnvironment, type RunSpec, runOnce } from '../../src/agents/claude/run-once.js';
import type { RunResult } from '../../src/measure/loop-spec.js';
import type { Outcome } from '../../src/outcome.js';
import {
  type Behaviour,
  type ErrorStatus,
  type Script,
  type SimulatedModel,
  startSimulatedModel,
} from '../../src/simulated/model.js';
import { CLAUDE_BIN, makeClaudeEnv } from '../fakes/claude-env.js';
import { faultTitle } from './cases.js';
import { killPids, processesWith, projectsLeft, scriptTable, shellScript, waitFor } from './support.js';

/**
 * One run per fault, through the real run path (`runOnce`: temp project, spawn, decision, stop,
 * cleanup) with the real claude binary against the simulated model, or a stand-in script where the
 * fault is the process itself. Every case states its exact outcome: none may come out as
 * not-triggered, and every temp project must be gone afterwards. 13 claude starts.
 */

const table = new Map<string, Behaviour | Script>();
let model: SimulatedModel;
let claude: Awaited<ReturnType<typeof makeClaudeEnv>>;
let work: string;
let projects: string;
let scripts: string;
/** Processes the SIGKILL case left behind; the known-gap case inspects them, afterAll ends them. */
let sigkillLeftovers: number[] = [];

beforeAll(async () => {
  model = await startSimulatedModel({ script: scriptTable(table) });
  claude = await makeClaudeEnv(model);
  work = await mkdtemp(path.join(tmpdir(), 'skilltrigger-faults-'));
  projects = path.join(work, 'projects');
  scripts = path.join(work, 'scripts');
  await mkdir(projects);
  await mkdir(scripts);
});

afterAll(async () => {
  killPids(sigkillLeftovers);
  await model?.close();
  await claude?.cleanup();
  await rm(work, { recursive: true, force: true });
});

function spec(query: string, overrides: Partial<RunSpec> = {}): RunSpec {
  return {
    query,
    stub: {
      layout: 'command',
      skillName: 'handoff',
      description: 'Summarise the session into HANDOFF.md',
      root: projects,
    },
    timeoutMs: 30_000,
    claudeBin: CLAUDE_BIN,
    // --max-retries 0: an API error surfaces at once instead of after backoff.
    env: claudeEnvironment(claude.env, 0),
    // As a measurement runs by default: the prompt written to a claude started for it.
    launch: 'standby',
    ...overrides,
  };
}

/** One run of `query`, then the checks every fault shares. */
async function faultRun(query: string, overrides: Partial<RunSpec> = {}): Promise<RunResult> {
  const result = await runOnce(spec(query, overrides));
  expect(await projectsLeft(projects)).toEqual([]);
  return result;
}

function firstTurns(query: string) {
  return model.requests.filter((r) => r.view?.query === query && r.turn === 1);
}

describe('API error statuses are errors with their cause, never misses', () => {
  const cases: Array<[string, ErrorStatus, Outcome]> = [
    ['api-400', 400, { kind: 'error', cause: 'model', status: 400 }],
    ['api-401', 401, { kind: 'error', cause: 'auth', status: 401 }],
    ['api-403', 403, { kind: 'error', cause: 'auth', status: 403 }],
    ['api-404', 404, { kind: 'error', cause: 'model', status: 404 }],
    ['api-429', 429, { kind: 'error', cause: 'rate-limit', status: 429 }],
    ['api-500', 500, { kind: 'error', cause: 'api', status: 500 }],
    ['api-529', 529, { kind: 'error', cause: 'overloaded', status: 529 }],
  ];
  for (const [id, status, expected] of cases) {
    it(faultTitle(id), async () => {
      const query = `fault ${id}`;
      table.set(query, { kind: 'api-error', status });
      const result = await faultRun(query);
      expect(result.outcome).toEqual(expected);
      expect(firstTurns(query).length).toBeGreaterThan(0);
    });
  }
});

describe('a misbehaving connection', () => {
  it(faultTitle('hang-before-headers'), async () => {
    table.set('fault hang', { kind: 'hang' });
    const result = await faultRun('fault hang', { timeoutMs: 4000 });
    expect(result.outcome).toEqual({ kind: 'timeout' });
    // Stopped at the timeout: TERM, and KILL 2 s later at the latest.
    expect(result.durationMs).toBeGreaterThanOrEqual(4000);
    expect(result.durationMs).toBeLessThan(4000 + 2000 + 3000);
  });

  it(faultTitle('stall-after-headers'), async () => {
    table.set('fault stall', { kind: 'stall' });
    const result = await faultRun('fault stall', { timeoutMs: 4000 });
    expect(result.outcome).toEqual({ kind: 'timeout' });
    expect(result.durationMs).toBeLessThan(4000 + 2000 + 3000);
  });

  it(faultTitle('cut-stream'), async () => {
    table.set('fault cut', { kind: 'cut' });
    const result = await faultRun('fault cut');
    // The cut left a phantom `Skill` content_block_start on stdout; it must not count.
    expect(result.outcome).toEqual({ kind: 'error', cause: 'network' });
  });

  it(faultTitle('cut-after-text-resumed'), async () => {
    const query = 'fault cut after text';
    // The first answer dies after its text block; the CLI asks the model to resume, and the
    // resumed answer carries the Skill call the cut one was about to make.
    table.set(query, (_req, ctx) =>
      ctx.occurrence === 0
        ? { kind: 'cut', afterText: 'I will use the matching skill for this.' }
        : { kind: 'text-then-skill' },
    );
    const result = await faultRun(query);
    expect(result.outcome).toEqual({ kind: 'triggered' });
    expect(firstTurns(query).length).toBe(2);
  });

  it(faultTitle('reset-socket'), async () => {
    table.set('fault reset', { kind: 'reset' });
    const result = await faultRun('fault reset');
    expect(result.outcome).toEqual({ kind: 'error', cause: 'network' });
  });
});

describe('a misbehaving claude process', () => {
  it(faultTitle('sigkill-mid-run'), async () => {
    const pidFile = path.join(work, 'sigkill.pid');
    // The `sleep` stands in for a tool the model left running in claude's process group. Its
    // output goes to /dev/null so it does not hold claude's stdout open.
    const wrapper = await shellScript(
      scripts,
      'claude-sigkill',
      `sleep 299.7171 >/dev/null 2>&1 &\necho $$ > '${pidFile}'\nexec '${CLAUDE_BIN}' "$@"`,
    );
    table.set('fault sigkill', { kind: 'hang' });
    const running = runOnce(spec('fault sigkill', { claudeBin: wrapper }));
    expect(await waitFor(() => firstTurns('fault sigkill').length > 0, 30_000)).toBe(true);
    process.kill(Number(await readFile(pidFile, 'utf8')), 'SIGKILL');
    const result = await running;
    sigkillLeftovers = processesWith('299.7171').map((p) => p.pid);
    expect(result.outcome).toEqual({ kind: 'error', cause: 'crash' });
    // Seen at once, not at the 30 s timeout.
    expect(result.durationMs).toBeLessThan(25_000);
    expect(await projectsLeft(projects)).toEqual([]);
  });

  // ClaudeProcess.stop() also signals the group of a claude that is already gone.
  it(faultTitle('sigkill-leftover-group'), () => {
    expect(sigkillLeftovers).toEqual([]);
  });

  it(faultTitle('claude-missing'), async () => {
    const result = await faultRun('fault missing', { claudeBin: path.join(scripts, 'no-such-claude') });
    expect(result.outcome).toEqual({ kind: 'error', cause: 'cli-missing' });
  });

  it(faultTitle('claude-not-executable'), async () => {
    const file = await shellScript(scripts, 'claude-no-x', 'exit 0', false);
    const result = await faultRun('fault no x', { claudeBin: file });
    expect(result.outcome).toEqual({ kind: 'error', cause: 'cli-missing' });
  });

  it(faultTitle('crash-exit-1'), async () => {
    const file = await shellScript(scripts, 'claude-exit-1', 'exit 1');
    const result = await faultRun('fault exit 1', { claudeBin: file });
    expect(result.outcome).toEqual({ kind: 'error', cause: 'crash' });
  });

  it(faultTitle('crash-segfault'), async () => {
    const file = await shellScript(scripts, 'claude-segv', 'kill -SEGV $$');
    const result = await faultRun('fault segv', { claudeBin: file });
    expect(result.outcome).toEqual({ kind: 'error', cause: 'crash' });
  });

  it(faultTitle('silent-exit-0'), async () => {
    const file = await shellScript(scripts, 'claude-silent', 'exit 0');
    const result = await faultRun('fault silent', { claudeBin: file });
    expect(result.outcome).toEqual({ kind: 'error', cause: 'no-decision' });
  });

  it(faultTitle('garbage-output'), async () => {
    const file = await shellScript(
      scripts,
      'claude-garbage',
      `echo 'Welcome to a CLI that is not claude'\nprintf '{"type":"assistant","message":{"id":'\nexit 0`,
    );
    const result = await faultRun('fault garbage', { claudeBin: file });
    expect(result.outcome).toEqual({ kind: 'error', cause: 'no-decision' });
  });

  it(faultTitle('slow-start-timeout'), async () => {
    const wrapper = await shellScript(scripts, 'claude-slow', `sleep 30.4242\nexec '${CLAUDE_BIN}' "$@"`);
    const result = await faultRun('fault slow start', { claudeBin: wrapper, timeoutMs: 1500 });
    expect(result.outcome).toEqual({ kind: 'timeout' });
    expect(result.durationMs).toBeLessThan(1500 + 2000 + 2000);
    // The stop reached the whole group: the wrapper's sleep is gone too.
    expect(processesWith('30.4242')).toEqual([]);
  });
});
