import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnClaude } from '../../src/adapters/claude.js';
import { createStubProject } from '../../src/adapters/stub-project.js';
import type { EvalItem } from '../../src/inputs/types.js';
import { type MatrixEntrant, type MatrixProgress, measureMatrix } from '../../src/matrix/measure-matrix.js';
import type { RunDeps } from '../../src/measure/run-once.js';
import { type SimulatedModel, startSimulatedModel } from '../../src/simulated/model.js';
import { CLAUDE_BIN, makeClaudeEnv } from '../fakes/claude-env.js';
import { liveMembers } from '../fakes/process-group.js';

/**
 * The matrix loop's speed-up (issue 12), through the real claude: the next run's project is made
 * while the current run runs (the prefetch of run's loop, src/measure/prefetch.ts), yet no claude
 * is spawned while the previous one's process group lives, and none of its requests reach the
 * model once the next run has started.
 */
let model: SimulatedModel;
let claude: Awaited<ReturnType<typeof makeClaudeEnv>>;
let root: string;
let userTmp: string;

/** Queries ending in `p` get a model that keeps working after its Skill call; the rest a text answer. */
const item = (query: string): EvalItem => ({
  id: query,
  query,
  shouldTrigger: query.endsWith('p'),
  extra: {},
});
const entrants: MatrixEntrant[] = [
  {
    name: 'alpha',
    listed: 'Write alpha reports for the weekly review',
    items: ['mx alpha 1p', 'mx alpha 2n'],
  },
  { name: 'beta', listed: 'Draw beta charts from a table of numbers', items: ['mx beta 1p', 'mx beta 2n'] },
].map(({ name, listed, items }) => ({
  name,
  listed,
  evalSet: { file: `${name}.json`, format: 'skill-creator-json', items: items.map(item) },
}));

beforeAll(async () => {
  model = await startSimulatedModel({
    script: (view) =>
      view.query.endsWith('p') ? { kind: 'skill-then-work', turns: 3, delayMs: 300 } : { kind: 'text' },
  });
  root = await mkdtemp(path.join(tmpdir(), 'skilltrigger-matrix-serial-'));
  userTmp = await mkdtemp(path.join(tmpdir(), 'skilltrigger-matrix-serial-usertmp-'));
  claude = await makeClaudeEnv(model, { TMPDIR: userTmp });
});

afterAll(async () => {
  await model.close();
  await claude.cleanup();
  await rm(root, { recursive: true, force: true });
  await rm(userTmp, { recursive: true, force: true });
});

describe('the matrix loop: set-up overlapped, claude strictly serial', () => {
  it('makes the next project during a run, and spawns no claude beside a live one', async () => {
    // Date.now throughout: the clock the model server stamps its requests with.
    const created: number[] = [];
    const spawns: { pid: number | undefined; at: number; previousAlive: string[] }[] = [];
    const gone: number[] = [];
    const deps: RunDeps = {
      now: () => Date.now(),
      createProject: (spec) => {
        created.push(Date.now());
        return createStubProject({ ...spec, root });
      },
      spawn: (options) => {
        const previous = spawns.at(-1)?.pid;
        const previousAlive = previous === undefined ? [] : liveMembers(previous);
        const proc = spawnClaude(options);
        spawns.push({ pid: proc.pid, at: Date.now(), previousAlive });
        return {
          ...proc,
          // When runOnce's `await proc.kill()` returns: the group is gone.
          kill: async () => {
            await proc.kill();
            gone.push(Date.now());
          },
        };
      },
    };
    const progress: MatrixProgress[] = [];
    const report = await measureMatrix(
      {
        entrants,
        runsPerQuery: 2,
        noVerdictShare: 0.1,
        timeoutSeconds: 30,
        stub: 'command',
        maxRetries: 0,
        claudeBin: CLAUDE_BIN,
        env: claude.env,
        conflictAllowed: false,
        simulated: true,
        toolVersion: 'test',
      },
      (p) => progress.push(p),
      undefined,
      deps,
    );
    expect(report.aborted).toBe(false);
    expect(progress).toHaveLength(8);
    // Every run was measured (a Skill call or a text answer), none lost to a timeout or an error.
    expect(progress.map((p) => p.went.to).filter((to) => to === 'lost')).toEqual([]);
    expect(spawns).toHaveLength(8);
    // The plan's order, as the model server saw the runs start: pass 1 over every query, then pass 2.
    const queries = entrants.flatMap((e) => e.evalSet?.items.map((i) => i.query) ?? []);
    const firsts = model.requests.filter((r) => r.view !== undefined && r.turn === 1);
    expect(firsts.map((r) => r.view?.query)).toEqual([...queries, ...queries]);
    // Every later turn belongs to the run whose first request came last before it: none from a
    // claude that should be gone (consecutive runs ask different queries).
    let current = -1;
    for (const request of model.requests.filter((r) => r.view !== undefined)) {
      if (request.turn === 1) current++;
      else expect(request.view?.query).toBe(firsts[current]?.view?.query);
    }
    for (let i = 1; i < spawns.length; i++) {
      const spawn = spawns[i];
      // At the next spawn the previous group had no live process, its end came before the spawn,
      // and the spawn before the first request of the run it started.
      expect(spawn?.previousAlive).toEqual([]);
      expect(gone[i - 1] ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(spawn?.at ?? 0);
      expect(spawn?.at ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(firsts[i]?.at ?? 0);
      // The prefetch: run i+1's project was begun while run i's claude still ran.
      expect(created[i] ?? Number.POSITIVE_INFINITY).toBeLessThan(gone[i - 1] ?? 0);
    }
    expect(gone).toHaveLength(8);
    // One project per run, each made once; nothing left in the temp root or the user's TMPDIR.
    expect(created).toHaveLength(8);
    expect(await readdir(root)).toEqual([]);
    expect(await readdir(userTmp)).toEqual([]);
    expect(await readdir(path.join(claude.home, '.claude', 'sessions')).catch(() => [])).toEqual([]);
  });
});
