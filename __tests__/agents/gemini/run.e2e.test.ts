/**
 * One Gemini measurement end to end through the REAL `gemini` (pinned, node_modules/.bin/gemini)
 * against the simulated model's Gemini API: the stub project and its throwaway home, the launch,
 * the event reader, the decision, the kill at the decision, and nothing left behind.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  GeminiRunAborted,
  type GeminiRunOptions,
  readGeminiVersion,
  runGeminiMeasurement,
} from '../../../src/agents/gemini/run.js';
import type { GeminiView } from '../../../src/simulated/gemini-request.js';
import { type Behaviour, type SimulatedModel, startSimulatedModel } from '../../../src/simulated/model.js';

const GEMINI_BIN = resolve('node_modules/.bin/gemini');
const DESCRIPTION = 'Extract text and tables from PDF files.';
let root = '';

const BEHAVIOURS: Record<string, Behaviour | ((root: string) => Behaviour)> = {
  'hit: activate_skill': { kind: 'skill' },
  'hit: read_file of the SKILL.md': { kind: 'read-stub' },
  'hit: text then the activation in one response': { kind: 'text-then-skill' },
  'hit: a shell call and the activation in one response': { kind: 'bash-and-skill' },
  'miss: text': { kind: 'text' },
  'miss: another tool': { kind: 'other-tool' },
  'miss: another skill': { kind: 'other-skill', name: 'skill-creator' },
  'miss: a late activation': { kind: 'late-skill' },
  'error: 401': { kind: 'api-error', status: 401 },
  'error: 429': { kind: 'api-error', status: 429 },
  'error: 500': { kind: 'api-error', status: 500 },
  'hang: timeout-gemini-3c9e': { kind: 'hang' },
  'hang: abort-e2e-7a2f': { kind: 'hang' },
  'policy: a write is refused': (dir) => ({
    kind: 'tool-calls',
    calls: [{ name: 'Bash', input: { command: `touch ${join(dir, 'written-by-the-model')}` } }],
  }),
};

let model: SimulatedModel;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'skilltrigger-gemini-e2e-')));
  model = await startSimulatedModel({
    chunkDelayMs: 0,
    recordBodies: true,
    script: (req) => {
      const behaviour = BEHAVIOURS[req.query];
      return typeof behaviour === 'function' ? behaviour(root) : behaviour;
    },
  });
});

afterAll(async () => {
  await model?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

afterEach(() => {
  // Every run removes its folder (project, GEMINI_CLI_HOME, TMPDIR), whatever its outcome…
  expect(existsSync(root) ? execFileSync('ls', ['-A', root], { encoding: 'utf8' }) : '').toBe('');
  // …and no process names it.
  expect(processesNaming(root)).toEqual([]);
});

function options(query: string, extra: Partial<GeminiRunOptions> = {}): GeminiRunOptions {
  return {
    bin: GEMINI_BIN,
    query,
    stub: { skillName: 'pdf', description: DESCRIPTION, root },
    provider: { baseUrl: model.url, apiKey: 'gemini-test-key', model: 'gemini-sim' },
    timeoutMs: 60_000,
    // A user's own Gemini settings must not reach the run.
    baseEnv: { PATH: process.env.PATH, GEMINI_API_KEY: 'the-users-key', GEMINI_CLI_HOME: '/nonexistent' },
    ...extra,
  };
}

function requestsFor(query: string) {
  return model.requests.filter((r) => r.view?.query === query);
}

describe('a Gemini measurement through the real binary', () => {
  it('activate_skill naming the stub is a hit, with the stub listed as Gemini lists it', async () => {
    const query = 'hit: activate_skill';
    const result = await runGeminiMeasurement(options(query));
    expect(result.outcome).toEqual({ kind: 'triggered' });
    expect(result.loaded).toEqual({ kind: 'stub' });
    expect(result.model).toBe('gemini-sim');
    const [first] = requestsFor(query);
    expect(first?.path).toBe('/v1beta/models/gemini-sim:streamGenerateContent');
    const view = first?.view as GeminiView | undefined;
    expect(view?.stub?.name).toMatch(/^pdf-stub-[0-9a-f]{8}$/);
    expect(view?.stub?.description).toBe(DESCRIPTION);
    // The two built-in skills always compete with the stub.
    expect(view?.listing.map((e) => e.name).slice(0, 2)).toEqual(['skill-creator', 'antigravity-support']);
    // Decided at the call: the tool result never went back to the model.
    expect(requestsFor(query)).toHaveLength(1);
  });

  it('offers the model the tools of yolo mode, activate_skill among them', async () => {
    const body = requestsFor('hit: activate_skill')[0]?.body as {
      tools: Array<{ functionDeclarations: Array<{ name: string }> }>;
    };
    const names = body.tools.flatMap((t) => t.functionDeclarations.map((d) => d.name));
    expect(names).toEqual(expect.arrayContaining(['activate_skill', 'read_file', 'run_shell_command']));
    expect(names).toHaveLength(15);
  });

  it.each([
    'hit: read_file of the SKILL.md',
    'hit: text then the activation in one response',
    'hit: a shell call and the activation in one response',
  ])('%s', async (query) => {
    const result = await runGeminiMeasurement(options(query));
    expect(result.outcome).toEqual({ kind: 'triggered' });
    expect(result.loaded).toEqual({ kind: 'stub' });
  });

  it('text alone is a miss, with the tokens the result reported', async () => {
    const result = await runGeminiMeasurement(options('miss: text'));
    expect(result.outcome).toEqual({ kind: 'not-triggered' });
    expect(result.loaded).toEqual({ kind: 'none' });
    expect(result.usage.inputTokens).toBeGreaterThan(0);
  });

  it('another tool is a miss, decided before the follow-up request', async () => {
    const query = 'miss: another tool';
    const result = await runGeminiMeasurement(options(query));
    expect(result.outcome).toEqual({ kind: 'not-triggered' });
    expect(result.loaded).toEqual({ kind: 'none' });
  });

  it('another skill is a miss that says another skill was loaded', async () => {
    const result = await runGeminiMeasurement(options('miss: another skill'));
    expect(result.outcome).toEqual({ kind: 'not-triggered' });
    expect(result.loaded).toEqual({ kind: 'other' });
  });

  it('an activation in the second response is late: a miss', async () => {
    const result = await runGeminiMeasurement(options('miss: a late activation'));
    expect(result.outcome).toEqual({ kind: 'not-triggered' });
  });

  it.each([
    ['error: 401', { kind: 'error', cause: 'auth', status: 401 }],
    ['error: 429', { kind: 'error', cause: 'rate-limit', status: 429 }],
    ['error: 500', { kind: 'error', cause: 'api', status: 500 }],
  ])('%s is an error, never a miss, after one request', async (query, outcome) => {
    expect((await runGeminiMeasurement(options(query))).outcome).toEqual(outcome);
    expect(requestsFor(query)).toHaveLength(1);
  });

  it('nothing the model asks for runs: the policy refuses every call', async () => {
    const query = 'policy: a write is refused';
    const result = await runGeminiMeasurement(options(query));
    expect(result.outcome).toEqual({ kind: 'not-triggered' });
    // The run stops at the refusal's tool_result; a call that ran would have made the file first.
    expect(existsSync(join(root, 'written-by-the-model'))).toBe(false);
  });

  it('a hang is a timeout, and the process group is gone', async () => {
    const result = await runGeminiMeasurement(options('hang: timeout-gemini-3c9e', { timeoutMs: 6000 }));
    expect(result.outcome).toEqual({ kind: 'timeout' });
    expect(processesNaming('hang: timeout-gemini-3c9e')).toEqual([]);
  });

  it('an abort (Ctrl-C) mid-run kills the group and leaves no folder behind', async () => {
    const query = 'hang: abort-e2e-7a2f';
    const controller = new AbortController();
    const run = runGeminiMeasurement(options(query, { signal: controller.signal }));
    while (requestsFor(query).length === 0) await new Promise((r) => setTimeout(r, 50));
    expect(processesNaming(query).length).toBeGreaterThan(0);
    controller.abort(new Error('SIGINT'));
    await expect(run).rejects.toBeInstanceOf(GeminiRunAborted);
    expect(processesNaming(query)).toEqual([]);
  });

  it('the version, read with a throwaway home; a missing executable has none', async () => {
    expect(await readGeminiVersion(GEMINI_BIN, process.env, root)).toBe('0.61.0');
    expect(await readGeminiVersion(join(root, 'no-such-gemini'), process.env, root)).toBeUndefined();
  });

  it('a missing executable is cli-missing', async () => {
    const result = await runGeminiMeasurement(options('miss: text', { bin: join(root, 'no-such-gemini') }));
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
