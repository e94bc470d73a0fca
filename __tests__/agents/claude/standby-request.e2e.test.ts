/**
 * A standby's request against a cold run's, through the REAL `claude` and the simulated model: the
 * same first request body once the per-run parts are normalised (the project folder, its
 * memory-folder slug, the stub's random name, session ids), apart from the one difference
 * docs/speed.md ("A warm standby") documents and the report records as `settings.launch`.
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeEnvironment } from '../../../src/agents/claude/launch.js';
import { type RunDeps, realRunDeps, runOnce } from '../../../src/agents/claude/run-once.js';
import { createStubProject, type StubSpec } from '../../../src/agents/process/stub-project.js';
import type { RunResult } from '../../../src/measure/loop-spec.js';
import { type SimulatedModel, startSimulatedModel } from '../../../src/simulated/model.js';
import { CLAUDE_BIN, makeClaudeEnv } from '../../fakes/claude-env.js';

/**
 * The documented difference: the Bash tool's background timeout default, which the CLI sets to
 * 600000 ms for a single-prompt `-p` session and 1800000 ms when its input is a stream.
 */
const STANDBY_ONLY = [
  ['(default 1800000, max', '(default 600000, max'],
  ['(default 1800000 ms, max', '(default 600000 ms, max'],
] as const;

let root = '';
let model: SimulatedModel;
let env: Record<string, string>;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'skilltrigger-standby-request-')));
  model = await startSimulatedModel({
    recordBodies: true,
    chunkDelayMs: 0,
    script: (view) => (view.query.includes('hit') ? { kind: 'skill' } : { kind: 'text' }),
  });
  const made = await makeClaudeEnv(model);
  env = claudeEnvironment(made.env, 0);
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

/** One run and its first request's body, normalised. */
async function measured(
  query: string,
  launch: 'cold' | 'standby',
): Promise<{ result: RunResult; body: string }> {
  const from = model.requests.length;
  const result = await runOnce(
    { query, stub, timeoutMs: 60_000, claudeBin: CLAUDE_BIN, env, launch },
    undefined,
    deps,
  );
  const first = model.requests.slice(from).find((r) => r.method === 'POST' && r.turn === 1);
  expect(first?.body).toBeDefined();
  const { metadata: _, ...rest } = (first?.body ?? {}) as Record<string, unknown>;
  const body = JSON.stringify(rest)
    .replace(/\/skilltrigger-[A-Za-z0-9]{6}\//g, '/<base>/')
    .replace(/-skilltrigger-[A-Za-z0-9]{6}-/g, '-<base>-')
    .replace(/iso-stub-[0-9a-f]{8}/g, 'iso-stub-<hex>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>');
  return { result, body };
}

describe('a standby sends the request a cold run sends', () => {
  it('differs only in the documented Bash background default, and its init still lists the stub', async () => {
    const cold = await measured('write a handoff note', 'cold');
    const standby = await measured('write a handoff note', 'standby');
    expect(cold.result.outcome.kind).toBe('not-triggered');
    expect(standby.result.outcome.kind).toBe('not-triggered');
    // The normalisation did its work: the raw bodies differ only where the documented text does.
    expect(standby.body).not.toBe(cold.body);
    let aligned = standby.body;
    for (const [from, to] of STANDBY_ONLY) {
      expect(aligned).toContain(from);
      aligned = aligned.split(from).join(to);
    }
    expect(aligned).toBe(cold.body);
    // The init event comes after the prompt, and names the stub: the roster check still holds.
    expect(standby.result.init?.slashCommands.some((n) => n.startsWith('iso-stub-'))).toBe(true);
  });

  it('a standby decides a hit as a cold run does', async () => {
    const standby = await measured('hit: write a handoff note', 'standby');
    expect(standby.result.outcome.kind).toBe('triggered');
    expect(standby.result.loaded).toEqual({ kind: 'stub' });
  });
});
