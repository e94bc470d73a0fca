import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalItem } from '../../src/inputs/types.js';
import { measureAll } from '../../src/measure/loop.js';
import { claudeEnvironment } from '../../src/measure/run-once.js';
import { probabilistic, type SimulatedModel, startSimulatedModel } from '../../src/simulated/model.js';
import { CLAUDE_BIN, makeClaudeEnv } from '../fakes/claude-env.js';
import { firstRequestsInOrder, recordingDeps, serialWorld } from '../fakes/process-group.js';

/**
 * Issue 12's rule, through the real claude: the next project is made while a run runs and the
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

describe('strictly serial, with the set-up overlapped', () => {
  it('never spawns claude while the previous process group lives, and leaves nothing behind', async () => {
    const { deps, spawns } = recordingDeps(root);
    const result = await measureAll(
      {
        items,
        sides: [{ label: 'candidate', stub: { layout: 'command', skillName: 'handoff', description: 'x' } }],
        rules: { runsPerQuery: 2, triggerThreshold: 0.5, noVerdictShare: 0.1 },
        run: { timeoutMs: 20_000, claudeBin: CLAUDE_BIN, env: claudeEnvironment(claude.env, 0) },
      },
      () => {},
      undefined,
      deps,
    );
    const outcomes = result.records[0]?.map((runs) => runs.map((r) => r.outcome.kind));
    expect(outcomes).toEqual([
      ['triggered', 'triggered'],
      ['triggered', 'triggered'],
      ['not-triggered', 'not-triggered'],
      ['not-triggered', 'not-triggered'],
    ]);
    expect(spawns).toHaveLength(8);
    expect(spawns.filter((s) => s.previousAlive.length > 0)).toEqual([]);
    // What the model server saw: one run after another, in the planned order (a run's later
    // turns, if any were sent before its kill, come before the next run's first request).
    const runStarts = firstRequestsInOrder(model.requests).map((r) => r.view?.query);
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
        {
          items: queries,
          sides: [
            { label: 'candidate', stub: { layout: 'command', skillName: 'handoff', description: 'x' } },
          ],
          rules: { runsPerQuery: 2, triggerThreshold: 0.5, noVerdictShare: 0.1 },
          run: { timeoutMs: 30_000, claudeBin: CLAUDE_BIN, env: claudeEnvironment(env.env, 0) },
        },
        () => {},
        undefined,
        deps,
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
