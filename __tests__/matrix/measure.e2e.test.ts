import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalItem } from '../../src/inputs/types.js';
import { type MatrixEntrant, measureMatrix } from '../../src/matrix/measure.js';
import type { MatrixProgress } from '../../src/matrix/plan.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { claudeOver } from '../fakes/claude-loop.js';
import { firstRequestsInOrder, recordingDeps, serialWorld } from '../fakes/process-group.js';

/**
 * The matrix loop's speed-up, through the real claude: the next run's project (cold), or its
 * waiting claude (standby), is made while the current run runs (src/agents/claude/prefetch.ts,
 * src/agents/claude/standby.ts), yet no claude is prompted while the previous one's process group lives,
 * and none of its requests reach the model once the next run has started.
 */
let world: Awaited<ReturnType<typeof serialWorld>>;

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
  world = await serialWorld('skilltrigger-matrix-serial', {
    script: (view) =>
      view.query.endsWith('p') ? { kind: 'skill-then-work', turns: 3, delayMs: 300 } : { kind: 'text' },
  });
});

afterAll(async () => {
  await world?.close();
});

describe.each([
  { standby: 0, what: 'cold runs' },
  { standby: 1, what: 'one standby' },
])('the matrix loop: set-up overlapped, claude strictly serial ($what)', ({ standby }) => {
  it('makes the next project during a run, and prompts no claude beside a live one', async () => {
    const { deps, created, spawns, gone, prompts } = recordingDeps(world.root);
    const progress: MatrixProgress[] = [];
    const before = world.model.requests.length; // the world's model serves both variants
    const report = await measureMatrix(
      {
        entrants,
        runsPerQuery: 2,
        noVerdictShare: 0.1,
        timeoutSeconds: 30,
        stub: 'command',
        maxRetries: 0,
        agent: { id: 'claude', bin: CLAUDE_BIN },
        env: world.claude.env,
        conflictAllowed: false,
        simulated: true,
        toolVersion: 'test',
        standby,
      },
      (p) => progress.push(p),
      undefined,
      claudeOver(deps),
    );
    expect(report.aborted).toBe(false);
    // The report says how the prompts reached claude, as the prompts below show they did.
    expect(report.settings.launch).toBe(standby > 0 ? 'standby' : 'cold');
    expect(progress).toHaveLength(8);
    // Every run was measured (a Skill call or a text answer), none lost to a timeout or an error.
    expect(progress.map((p) => p.went.to).filter((to) => to === 'lost')).toEqual([]);
    // The plan's order, as the model server saw the runs start: pass 1 over every query, then pass 2;
    // and no later turn from a claude that should be gone.
    const queries = entrants.flatMap((e) => e.evalSet?.items.map((i) => i.query) ?? []);
    const firsts = firstRequestsInOrder(world.model.requests.slice(before));
    expect(firsts.map((r) => r.view?.query)).toEqual([...queries, ...queries]);
    expect(prompts).toHaveLength(8);
    expect(prompts.every((p) => p.standby === standby > 0)).toBe(true);
    expect(gone.length).toBeGreaterThanOrEqual(8);
    for (let i = 1; i < prompts.length; i++) {
      const prompt = prompts[i];
      // At the next prompt the previous group had no live process, its end came before the
      // prompt, and the prompt before the first request of the run it started.
      expect(prompt?.previousAlive).toEqual([]);
      expect(gone[i - 1] ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(prompt?.at ?? 0);
      expect(prompt?.at ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(firsts[i]?.at ?? 0);
    }
    if (standby === 0) {
      expect(spawns).toHaveLength(8);
      expect(spawns.filter((s) => s.previousAlive.length > 0)).toEqual([]);
      expect(created).toHaveLength(8);
      // The prefetch: run i+1's project was begun while run i's claude still ran.
      for (let i = 1; i < 8; i++)
        expect(created[i] ?? Number.POSITIVE_INFINITY).toBeLessThan(gone[i - 1] ?? 0);
    } else {
      // A standby left over at the end was started but never prompted, and is gone with the rest.
      expect(spawns.length).toBeGreaterThanOrEqual(8);
      expect(spawns.length).toBeLessThanOrEqual(8 + standby);
      // The standby: run i+1's claude was started while run i's claude still ran.
      const spawnOf = (pid: number | undefined) => spawns.find((s) => s.pid === pid)?.at;
      for (let i = 1; i < 8; i++)
        expect(spawnOf(prompts[i]?.pid) ?? Number.POSITIVE_INFINITY).toBeLessThan(gone[i - 1] ?? 0);
    }
    // One project per claude, each made once; nothing left in the temp root or the user's TMPDIR.
    expect(created).toHaveLength(spawns.length);
    expect(await readdir(world.root)).toEqual([]);
    expect(await readdir(world.userTmp)).toEqual([]);
    expect(await readdir(path.join(world.claude.home, '.claude', 'sessions')).catch(() => [])).toEqual([]);
  });
});
