import { describe, expect, it } from 'vitest';
import type { RunDeps } from '../../src/agents/claude/run-once.js';
import type { EvalItem } from '../../src/inputs/types.js';
import { measureAll } from '../../src/measure/loop.js';
import { type ClaudeLoopSpec, withClaude } from '../fakes/claude-loop.js';

describe('measureAll with --runs auto (fake process, real loop)', () => {
  /** A stand-in claude: answers each query with a Skill call naming the stub or with text. */
  function deps(hit: (query: string, n: number) => boolean): RunDeps {
    const seen = new Map<string, number>();
    return {
      now: () => performance.now(),
      createProject: async (spec) => ({
        dir: '/nonexistent/project',
        tmpDir: '/nonexistent/tmp',
        stub: {
          name: `${spec.skillName}-stub-00000000`,
          filePath: '/nonexistent/stub.md',
          projectDir: '/nonexistent',
        },
        siblings: [],
        remove: async () => {},
      }),
      spawn: (options) => {
        const query = options.args.at(-1) ?? '';
        const n = seen.get(query) ?? 0;
        seen.set(query, n + 1);
        const stub = 'handoff-stub-00000000';
        const content = hit(query, n)
          ? [{ type: 'tool_use', id: 't', name: 'Skill', input: { skill: stub } }]
          : [{ type: 'text', text: 'no' }];
        const lines = [
          JSON.stringify({ type: 'system', subtype: 'init', model: 'm', slash_commands: [stub], skills: [] }),
          JSON.stringify({
            type: 'assistant',
            message: { id: `m${n}`, model: 'm', content },
            parent_tool_use_id: null,
          }),
          JSON.stringify({ type: 'result', subtype: 'success', is_error: false }),
        ];
        return {
          lines: (async function* () {
            yield* lines;
          })(),
          exited: Promise.resolve({ spawnFailed: false, exitCode: 0 }),
          stop: async () => {},
          kill: async () => {},
          hasExited: () => false,
          send: async () => {},
          pid: undefined,
        };
      },
    };
  }
  const items: EvalItem[] = [
    { id: 'p1', query: 'p1', shouldTrigger: true, extra: {} },
    { id: 'p2', query: 'p2', shouldTrigger: true, extra: {} },
    { id: 'n1', query: 'n1', shouldTrigger: false, extra: {} },
  ];
  const spec = (sides: ClaudeLoopSpec['sides']): ClaudeLoopSpec => ({
    items,
    sides,
    rules: { runsPerQuery: 6, autoRuns: true, triggerThreshold: 0.5, noVerdictShare: 0.1 },
    run: { timeoutMs: 5000, claudeBin: 'claude', env: {} },
  });
  const side = (label: 'candidate' | 'baseline'): ClaudeLoopSpec['sides'][number] => ({
    label,
    stub: { layout: 'command', skillName: 'handoff', description: label },
  });

  it('stops clear queries at 3 runs and keeps a mixed one going to the maximum', async () => {
    // p1 always hits, n1 never, p2 alternates (hit, miss, …) so it never settles early.
    const result = await measureAll(
      withClaude(
        spec([side('candidate')]),
        deps((q, n) => q === 'p1' || (q === 'p2' && n % 2 === 0)),
      ),
      () => {},
      undefined,
    );
    const runs = result.records[0]?.map((r) => r.length);
    expect(runs).toEqual([3, 6, 3]);
    expect(result.aborted).toBe(false);
  });

  it('keeps pairs whole in paired mode', async () => {
    const result = await measureAll(
      withClaude(
        spec([side('candidate'), side('baseline')]),
        deps((q) => q === 'p1'),
      ),
      () => {},
      undefined,
    );
    expect(result.records[0]?.map((r) => r.length)).toEqual(result.records[1]?.map((r) => r.length));
  });

  it('with several models, asks each run for its model and settles each model on its own', async () => {
    const asked: string[] = [];
    const base = deps((q) => q === 'p1');
    const recording: RunDeps = {
      ...base,
      spawn: (options) => {
        const at = options.args.indexOf('--model');
        asked.push(`${options.args.at(-1)}@${at >= 0 ? options.args[at + 1] : 'default'}`);
        return base.spawn(options);
      },
    };
    const result = await measureAll(
      withClaude({ ...spec([side('candidate')]), models: ['haiku', 'sonnet'] }, recording),
      () => {},
      undefined,
    );
    expect(asked.slice(0, 6)).toEqual([
      'p1@haiku',
      'p1@sonnet',
      'p2@sonnet',
      'p2@haiku',
      'n1@haiku',
      'n1@sonnet',
    ]);
    const perModel = (model: string) =>
      result.records[0]?.map((runs) => runs.filter((r) => r.requestedModel === model).length);
    // As with one model: p1 (3/3) and n1 (0/3) settle at 3 runs, p2 (a positive at 0/2) at 2.
    expect(perModel('haiku')).toEqual([3, 2, 3]);
    expect(perModel('sonnet')).toEqual([3, 2, 3]);
    expect(asked).toHaveLength(16);
  });

  describe('--max-cost-usd', () => {
    const fixed = (runsPerQuery: number): ClaudeLoopSpec => ({
      ...spec([side('candidate')]),
      rules: { runsPerQuery, triggerThreshold: 0.5, noVerdictShare: 0.1 },
    });

    it('stops before the run that could pass the budget, and says what was spent', async () => {
      // 3 queries × 2 runs at $0.10 a run; $0.45 pays for 4 runs, not a 5th.
      const result = await measureAll(
        withClaude(
          { ...fixed(2), budget: { maxUsd: 0.45, costOf: () => 0.1, firstEstimateUsd: 0.1 } },
          deps(() => true),
        ),
        () => {},
        undefined,
      );
      expect(result.records[0]?.flat()).toHaveLength(4);
      expect(result.aborted).toBe(true);
      expect(result.budgetStop?.spentUsd).toBeCloseTo(0.4, 10);
      expect(result.budgetStop).toMatchObject({ nextEstimateUsd: 0.1, maxUsd: 0.45 });
    });

    it('counts what earlier measurements spent of the same budget (the Action’s job)', async () => {
      // $0.25 already spent of $0.45: two $0.10 runs fit, a third does not.
      const result = await measureAll(
        withClaude(
          { ...fixed(2), budget: { maxUsd: 0.45, costOf: () => 0.1, firstEstimateUsd: 0.1, spentUsd: 0.25 } },
          deps(() => true),
        ),
        () => {},
        undefined,
      );
      expect(result.records[0]?.flat()).toHaveLength(2);
      expect(result.budgetStop?.spentUsd).toBeCloseTo(0.45, 10);
    });

    it('a run that fits exactly goes ahead, whatever the float rounding', async () => {
      // $0.30 pays for three $0.10 runs, though 0.1 + 0.1 + 0.1 is 0.30000000000000004 in floating point.
      const result = await measureAll(
        withClaude(
          { ...fixed(2), budget: { maxUsd: 0.3, costOf: () => 0.1, firstEstimateUsd: 0.1 } },
          deps(() => true),
        ),
        () => {},
        undefined,
      );
      expect(result.records[0]?.flat()).toHaveLength(3);
      expect(result.budgetStop?.spentUsd).toBeCloseTo(0.3, 10);
    });

    it('runs the whole plan when the budget covers it', async () => {
      const result = await measureAll(
        withClaude(
          { ...fixed(2), budget: { maxUsd: 0.6, costOf: () => 0.1, firstEstimateUsd: 0.1 } },
          deps(() => true),
        ),
        () => {},
        undefined,
      );
      expect(result.records[0]?.flat()).toHaveLength(6);
      expect(result.budgetStop).toBeUndefined();
    });

    it('expects the next run to cost as much as the dearest so far, and the first as estimated', async () => {
      let n = 0;
      const costs = [0.05, 0.3, 0.05];
      const result = await measureAll(
        withClaude(
          { ...fixed(2), budget: { maxUsd: 0.5, costOf: () => costs[n++] ?? 0.05, firstEstimateUsd: 0.05 } },
          deps(() => true),
        ),
        () => {},
        undefined,
      );
      // After $0.35 spent, another run as dear as the dearest so far ($0.30) no longer fits.
      expect(result.records[0]?.flat()).toHaveLength(2);
      expect(result.budgetStop?.nextEstimateUsd).toBe(0.3);
      const none = await measureAll(
        withClaude(
          { ...fixed(2), budget: { maxUsd: 0.01, costOf: () => 0.1, firstEstimateUsd: 0.1 } },
          deps(() => true),
        ),
        () => {},
        undefined,
      );
      expect(none.records[0]?.flat()).toHaveLength(0);
      expect(none.budgetStop?.spentUsd).toBe(0);
    });
  });
});
