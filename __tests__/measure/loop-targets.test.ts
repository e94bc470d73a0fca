import { describe, expect, it } from 'vitest';
import { firstRunOf, loopTargets, type PlanSpec, warmStartsOf } from '../../src/measure/loop-targets.js';

const base: PlanSpec = {
  items: [{ id: 'a', query: 'q a', shouldTrigger: true, extra: {} }],
  sides: [{ label: 'candidate' }],
  rules: { runsPerQuery: 2, triggerThreshold: 0.5, noVerdictShare: 0.1 },
  timeoutMs: 1000,
};
const first = (spec: PlanSpec, id: 'claude' | 'codex') => firstRunOf(spec, loopTargets(spec), id);

describe('firstRunOf', () => {
  it("is the first planned run's side and model", () => {
    expect(first(base, 'claude')).toEqual({ side: 0 });
    expect(first({ ...base, model: 'm' }, 'claude')).toEqual({ side: 0, model: 'm' });
    // Paired: the plan opens with the baseline.
    const paired: PlanSpec = { ...base, sides: [...base.sides, { label: 'baseline' }], models: ['m1', 'm2'] };
    expect(first(paired, 'claude')).toEqual({ side: 1, model: 'm1' });
  });

  it("is the agent's own first run when it is not the first agent", () => {
    const agents: PlanSpec = { ...base, agents: [{ agent: 'codex' }, { agent: 'claude', model: 'sonnet' }] };
    expect(first(agents, 'claude')).toEqual({ side: 0, model: 'sonnet' });
    expect(first({ ...base, agent: 'codex' }, 'claude')).toBeUndefined();
  });
});

describe('warmStartsOf', () => {
  it('gives standbys only to an agent with a warm standby, and none with runs cold', () => {
    const t = loopTargets(base);
    expect(warmStartsOf(base, t, 'claude', 1, undefined)).toEqual({ count: 1, first: { side: 0 } });
    expect(warmStartsOf(base, t, 'claude', 0, undefined)).toEqual({ count: 0 });
    expect(warmStartsOf(base, t, 'gemini', 2, undefined)).toEqual({ count: 0 });
  });
});
