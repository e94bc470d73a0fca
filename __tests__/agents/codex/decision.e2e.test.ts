/**
 * The Codex decision's response boundary through the REAL `codex` (pinned, node_modules/.bin/codex)
 * against the simulated model: a load anywhere in the first response is a hit, whichever command
 * of it reads the stub and however the calls are timed; a read in a later response is a miss
 * (docs/codex.md "The decision"). Each case must be right on every run: the boundary comes from
 * the session rollout, not from when commands start or finish.
 */
import { mkdtemp, readdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCodexMeasurement } from '../../../src/agents/codex/run.js';
import { type Behaviour, type SimulatedModel, startSimulatedModel } from '../../../src/simulated/model.js';
import type { RequestView } from '../../../src/simulated/request.js';

const CODEX_BIN = resolve('node_modules/.bin/codex');
/** Long enough for `ls` to have run before the read's call is even streamed. */
const PAUSE_MS = 1500;

const list = { name: 'Bash', input: { command: 'ls -la' } };
const readStub = (req: RequestView) => ({ name: 'Skill', input: { skill: req.stub?.name } });

const BEHAVIOURS: Record<string, (req: RequestView) => Behaviour> = {
  'one exec cell: ls, then the read': (req) => ({
    kind: 'tool-calls',
    calls: [list, readStub(req)],
    cell: 'sequential',
  }),
  'one exec cell: ls and the read at once': (req) => ({
    kind: 'tool-calls',
    calls: [list, readStub(req)],
    cell: 'parallel',
  }),
  'two calls: the read streamed after ls ran': (req) => ({
    kind: 'tool-calls',
    calls: [list, readStub(req)],
    gapMs: PAUSE_MS,
  }),
  'two calls at once': (req) => ({ kind: 'tool-calls', calls: [list, readStub(req)] }),
  'commentary, then the read': () => ({ kind: 'read-stub' }),
  'ls, then the read in the second response': () => ({ kind: 'late-skill' }),
};

let model: SimulatedModel;
let root = '';

beforeAll(async () => {
  model = await startSimulatedModel({ chunkDelayMs: 0, script: (req) => BEHAVIOURS[req.query]?.(req) });
  root = await realpath(await mkdtemp(join(tmpdir(), 'skilltrigger-codex-decision-')));
});

afterAll(async () => {
  await model?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

afterEach(async () => {
  // Every run removes its folder (project, CODEX_HOME with its rollout, TMPDIR).
  expect(await readdir(root)).toEqual([]);
});

/** `gpt-sim` has no metadata in Codex: its tools are `exec_command` functions, not the exec cell. */
function measure(query: string, tools: 'exec cell' | 'function calls') {
  return runCodexMeasurement({
    bin: CODEX_BIN,
    query,
    stub: { skillName: 'pdf', description: 'Extract text and tables from PDF files.', root },
    provider: {
      baseUrl: `${model.url}/v1`,
      apiKey: 'sk-test-codex',
      ...(tools === 'function calls' ? { model: 'gpt-sim' } : {}),
    },
    timeoutMs: 60_000,
    baseEnv: process.env,
  });
}

/** The latest first-turn request of the query: which command tool Codex offered there. */
function firstRequestOf(query: string): unknown {
  return model.requests.filter((r) => r.view?.query === query && r.turn === 1).at(-1)?.view;
}

describe('the first response, bounded by the session rollout', () => {
  it.each([
    ['one exec cell: ls, then the read', 'exec cell'],
    ['one exec cell: ls and the read at once', 'exec cell'],
    ['two calls: the read streamed after ls ran', 'function calls'],
    ['two calls: the read streamed after ls ran', 'exec cell'],
    ['two calls at once', 'function calls'],
    ['commentary, then the read', 'exec cell'],
  ] as const)('%s (%s) is a hit', async (query, tools) => {
    const result = await measure(query, tools);
    expect(result.outcome).toEqual({ kind: 'triggered' });
    expect(result.loaded).toEqual({ kind: 'stub' });
    expect(firstRequestOf(query)).toMatchObject({
      commandTool: tools === 'exec cell' ? 'exec' : 'exec_command',
    });
  });

  it('a read in the second response is a miss (a late load)', async () => {
    const query = 'ls, then the read in the second response';
    const result = await measure(query, 'exec cell');
    expect(result.outcome).toEqual({ kind: 'not-triggered' });
    expect(result.loaded).toEqual({ kind: 'none' });
  });
});
