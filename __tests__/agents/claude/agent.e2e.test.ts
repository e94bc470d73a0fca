import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeEnvironment } from '../../../src/agents/claude/run-once.js';
import { QUICK_ANSWER_MS, REQUEST_OUT_MS, standbyStartsAt } from '../../../src/agents/claude/standby.js';
import type { EvalItem } from '../../../src/inputs/types.js';
import { measureAll } from '../../../src/measure/loop.js';
import { probabilistic } from '../../../src/simulated/model.js';
import { CLAUDE_BIN } from '../../fakes/claude-env.js';
import { withClaude } from '../../fakes/claude-loop.js';
import { firstRequestsInOrder, recordingDeps, serialWorld } from '../../fakes/process-group.js';

/**
 * When claude's standbys start (docs/speed.md, "When a standby starts"), through the real binary:
 * with the run's prompt while the model answers quickly, and only once the run's request is out
 * while it takes longer, so a starting claude does not slow the prompted one on its way to the
 * model. Either way the runs stay serial and each is prompted on a standby. The rule judges the
 * wait it measured over the previous run (request out to decision), which includes the CLI's own
 * time: on a loaded machine even the instant model's wait can pass QUICK_ANSWER_MS, so each run is
 * held to what the rule says of the wait before it, and the quick world's label is what the wait
 * usually is, not a promise.
 */
const items: EvalItem[] = ['p1', 'n1', 'p2', 'n2'].map((id) => ({
  id,
  query: `timing ${id}`,
  shouldTrigger: id.startsWith('p'),
  extra: {},
}));
const script = probabilistic(
  Object.fromEntries(items.map((i) => [i.query, i.shouldTrigger ? 1 : 0])),
  { kind: 'skill' },
  { kind: 'text' },
);

const worlds = {
  quick: { answerDelayMs: 0 },
  slow: { answerDelayMs: QUICK_ANSWER_MS + 350 },
};
type World = Awaited<ReturnType<typeof serialWorld>>;
const started: Partial<Record<keyof typeof worlds, World>> = {};

beforeAll(async () => {
  for (const [name, options] of Object.entries(worlds) as Array<
    [keyof typeof worlds, { answerDelayMs: number }]
  >) {
    started[name] = await serialWorld(`skilltrigger-timing-${name}`, { ...options, script });
  }
});

afterAll(async () => {
  await Promise.all(Object.values(started).map((w) => w?.close()));
});

describe.each([
  { world: 'quick' as const, startsAt: 'prompt' },
  { world: 'slow' as const, startsAt: 'asked' },
])('one standby, a model answering $world', ({ world, startsAt }) => {
  it(`starts the next run's standby ${startsAt === 'prompt' ? 'with the prompt' : 'once the request is out'}`, async () => {
    const w = started[world] as World;
    const { deps, created, prompts } = recordingDeps(w.root);
    const before = w.model.requests.length;
    const result = await measureAll(
      withClaude(
        {
          items,
          sides: [
            { label: 'candidate', stub: { layout: 'command', skillName: 'handoff', description: 'x' } },
          ],
          rules: { runsPerQuery: 1, triggerThreshold: 0.5, noVerdictShare: 0.1 },
          run: { timeoutMs: 20_000, claudeBin: CLAUDE_BIN, env: claudeEnvironment(w.claude.env, 0) },
          standby: 1,
        },
        deps,
      ),
      () => {},
      undefined,
    );
    const runs = items.map((_, i) => result.records[0]?.[i]?.[0]);
    expect(runs.map((r) => r?.outcome.kind)).toEqual([
      'triggered',
      'not-triggered',
      'triggered',
      'not-triggered',
    ]);
    expect(firstRequestsInOrder(w.model.requests.slice(before)).map((r) => r.view?.query)).toEqual(
      items.map((i) => i.query),
    );
    expect(prompts.map((p) => p.standby)).toEqual([true, true, true, true]);
    expect(prompts.filter((p) => p.previousAlive.length > 0)).toEqual([]);
    // Project k is run k's: the first run started its own, and run k started run k+1's. The
    // first run's model wait is known only once it ended, so from the second run on the rule shows.
    expect(created).toHaveLength(items.length);
    const modes: string[] = [];
    for (let k = 1; k < items.length - 1; k++) {
      const phases = runs[k]?.phases;
      const last = runs[k - 1]?.phases;
      const next = created[k + 1] as number;
      expect(phases?.asked).toBeDefined();
      expect(last?.asked).toBeDefined();
      const mode = standbyStartsAt((last?.decided as number) - (last?.asked as number));
      modes.push(mode);
      // Once the request is out: the status, and the time the CLI takes from it to its request
      // (a timer may fire a millisecond early).
      if (mode === 'asked')
        expect(next).toBeGreaterThanOrEqual((phases?.asked as number) + REQUEST_OUT_MS - 2);
      else expect(next).toBeLessThan(phases?.asked as number);
    }
    // A model slower than the threshold is slow on any machine.
    if (startsAt === 'asked') expect(modes).toEqual(['asked', 'asked']);
  });
});
