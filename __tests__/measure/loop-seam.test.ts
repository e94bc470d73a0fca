import { describe, expect, it } from 'vitest';
import type { AgentRunRequest } from '../../src/agents/runs.js';
import type { EvalItem } from '../../src/inputs/types.js';
import { measureAll } from '../../src/measure/loop.js';
import type { LoopSpec, RunProgress, SideSpec } from '../../src/measure/loop-spec.js';
import type { Outcome } from '../../src/outcome.js';
import { type FakeAgent, fakeAgent } from '../fakes/fake-agent.js';

/**
 * The loop on the agent spec alone (src/agents/runs.ts): a fake agent stands in for every CLI, so
 * what is checked here is the loop's side of the seam, whichever agent runs.
 */
const items: EvalItem[] = [
  { id: 'p1', query: 'p1', shouldTrigger: true, extra: {} },
  { id: 'p2', query: 'p2', shouldTrigger: true, extra: {} },
  { id: 'n1', query: 'n1', shouldTrigger: false, extra: {} },
];
const side = (label: 'candidate' | 'baseline'): SideSpec => ({ label });
const HIT: Outcome = { kind: 'triggered' };
const MISS: Outcome = { kind: 'not-triggered' };

/** A loop over `items` run only by the given agents (claude's slot taken by a fake too, when named). */
function specFor(agents: FakeAgent[], over: Partial<LoopSpec> = {}): LoopSpec {
  const several = agents.length > 1;
  const [only] = agents;
  return {
    items,
    sides: [side('candidate')],
    rules: { runsPerQuery: 2, triggerThreshold: 0.5, noVerdictShare: 0.1 },
    timeoutMs: 5000,
    seam: Object.fromEntries(agents.map((a) => [a.id, a])),
    ...(several ? { agents: agents.map((a) => ({ agent: a.id })) } : { agent: only?.id ?? 'codex' }),
    ...over,
  };
}

/** Positives hit, negatives miss. */
const truthful = (request: AgentRunRequest) => (request.query.startsWith('p') ? HIT : MISS);

describe('the loop on a fake agent, through the agent spec', () => {
  it('records each decision where it belongs, round-robin and strictly one run at a time', async () => {
    const agent = fakeAgent('codex', truthful);
    const progress: RunProgress[] = [];
    const result = await measureAll(specFor([agent]), (p) => progress.push(p));
    expect(agent.requests.map((r) => r.query)).toEqual(['p1', 'p2', 'n1', 'p1', 'p2', 'n1']);
    expect(agent.overlapped).toBe(false);
    expect(result.records[0]?.map((runs) => runs.map((r) => r.outcome.kind))).toEqual([
      ['triggered', 'triggered'],
      ['triggered', 'triggered'],
      ['not-triggered', 'not-triggered'],
    ]);
    expect(result.records[0]?.[0]?.[0]?.loaded).toEqual({ kind: 'stub' });
    expect(progress.map((p) => p.done)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(progress.every((p) => p.planned === 6)).toBe(true);
    expect(result).toMatchObject({ aborted: false, interrupted: false });
  });

  it('keeps timeouts and errors as lost runs, never as misses, and stops once no verdict is possible', async () => {
    // p2 is lost on every run: more than 10% of 6 runs, so the loop stops as soon as that is certain.
    const agent = fakeAgent('codex', (request) =>
      request.query === 'p2' ? { kind: 'timeout' } : truthful(request),
    );
    const result = await measureAll(specFor([agent]), () => {});
    const p2 = result.records[0]?.[1] ?? [];
    expect(p2.length).toBeGreaterThan(0);
    expect(p2.every((r) => r.outcome.kind === 'timeout')).toBe(true);
    expect(result.aborted).toBe(true);
    expect(result.interrupted).toBe(false);
    // Stopped before the whole plan: what was lost made a verdict impossible.
    expect(agent.requests.length).toBeLessThan(6);

    const erring = fakeAgent('codex', (request) =>
      request.query === 'n1' ? { kind: 'error', cause: 'overloaded', message: '529' } : truthful(request),
    );
    const errored = await measureAll(specFor([erring]), () => {});
    expect(errored.records[0]?.[2]?.[0]?.outcome).toEqual({
      kind: 'error',
      cause: 'overloaded',
      message: '529',
    });
  });

  it('on an abort, kills the run going on, records nothing of it, and settles the agent', async () => {
    const controller = new AbortController();
    const agent = fakeAgent('codex', (request, nth) => {
      if (request.query === 'p2' && nth === 0) {
        setTimeout(() => controller.abort(), 5);
        return { kind: 'hang' };
      }
      return truthful(request);
    });
    const result = await measureAll(specFor([agent]), () => {}, controller.signal);
    expect(result).toMatchObject({ aborted: true, interrupted: true });
    expect(result.records[0]?.map((runs) => runs.length)).toEqual([1, 0, 0]);
    expect(agent.requests.at(-1)?.signal?.aborted).toBe(true);
    expect(agent.settled).toBe(1);
  });

  it('tells the agent which runs come next (ahead), nearest first, and settles it once at the end', async () => {
    const agent = fakeAgent('codex', truthful);
    await measureAll(specFor([agent], { sides: [side('candidate'), side('baseline')] }), () => {});
    // Paired: the first pair runs baseline then candidate, the next candidate then baseline.
    expect(agent.requests.slice(0, 4).map((r) => `${r.query}/${r.side}`)).toEqual([
      'p1/1',
      'p1/0',
      'p2/0',
      'p2/1',
    ]);
    expect(agent.prepared[0]?.slice(0, 3)).toEqual([
      { agent: 'codex', side: 0 },
      { agent: 'codex', side: 0 },
      { agent: 'codex', side: 1 },
    ]);
    expect(agent.prepared).toHaveLength(agent.requests.length);
    expect(agent.prepared.at(-1)).toEqual([]);
    expect(agent.settled).toBe(1);
  });

  it('interleaves several agents query by query, each asked for its own model, and says who ran each run', async () => {
    const first = fakeAgent('claude', truthful);
    const second = fakeAgent('codex', () => MISS);
    const result = await measureAll(
      specFor([first, second], {
        agents: [
          { agent: 'claude', model: 'm-claude' },
          { agent: 'codex', model: 'm-codex' },
        ],
      }),
      () => {},
    );
    expect(first.requests.map((r) => r.model)).toEqual(Array(6).fill('m-claude'));
    expect(second.requests.map((r) => r.model)).toEqual(Array(6).fill('m-codex'));
    const p1 = result.records[0]?.[0] ?? [];
    expect(p1.map((r) => `${r.agent}:${r.outcome.kind}`).sort()).toEqual([
      'claude:triggered',
      'claude:triggered',
      'codex:not-triggered',
      'codex:not-triggered',
    ]);
    // Each agent hears of the runs planned for every agent, so it can prepare its own.
    expect(new Set(first.prepared.flat().map((u) => u.agent))).toEqual(new Set(['claude', 'codex']));
    expect(first.settled).toBe(1);
    expect(second.settled).toBe(1);
  });

  it("hands each run its query's context, and tells the agent what the next runs start with", async () => {
    const turns = [
      { role: 'user' as const, content: 'Fix the build.' },
      { role: 'assistant' as const, content: 'Fixed.' },
    ];
    const withContext = items.map((item) => (item.id === 'p2' ? { ...item, context: { turns } } : item));
    const agent = fakeAgent('codex', truthful);
    await measureAll(specFor([agent], { items: withContext }), () => {});
    expect(agent.requests.map((r) => [r.query, r.context])).toEqual([
      ['p1', undefined],
      ['p2', turns],
      ['n1', undefined],
      ['p1', undefined],
      ['p2', turns],
      ['n1', undefined],
    ]);
    // The very array of the item: an agent may key what it prepares on it.
    expect(agent.requests[1]?.context).toBe(turns);
    expect(agent.prepared[0]?.map((u) => u.context)).toEqual([turns, undefined, undefined, turns, undefined]);
  });
});
