import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeEnvironment } from '../../src/agents/claude/run-once.js';
import type { EvalItem } from '../../src/inputs/types.js';
import { measureAll } from '../../src/measure/loop.js';
import { probabilistic, type SimulatedModel, startSimulatedModel } from '../../src/simulated/model.js';
import { CLAUDE_BIN, makeClaudeEnv } from '../fakes/claude-env.js';
import { withClaude } from '../fakes/claude-loop.js';
import { firstRequestsInOrder, recordingDeps, serialWorld } from '../fakes/process-group.js';

/**
 * The serial rule, through the real claude: the next project is made while a run runs and the
 * last one's folder is removed while the next starts, but no claude is ever spawned while the
 * previous one's process group is alive; and a run killed at its decision leaves nothing behind
 * in HOME or TMPDIR.
 */
let world: Awaited<ReturnType<typeof serialWorld>>;
let model: SimulatedModel;
let claude: Awaited<ReturnType<typeof makeClaudeEnv>>;
let root: string;
let userTmp: string;

const items: EvalItem[] = ['p1', 'p2', 'n1', 'n2'].map((id) => ({
  id,
  query: `query ${id}`,
  shouldTrigger: id.startsWith('p'),
  extra: {},
}));

beforeAll(async () => {
  world = await serialWorld('skilltrigger-serial', {
    script: probabilistic(
      Object.fromEntries(items.map((i) => [i.query, i.shouldTrigger ? 1 : 0])),
      { kind: 'skill' },
      { kind: 'text' },
    ),
  });
  ({ model, claude, root, userTmp } = world);
});

afterAll(async () => {
  await world?.close();
});

describe.each([
  { standby: 0, what: 'cold runs' },
  { standby: 2, what: 'two standbys' },
])('strictly serial, with the set-up overlapped ($what)', ({ standby }) => {
  it('never prompts a claude while the previous process group lives, and leaves nothing behind', async () => {
    const { deps, spawns, prompts } = recordingDeps(root);
    const before = model.requests.length; // the world's model serves both variants
    const result = await measureAll(
      withClaude(
        {
          items,
          sides: [
            { label: 'candidate', stub: { layout: 'command', skillName: 'handoff', description: 'x' } },
          ],
          rules: { runsPerQuery: 2, triggerThreshold: 0.5, noVerdictShare: 0.1 },
          run: { timeoutMs: 20_000, claudeBin: CLAUDE_BIN, env: claudeEnvironment(claude.env, 0) },
          standby,
        },
        deps,
      ),
      () => {},
      undefined,
    );
    const outcomes = result.records[0]?.map((runs) => runs.map((r) => r.outcome.kind));
    expect(outcomes).toEqual([
      ['triggered', 'triggered'],
      ['triggered', 'triggered'],
      ['not-triggered', 'not-triggered'],
      ['not-triggered', 'not-triggered'],
    ]);
    expect(prompts).toHaveLength(8);
    expect(prompts.every((p) => p.standby === standby > 0)).toBe(true);
    expect(prompts.filter((p) => p.previousAlive.length > 0)).toEqual([]);
    // A standby left over at the end was started but never prompted, and is gone with the rest.
    expect(spawns.length).toBeGreaterThanOrEqual(8);
    expect(spawns.length).toBeLessThanOrEqual(8 + standby);
    if (standby === 0) expect(spawns.filter((s) => s.previousAlive.length > 0)).toEqual([]);
    // What the model server saw: one run after another, in the planned order (a run's later
    // turns, if any were sent before its kill, come before the next run's first request).
    const runStarts = firstRequestsInOrder(model.requests.slice(before)).map((r) => r.view?.query);
    expect(runStarts).toEqual([...items, ...items].map((i) => i.query));
    // Nothing left: no temp project, no session files, no half-written config, no sockets.
    expect(await readdir(root)).toEqual([]);
    expect(await readdir(path.join(claude.home, '.claude', 'sessions')).catch(() => [])).toEqual([]);
    expect((await readdir(claude.home)).filter((n) => n.startsWith('.claude.json.tmp'))).toEqual([]);
    const configText = await readFile(path.join(claude.home, '.claude.json'), 'utf8');
    // The CLI's own config file is whole: it is only ever renamed into place.
    expect(() => JSON.parse(configText)).not.toThrow();
    expect(await readdir(userTmp)).toEqual([]);
  });
});

describe('no overlap, as the model server sees it', () => {
  it("the previous claude's group is gone before the next run's first request can reach the model", async () => {
    // A model that keeps working after the Skill call (more turns, each held back): a previous
    // claude left alive would still be sending while the next one starts.
    const busy = await startSimulatedModel({
      script: (view) =>
        view.query.endsWith('p') ? { kind: 'skill-then-work', turns: 3, delayMs: 300 } : { kind: 'text' },
    });
    const env = await makeClaudeEnv(busy, { TMPDIR: userTmp });
    try {
      const { deps, spawns } = recordingDeps(root);
      const queries: EvalItem[] = ['1p', '2n', '3p'].map((id) => ({
        id,
        query: `busy ${id}`,
        shouldTrigger: id.endsWith('p'),
        extra: {},
      }));
      const result = await measureAll(
        withClaude(
          {
            items: queries,
            sides: [
              { label: 'candidate', stub: { layout: 'command', skillName: 'handoff', description: 'x' } },
            ],
            rules: { runsPerQuery: 2, triggerThreshold: 0.5, noVerdictShare: 0.1 },
            run: { timeoutMs: 30_000, claudeBin: CLAUDE_BIN, env: claudeEnvironment(env.env, 0) },
          },
          deps,
        ),
        () => {},
        undefined,
      );
      // The plan's order: pass 1 over the queries, then pass 2.
      const runs = [0, 1].flatMap((pass) => queries.map((_, i) => result.records[0]?.[i]?.[pass]));
      expect(runs.map((r) => r?.outcome.kind)).toEqual([
        'triggered',
        'not-triggered',
        'triggered',
        'triggered',
        'not-triggered',
        'triggered',
      ]);
      // Every later turn the model saw belongs to the run whose first request came last before it.
      const firsts = firstRequestsInOrder(busy.requests);
      expect(firsts.map((r) => r.view?.query)).toEqual([...queries, ...queries].map((q) => q.query));
      expect(spawns).toHaveLength(6);
      for (let i = 1; i < runs.length; i++) {
        // The run's own reading of "group gone" (RunDeps.now is Date.now here, as recorded).
        const gone = runs[i - 1]?.phases?.gone;
        const spawn = spawns[i];
        const first = firsts[i];
        expect(gone).toBeDefined();
        // At the next spawn the previous group had no live process, its end was read before the
        // spawn, and the spawn came before the first request of the run it started.
        expect(spawn?.previousAlive).toEqual([]);
        expect(gone ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(spawn?.at ?? 0);
        expect(spawn?.at ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(first?.at ?? 0);
      }
    } finally {
      await busy.close();
      await env.cleanup();
    }
  });
});

describe('standbys, as the model server sees them', () => {
  it('no two runs talk to the model at once, and no standby asks before its prompt', async () => {
    // A model that keeps working after the Skill call (more turns, each held back): a standby
    // that asked early, or a run left alive, would overlap another run's requests.
    const busy = await startSimulatedModel({
      script: (view) =>
        view.query.endsWith('p') ? { kind: 'skill-then-work', turns: 2, delayMs: 200 } : { kind: 'text' },
    });
    const env = await makeClaudeEnv(busy, { TMPDIR: userTmp });
    try {
      const { deps, prompts, spawns } = recordingDeps(root);
      const queries: EvalItem[] = ['1p', '2n', '3p'].map((id) => ({
        id,
        query: `standby ${id}`,
        shouldTrigger: id.endsWith('p'),
        extra: {},
      }));
      const result = await measureAll(
        withClaude(
          {
            items: queries,
            sides: [
              { label: 'candidate', stub: { layout: 'command', skillName: 'handoff', description: 'x' } },
            ],
            rules: { runsPerQuery: 2, triggerThreshold: 0.5, noVerdictShare: 0.1 },
            run: { timeoutMs: 30_000, claudeBin: CLAUDE_BIN, env: claudeEnvironment(env.env, 0) },
            standby: 2,
          },
          deps,
        ),
        () => {},
        undefined,
      );
      expect(result.records[0]?.map((runs) => runs.map((r) => r.outcome.kind))).toEqual([
        ['triggered', 'triggered'],
        ['not-triggered', 'not-triggered'],
        ['triggered', 'triggered'],
      ]);
      expect(prompts).toHaveLength(6);
      expect(prompts.every((p) => p.standby)).toBe(true);
      // Standbys were really waiting: a run's claude was spawned before the previous run's prompt.
      const spawnedAt = (pid: number | undefined) => spawns.find((s) => s.pid === pid)?.at ?? 0;
      expect(
        prompts.slice(1).filter((p, i) => spawnedAt(p.pid) < (prompts[i]?.at ?? 0)).length,
      ).toBeGreaterThan(0);
      // The model's requests, grouped by the run's project (each run has its own).
      const messages = busy.requests.filter((r) => r.view !== undefined);
      const sessions = new Map<string, typeof messages>();
      for (const r of messages) {
        const cwd = r.view?.cwd ?? '';
        sessions.set(cwd, [...(sessions.get(cwd) ?? []), r]);
      }
      expect(sessions.size).toBe(6);
      const ordered = [...sessions.entries()].sort(([, a], [, b]) => (a[0]?.at ?? 0) - (b[0]?.at ?? 0));
      for (const [cwd, requests] of ordered) {
        const prompt = prompts.find((p) => p.cwd === cwd);
        expect(prompt, `a prompt for ${cwd}`).toBeDefined();
        // No request of a standby before its prompt was written.
        for (const r of requests) expect(r.at).toBeGreaterThanOrEqual(prompt?.at ?? Number.POSITIVE_INFINITY);
        for (const r of requests) expect(r.endedAt).toBeDefined();
      }
      for (let i = 1; i < ordered.length; i++) {
        const previous = ordered[i - 1]?.[1] ?? [];
        const next = ordered[i]?.[1] ?? [];
        // Every exchange of the previous run ended before the next run's first request arrived.
        const lastEnd = Math.max(...previous.map((r) => r.endedAt ?? Number.POSITIVE_INFINITY));
        expect(lastEnd).toBeLessThanOrEqual(next[0]?.at ?? 0);
      }
      expect(await readdir(root)).toEqual([]);
      expect(await readdir(path.join(env.home, '.claude', 'sessions')).catch(() => [])).toEqual([]);
      expect(await readdir(userTmp)).toEqual([]);
    } finally {
      await busy.close();
      await env.cleanup();
    }
  });
});
