import { describe, expect, it } from 'vitest';
import type { LoopSpec } from '../../src/measure/loop-spec.js';
import { firstWaitingSpec } from '../../src/measure/loop-targets.js';

const base: LoopSpec = {
  items: [{ id: 'a', query: 'q a', shouldTrigger: true, extra: {} }],
  sides: [{ label: 'candidate', stub: { layout: 'command', skillName: 'handoff', description: 'cand' } }],
  rules: { runsPerQuery: 2, triggerThreshold: 0.5, noVerdictShare: 0.1 },
  run: { timeoutMs: 1000, claudeBin: 'claude', env: {} },
  standby: 1,
};

describe('firstWaitingSpec', () => {
  it("is the first planned run's side and model", () => {
    expect(firstWaitingSpec(base)?.stub.description).toBe('cand');
    // Paired: the plan opens with the baseline.
    const paired: LoopSpec = {
      ...base,
      sides: [
        ...base.sides,
        { label: 'baseline', stub: { layout: 'command', skillName: 'handoff', description: 'base' } },
      ],
      models: ['m1', 'm2'],
    };
    expect(firstWaitingSpec(paired)).toMatchObject({ stub: { description: 'base' }, model: 'm1' });
  });

  it("is claude's first run when claude is not the first agent", () => {
    const agents: LoopSpec = {
      ...base,
      agents: [{ agent: 'codex' }, { agent: 'claude', model: 'sonnet' }],
    };
    expect(firstWaitingSpec(agents)).toMatchObject({ stub: { description: 'cand' }, model: 'sonnet' });
  });

  it('is none when runs go cold or none is claude', () => {
    expect(firstWaitingSpec({ ...base, standby: 0 })).toBeUndefined();
    expect(firstWaitingSpec({ ...base, agent: 'codex' })).toBeUndefined();
  });
});
