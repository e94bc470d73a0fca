/**
 * A run that starts with a context, through the REAL `claude` and the simulated model's capture
 * (docs/context.md): the first request holds exactly the context's turns, in order and byte for
 * byte, then what a fresh run sends, with the query last; a fresh run holds none; the decision is
 * taken on the answer to the query; cold and standby alike; and the transcript goes with the run.
 */
import { mkdtemp, readdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeEnvironment } from '../../../src/agents/claude/launch.js';
import { type RunDeps, realRunDeps, runOnce } from '../../../src/agents/claude/run-once.js';
import { createStubProject, type StubSpec } from '../../../src/agents/process/stub-project.js';
import type { ContextTurn } from '../../../src/agents/transcript.js';
import type { RunResult } from '../../../src/measure/loop-spec.js';
import { type SimulatedModel, startSimulatedModel } from '../../../src/simulated/model.js';
import { CLAUDE_BIN, makeClaudeEnv } from '../../fakes/claude-env.js';

const CONTEXT: ContextTurn[] = [
  { role: 'user', content: 'The build fails in utils.ts:\n\n  TS2345: "a" is not <assignable> ✓\t(tab)' },
  { role: 'assistant', content: 'I fixed the type in `utils.ts`:\n\n```ts\nconst a: number = 1;\n```' },
  { role: 'user', content: 'Thanks. Now run the tests.' },
  { role: 'assistant', content: 'All 42 tests pass.' },
];

let root = '';
let home = '';
let model: SimulatedModel;
let env: Record<string, string>;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'skilltrigger-context-')));
  model = await startSimulatedModel({
    recordBodies: true,
    chunkDelayMs: 0,
    // Keyed on the view's query: a context turn that said "hit" would load the stub wrongly.
    script: (view) => (view.query.startsWith('hit') ? { kind: 'skill' } : { kind: 'text' }),
  });
  const made = await makeClaudeEnv(model);
  env = claudeEnvironment(made.env, 0);
  home = made.home;
  cleanup = made.cleanup;
});

afterAll(async () => {
  await model?.close();
  await cleanup?.();
  await rm(root, { recursive: true, force: true });
});

const stub: StubSpec = {
  layout: 'command',
  skillName: 'iso',
  description: 'Write HANDOFF.md for the next session',
};
const deps: RunDeps = { ...realRunDeps, createProject: (spec) => createStubProject({ ...spec, root }) };

/** A body with the per-run parts made alike: the temp folder, its memory-folder slug, the stub's name. */
const normalise = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/\/skilltrigger-[A-Za-z0-9]{6}\//g, '/<base>/')
    .replace(/-skilltrigger-[A-Za-z0-9]{6}-/g, '-<base>-')
    .replace(/iso-stub-[0-9a-f]{8}/g, 'iso-stub-<hex>');

interface Message {
  role: string;
  content: unknown;
  output_config?: unknown;
}

/** One run and its first request's messages. */
async function measured(
  query: string,
  launch: 'cold' | 'standby',
  context?: ContextTurn[],
): Promise<{ result: RunResult; messages: Message[]; rest: string }> {
  const from = model.requests.length;
  const result = await runOnce(
    { query, stub, timeoutMs: 60_000, claudeBin: CLAUDE_BIN, env, launch, ...(context ? { context } : {}) },
    undefined,
    deps,
  );
  const first = model.requests.slice(from).find((r) => r.method === 'POST' && r.turn === 1);
  const { messages, metadata: _, system, ...rest } = (first?.body ?? {}) as Record<string, unknown>;
  // The billing line's suffix is a hash the CLI takes of the conversation: what the CLI adds.
  const systemText = JSON.stringify(system).replace(/cc_version=[^;]*;/, 'cc_version=<v>;');
  return {
    result,
    messages: (messages ?? []) as Message[],
    rest: normalise({ ...rest, system: systemText }),
  };
}

/** The messages as the API reads them, without what the CLI adds between turns (docs/context.md). */
function conversation(messages: readonly Message[]): unknown[] {
  return messages
    .filter((m) => !(m.role === 'system' && Array.isArray(m.content) && m.content.length === 0))
    .map(({ output_config: _, ...m }) => m);
}

describe('a run with a context, through the real claude', () => {
  it('sends the turns in order, byte for byte, then what a fresh run sends, with the query last', async () => {
    const fresh = await measured('write a handoff note', 'cold');
    const resumed = await measured('write a handoff note', 'cold', CONTEXT);
    expect(fresh.result.outcome.kind).toBe('not-triggered');
    expect(resumed.result.outcome.kind).toBe('not-triggered');

    const sent = conversation(resumed.messages);
    expect(sent.slice(0, CONTEXT.length)).toEqual([
      { role: 'user', content: CONTEXT[0]?.content },
      { role: 'assistant', content: [{ type: 'text', text: CONTEXT[1]?.content }] },
      { role: 'user', content: CONTEXT[2]?.content },
      { role: 'assistant', content: [{ type: 'text', text: CONTEXT[3]?.content }] },
    ]);
    // After the turns, exactly the fresh run's messages: the query (with the CLI's reminders) last.
    expect(normalise(sent.slice(CONTEXT.length))).toBe(normalise(conversation(fresh.messages)));
    // The rest of the body (tools, system prompt, model) is the fresh run's.
    expect(resumed.rest).toBe(fresh.rest);
    // A fresh run holds none of the context.
    expect(JSON.stringify(fresh.messages)).not.toContain('All 42 tests pass');
    const last = model.requests.filter((r) => r.turn === 1).at(-1);
    expect(last?.view?.query).toBe('write a handoff note');
    expect(last?.view?.priorTurns).toBe(CONTEXT.length);
  });

  it('decides on the answer to the query, cold and from a standby', async () => {
    for (const launch of ['cold', 'standby'] as const) {
      const hit = await measured('hit: write a handoff note', launch, CONTEXT);
      expect(hit.result.outcome.kind).toBe('triggered');
      expect(hit.result.loaded).toEqual({ kind: 'stub' });
      expect(conversation(hit.messages).slice(0, CONTEXT.length)).toHaveLength(CONTEXT.length);
      expect(JSON.stringify(hit.messages[0])).toContain('The build fails in utils.ts');
    }
  });

  it('leaves no transcript in HOME: the run entry goes with the run', async () => {
    const projects = await readdir(join(home, '.claude', 'projects')).catch(() => [] as string[]);
    expect(projects.filter((name) => name.includes('skilltrigger-context'))).toEqual([]);
  });
});
