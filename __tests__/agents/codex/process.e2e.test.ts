/**
 * One Codex measurement end to end through the REAL `codex` (pinned, node_modules/.bin/codex)
 * against the simulated model's Responses API: the stub project, the launch, the event reader,
 * the decision, the kill at the decision, and nothing left behind.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CodexRunAborted,
  type CodexRunOptions,
  readCodexVersion,
  runCodexMeasurement,
} from '../../../src/agents/codex/run.js';
import { type Behaviour, type SimulatedModel, startSimulatedModel } from '../../../src/simulated/model.js';
import type { ResponsesView } from '../../../src/simulated/responses-request.js';

const CODEX_BIN = resolve('node_modules/.bin/codex');
const DESCRIPTION = 'Extract text and tables from PDF files.';

const BEHAVIOURS: Record<string, Behaviour> = {
  'hit: read the stub': { kind: 'skill' },
  'hit: sed after a commentary message': { kind: 'read-stub' },
  'hit: ls and the read in one response': { kind: 'bash-and-skill' },
  'miss: a message': { kind: 'text' },
  'miss: another command': { kind: 'other-tool' },
  'miss: another skill': { kind: 'other-skill', name: 'imagegen' },
  'late: ls, then the read': { kind: 'late-skill' },
  'error: 401': { kind: 'api-error', status: 401 },
  'error: 500': { kind: 'api-error', status: 500 },
  'error: cut stream': { kind: 'cut' },
  'hang: timeout-codex-8b21': { kind: 'hang' },
  'hang: abort-e2e-5d1c': { kind: 'hang' },
};

let model: SimulatedModel;
let root = '';

beforeAll(async () => {
  model = await startSimulatedModel({ chunkDelayMs: 0, script: (req) => BEHAVIOURS[req.query] });
  root = await realpath(await mkdtemp(join(tmpdir(), 'skilltrigger-codex-e2e-')));
});

afterAll(async () => {
  await model?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

afterEach(async () => {
  // Every run removes its folder (project, CODEX_HOME, TMPDIR), whatever its outcome.
  expect(await readdir(root)).toEqual([]);
  // …and no process names it: not even the sandbox helper, which runs in a session of its own.
  expect(processesNaming(root)).toEqual([]);
});

function options(query: string, extra: Partial<Omit<CodexRunOptions, 'baseEnv'>> = {}): CodexRunOptions {
  return {
    bin: CODEX_BIN,
    query,
    stub: { skillName: 'pdf', description: DESCRIPTION, root },
    provider: { baseUrl: `${model.url}/v1`, apiKey: 'sk-test-codex', model: 'gpt-sim' },
    timeoutMs: 60_000,
    baseEnv: process.env,
    ...extra,
  };
}

function requestsFor(query: string) {
  return model.requests.filter((r) => r.view?.query === query);
}

describe('a Codex measurement through the real binary', () => {
  it('a read of the stub is a hit, decided at the read, with the stub listed as Codex lists it', async () => {
    const query = 'hit: read the stub';
    const result = await runCodexMeasurement(options(query));
    expect(result.outcome).toEqual({ kind: 'triggered' });
    expect(result.loaded).toEqual({ kind: 'stub' });
    const [first] = requestsFor(query);
    const view = first?.view as ResponsesView | undefined;
    expect(view?.stub?.name).toMatch(/^pdf-stub-[0-9a-f]{8}$/);
    expect(view?.stub?.description).toBe(DESCRIPTION);
    // The system skills Codex installs into CODEX_HOME compete with the stub.
    expect(view?.listing.map((e) => e.name)).toContain('imagegen');
    expect(first?.path).toBe('/v1/responses');
    expect(result.threadId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a hit through the exec custom tool, which Codex offers a model it knows (its default here)', async () => {
    const query = 'hit: read the stub';
    const result = await runCodexMeasurement(
      options(query, { provider: { baseUrl: `${model.url}/v1`, apiKey: 'sk-test-codex' } }),
    );
    expect(result.outcome).toEqual({ kind: 'triggered' });
    const last = requestsFor(query).at(-1)?.view as ResponsesView | undefined;
    expect(last?.commandTool).toBe('exec');
  });

  it.each(['hit: sed after a commentary message', 'hit: ls and the read in one response'])(
    '%s is a hit',
    async (query) => {
      expect((await runCodexMeasurement(options(query))).outcome).toEqual({ kind: 'triggered' });
    },
  );

  it('a message is a miss', async () => {
    const result = await runCodexMeasurement(options('miss: a message'));
    expect(result.outcome).toEqual({ kind: 'not-triggered' });
    expect(result.loaded).toEqual({ kind: 'none' });
    expect(result.usage.outputTokens).toBeGreaterThan(0);
  });

  it('another command first is a miss, decided before the follow-up is sent', async () => {
    const query = 'miss: another command';
    const result = await runCodexMeasurement(options(query));
    expect(result.outcome).toEqual({ kind: 'not-triggered' });
    expect(requestsFor(query).filter((r) => r.turn === 1)).toHaveLength(1);
  });

  it('a read after another command in a later response is a miss (a late load)', async () => {
    expect((await runCodexMeasurement(options('late: ls, then the read'))).outcome).toEqual({
      kind: 'not-triggered',
    });
  });

  it("another skill's SKILL.md is a miss that says another skill was loaded", async () => {
    const result = await runCodexMeasurement(options('miss: another skill'));
    expect(result.outcome).toEqual({ kind: 'not-triggered' });
    expect(result.loaded).toEqual({ kind: 'other' });
  });

  it.each([
    ['error: 401', { kind: 'error', cause: 'auth', status: 401 }],
    ['error: 500', { kind: 'error', cause: 'api' }],
    ['error: cut stream', { kind: 'error', cause: 'network' }],
  ])('%s is an error, never a miss', async (query, outcome) => {
    expect((await runCodexMeasurement(options(query))).outcome).toEqual(outcome);
    // Retries are off: one request, one run.
    expect(requestsFor(query)).toHaveLength(1);
  });

  it('a hang is a timeout, and the process group is gone', async () => {
    const result = await runCodexMeasurement(options('hang: timeout-codex-8b21', { timeoutMs: 4000 }));
    expect(result.outcome).toEqual({ kind: 'timeout' });
    expect(codexProcesses('hang: timeout-codex-8b21')).toEqual([]);
  });

  it('an abort (Ctrl-C) mid-run kills the group and leaves no folder behind', async () => {
    const query = 'hang: abort-e2e-5d1c';
    const controller = new AbortController();
    const run = runCodexMeasurement(options(query, { signal: controller.signal }));
    while (requestsFor(query).length === 0) await new Promise((r) => setTimeout(r, 50));
    expect(codexProcesses(query).length).toBeGreaterThan(0);
    controller.abort(new Error('SIGINT'));
    await expect(run).rejects.toBeInstanceOf(CodexRunAborted);
    expect(codexProcesses(query)).toEqual([]);
  });

  it('the version, read in a throwaway CODEX_HOME; a missing executable has none', async () => {
    expect(await readCodexVersion(CODEX_BIN, process.env, root)).toBe('0.169.0');
    expect(await readCodexVersion(join(root, 'no-such-codex'), process.env, root)).toBeUndefined();
  });

  it('a missing executable is cli-missing', async () => {
    const result = await runCodexMeasurement(
      options('miss: a message', { bin: join(root, 'no-such-codex') }),
    );
    expect(result.outcome).toEqual({ kind: 'error', cause: 'cli-missing' });
  });
});

/** Live (not zombie) processes whose command line holds the text. */
function processesNaming(text: string): string[] {
  const out = execFileSync('ps', ['-eo', 'stat=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((line) => line.includes(text) && !line.trim().startsWith('Z'))
    .map((line) => line.trim());
}

/** The run's processes: the argv ends with the query. */
const codexProcesses = processesNaming;
