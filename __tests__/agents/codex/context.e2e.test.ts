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
import type { ContextTurn } from '../../../src/agents/agent.js';
import { type CodexRunOptions, runCodexMeasurement } from '../../../src/agents/codex/run.js';
import { type SimulatedModel, startSimulatedModel } from '../../../src/simulated/model.js';

const CODEX_BIN = resolve('node_modules/.bin/codex');

const CONTEXT: ContextTurn[] = [
  { role: 'user', content: 'The build fails in utils.ts:\n\n  TS2345: "a" is not <assignable> ✓\t(tab)' },
  { role: 'assistant', content: 'I fixed the type in `utils.ts`:\n\n```ts\nconst a: number = 1;\n```' },
  { role: 'user', content: 'Thanks. Now run the tests.' },
  { role: 'assistant', content: 'All 42 tests pass.' },
];

let model: SimulatedModel;
let root = '';

beforeAll(async () => {
  model = await startSimulatedModel({
    recordBodies: true,
    chunkDelayMs: 0,
    script: (view) => (view.query.startsWith('hit') ? { kind: 'skill' } : { kind: 'text' }),
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

  // A resumed session's rollout records no command's completion, which the decision reads, so a
  // read of the stub cannot be told from no read (docs/context.md, "Codex: a rollout, resumed"):
  // `run --context` refuses Codex until that evidence is found elsewhere.
  it.todo('decides on the answer to the query, and leaves nothing behind');
});

function isEnvironment(item: Item): boolean {
  return item.role === 'user' && JSON.stringify(item.content).includes('<environment_context>');
}
