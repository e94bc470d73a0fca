import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_IDS, type AgentId, type AgentRunResult } from '../../src/agents/agent.js';
import { agentFacts } from '../../src/agents/registry.js';
import { runtimeOf } from '../../src/agents/runtime.js';
import { type Behaviour, type SimulatedModel, startSimulatedModel } from '../../src/simulated/model.js';
import { listedNameOf } from '../../src/simulated/route.js';

/**
 * The seam as a contract every agent behind the registry's runtime keeps, through its REAL pinned
 * binary against the simulated model (docs/architecture.md, "A new agent"): a load of the stub is
 * a hit on the stub; an answer is a miss; a sibling's load is a miss naming the sibling; an API
 * failure is an error and a silent model a timeout, never misses; each side lists its own text; and
 * the runs leave no temp project behind. A new agent's runtime joins this suite by being registered,
 * and must say here where its model calls go.
 */

/** Where each agent's runs send their model calls, pointed at the simulated model. */
const ENDPOINTS: Partial<Record<AgentId, (url: string) => Record<string, string>>> = {
  codex: (url) => ({ OPENAI_BASE_URL: `${url}/v1` }),
  gemini: (url) => ({ GOOGLE_GEMINI_BASE_URL: url }),
};

const BEHAVIOURS: Record<string, Behaviour | undefined> = {
  'conformance: answer': { kind: 'text' },
  'conformance: 500': { kind: 'api-error', status: 500 },
  'conformance: hang': { kind: 'hang' },
};

const CANDIDATE = 'Write HANDOFF.md summarising the session';
const BASELINE = 'Summarise the session for the next one';
let model: SimulatedModel;
let tmp = '';
const outerTmp = process.env.TMPDIR;

beforeAll(async () => {
  // The runs' temp projects go under os.tmpdir(): a folder of this file's own, checked empty after.
  tmp = await mkdtemp(path.join(tmpdir(), 'skilltrigger-conformance-'));
  process.env.TMPDIR = tmp;
  model = await startSimulatedModel({
    chunkDelayMs: 0,
    script: (req) =>
      // Loads named by skill: with a sibling listed, "the stub" alone is ambiguous to the model.
      req.query.startsWith('conformance: load')
        ? { kind: 'skill', name: listedNameOf(req, 'handoff') }
        : req.query.startsWith('conformance: sibling')
          ? { kind: 'skill', name: listedNameOf(req, 'pdf') }
          : BEHAVIOURS[req.query.replace(/ #\w+$/, '')],
  });
});

afterAll(async () => {
  await model?.close();
  if (outerTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = outerTmp;
  await rm(tmp, { recursive: true, force: true });
});

const behindTheRuntime = AGENT_IDS.filter((id) => runtimeOf(id) !== undefined);

it('every agent behind the runtime says where its model calls go', () => {
  expect(behindTheRuntime.length).toBeGreaterThan(0);
  for (const id of behindTheRuntime) expect(ENDPOINTS[id], id).toBeDefined();
});

describe.each(behindTheRuntime)('the %s runtime keeps the seam', (id) => {
  const facts = agentFacts(id);
  let results: Record<string, AgentRunResult> = {};
  let from = 0;

  beforeAll(async () => {
    const runtime = runtimeOf(id);
    const endpoint = ENDPOINTS[id];
    if (runtime === undefined || endpoint === undefined) throw new Error(`${id} has no runtime or endpoint`);
    const agent = runtime.open({
      bin: path.resolve('node_modules/.bin', facts.bin),
      env: { ...process.env, ...endpoint(model.url), [facts.keyVariable]: `conformance-key-${id}` },
      stubs: {
        skillName: 'handoff',
        descriptions: [CANDIDATE, BASELINE],
        siblings: [{ skillName: 'pdf', description: 'Fill PDF forms' }],
      },
    });
    from = model.requests.length;
    results = {};
    const run = (query: string, side = 0, timeoutMs = 30_000) =>
      agent.run({ query: `${query} #${id}`, side, timeoutMs });
    for (const query of [
      'conformance: load',
      'conformance: answer',
      'conformance: sibling',
      'conformance: 500',
    ])
      results[query] = await run(query);
    results.baseline = await run('conformance: answer', 1);
    results.hang = await run('conformance: hang', 0, 8_000);
    await agent.settle?.();
  }, 180_000);

  it('a load of the stub is a hit on the stub, told as this agent', () => {
    const hit = results['conformance: load'];
    expect(hit?.outcome).toEqual({ kind: 'triggered' });
    expect(hit?.loaded?.kind).toBe('stub');
    expect(hit?.agent).toBe(id);
  });

  it('an answer is a miss, and a sibling load a miss that names the sibling', () => {
    expect(results['conformance: answer']?.outcome).toEqual({ kind: 'not-triggered' });
    const sibling = results['conformance: sibling'];
    expect(sibling?.outcome).toEqual({ kind: 'not-triggered' });
    expect(sibling?.loaded).toEqual({ kind: 'sibling', name: 'pdf' });
  });

  it('an API failure is an error and a silent model a timeout, never misses', () => {
    expect(results['conformance: 500']?.outcome.kind).toBe('error');
    expect(results.hang?.outcome).toEqual({ kind: 'timeout' });
  });

  it('each side lists its own text beside the sibling', () => {
    const requests = model.requests.slice(from).filter((r) => r.view?.query === `conformance: answer #${id}`);
    expect(requests).toHaveLength(2);
    const [candidate, baseline] = requests.map((r) =>
      r.view?.listing
        .filter((e) => /-stub-[0-9a-f]{8}$/.test(e.name))
        .map((e) => [e.name.replace(/-[0-9a-f]{8}$/, ''), e.description.trim()])
        .sort(),
    );
    expect(candidate).toEqual([
      ['handoff-stub', CANDIDATE],
      ['pdf-stub', 'Fill PDF forms'],
    ]);
    expect(baseline).toEqual([
      ['handoff-stub', BASELINE],
      ['pdf-stub', 'Fill PDF forms'],
    ]);
  });

  it('leaves no temp project of its runs behind', async () => {
    expect(await readdir(tmp)).toEqual([]);
  });
});
