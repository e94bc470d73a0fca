/**
 * A Codex run that starts with a context, through the REAL `codex` and the simulated model's
 * capture (docs/context.md): the first request holds exactly the context's turns, in order and
 * byte for byte, before what Codex adds on a resume, with the query last; a fresh run holds none;
 * the decision is taken on the answer to the query; the rollout goes with the run's temp folder.
 */
import { mkdtemp, readdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CodexRunOptions, runCodexMeasurement } from '../../../src/agents/codex/run.js';
import type { ContextTurn } from '../../../src/agents/transcript.js';
import { type Behaviour, type SimulatedModel, startSimulatedModel } from '../../../src/simulated/model.js';
import type { RequestView } from '../../../src/simulated/request.js';

const CODEX_BIN = resolve('node_modules/.bin/codex');

const CONTEXT: ContextTurn[] = [
  { role: 'user', content: 'The build fails in utils.ts:\n\n  TS2345: "a" is not <assignable> ✓\t(tab)' },
  { role: 'assistant', content: 'I fixed the type in `utils.ts`:\n\n```ts\nconst a: number = 1;\n```' },
  { role: 'user', content: 'Thanks. Now run the tests.' },
  { role: 'assistant', content: 'All 42 tests pass.' },
];

const list = { name: 'Bash', input: { command: 'ls -la' } };

/** What the simulated model answers each query with; any other query gets a text answer. */
const BEHAVIOURS: Record<string, (view: RequestView) => Behaviour> = {
  'hit: read the skill': () => ({ kind: 'skill' }),
  'hit: ls, then the read in one cell': (view) => ({
    kind: 'tool-calls',
    calls: [list, { name: 'Skill', input: { skill: view.stub?.name } }],
    cell: 'sequential',
  }),
  'miss: ls, then the read in the second response': () => ({ kind: 'late-skill' }),
  'miss: run a command': () => ({ kind: 'tool-calls', calls: [list] }),
};

/** A context whose own turns are what a hit would say: the decision must not read them. */
const LOOKS_LIKE_A_HIT: ContextTurn[] = [
  { role: 'user', content: 'hit: read the skill' },
  { role: 'assistant', content: 'I read the pdf skill and extracted the text.' },
];

let model: SimulatedModel;
let root = '';

beforeAll(async () => {
  model = await startSimulatedModel({
    recordBodies: true,
    chunkDelayMs: 0,
    script: (view) => BEHAVIOURS[view.query]?.(view) ?? { kind: 'text' },
  });
  root = await realpath(await mkdtemp(join(tmpdir(), 'skilltrigger-codex-context-')));
});

afterAll(async () => {
  await model?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

function options(query: string, context?: ContextTurn[]): CodexRunOptions {
  return {
    bin: CODEX_BIN,
    query,
    stub: { skillName: 'pdf', description: 'Extract text and tables from PDF files.', root },
    provider: { baseUrl: `${model.url}/v1`, apiKey: 'sk-test-codex' },
    timeoutMs: 60_000,
    baseEnv: process.env,
    ...(context ? { context } : {}),
  };
}

type Item = Record<string, unknown>;

/** One run and its first request's input items. */
async function measured(query: string, context?: ContextTurn[]) {
  const from = model.requests.length;
  const result = await runCodexMeasurement(options(query, context));
  const first = model.requests.slice(from).find((r) => r.path === '/v1/responses' && r.turn === 1);
  const body = (first?.body ?? {}) as { input?: Item[] };
  return { result, input: body.input ?? [], view: first?.view };
}

describe('a Codex run with a context, through the real binary', () => {
  it('sends the turns first, in order and byte for byte, and the query last', async () => {
    const fresh = await measured('write a handoff note');
    const resumed = await measured('write a handoff note', CONTEXT);
    expect(fresh.result.outcome.kind).toBe('not-triggered');
    expect(resumed.result.outcome.kind).toBe('not-triggered');
    expect(resumed.input.slice(0, CONTEXT.length)).toEqual(
      CONTEXT.map((turn) => ({
        type: 'message',
        role: turn.role,
        content: [{ type: turn.role === 'user' ? 'input_text' : 'output_text', text: turn.content }],
      })),
    );
    // The query is the last item, as a fresh run sends it (each item's own id aside).
    const { id: _, ...query } = resumed.input.at(-1) ?? {};
    const { id: __, ...freshQuery } = fresh.input.at(-1) ?? {};
    expect(query).toEqual(freshQuery);
    expect(query).toEqual({
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'write a handoff note' }],
    });
    // Between them only what Codex adds itself: its instructions, the skill listing, the environment.
    const between = resumed.input.slice(CONTEXT.length, -1);
    expect(between.every((item) => item.role === 'developer' || isEnvironment(item))).toBe(true);
    expect(JSON.stringify(between)).toContain('pdf-stub-');
    // A fresh run holds none of the context.
    expect(JSON.stringify(fresh.input)).not.toContain('All 42 tests pass');
    expect(resumed.view?.priorTurns).toBe(CONTEXT.length);
    expect(fresh.view?.priorTurns).toBe(0);
    // The placed rollout went with the run's temp folder.
    expect(await readdir(root)).toEqual([]);
  });

  // The resumed session records each command's completion, as a fresh one does, because the placed
  // rollout is in paginated history (docs/context.md, "Codex: a rollout, resumed").
  it.each([
    ['hit: read the skill', 'triggered', 'stub'],
    ['hit: ls, then the read in one cell', 'triggered', 'stub'],
    ['miss: ls, then the read in the second response', 'not-triggered', 'none'],
    ['miss: run a command', 'not-triggered', 'none'],
    ['miss: answer in text', 'not-triggered', 'none'],
  ] as const)('decides %s on the answer to the query, as a fresh run does', async (query, kind, loaded) => {
    const fresh = await measured(query);
    const resumed = await measured(query, CONTEXT);
    for (const run of [fresh, resumed]) {
      expect(run.result.outcome).toEqual({ kind });
      expect(run.result.loaded).toEqual({ kind: loaded });
    }
    expect(resumed.view?.priorTurns).toBe(CONTEXT.length);
    expect(await readdir(root)).toEqual([]);
  });

  it("never decides on the context's own turns", async () => {
    const resumed = await measured('miss: answer in text', LOOKS_LIKE_A_HIT);
    expect(resumed.result.outcome).toEqual({ kind: 'not-triggered' });
    expect(resumed.view?.priorTurns).toBe(LOOKS_LIKE_A_HIT.length);
    expect(await readdir(root)).toEqual([]);
  });
});

function isEnvironment(item: Item): boolean {
  return item.role === 'user' && JSON.stringify(item.content).includes('<environment_context>');
}
