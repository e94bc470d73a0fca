import { describe, expect, it } from 'vitest';
import { claudeStubs } from '../../src/agents/claude/runtime.js';
import { pricesIdentity } from '../../src/cost/budget.js';
import type { PriceTable } from '../../src/cost/prices.js';
import type { RunResult } from '../../src/measure/loop-spec.js';
import type { MeasureSettings } from '../../src/measure/measure-settings.js';
import {
  loopBudget,
  measurementLoop,
  openLoopAgents,
  runSetupOf,
} from '../../src/measure/measurement-loop.js';
import { DEFAULT_RULES } from '../../src/verdict/rules.js';

/** $1 per million tokens of every kind: a run's cost is its token count over a million. */
const table: PriceTable = {
  source: 'test',
  asOf: '2026-01-01',
  models: { 'claude-test': { input: 1, output: 1, cacheWrite: 1, cacheRead: 1 } },
};

function settings(over: Partial<MeasureSettings> = {}): MeasureSettings {
  return {
    skill: {
      dir: '/s',
      file: '/s/SKILL.md',
      name: 'handoff',
      description: 'x',
      descriptionLine: 3,
      warnings: [],
    },
    evalSet: {
      file: 'evals.json',
      format: 'skill-creator-json',
      items: [{ id: 'q1', query: 'q', shouldTrigger: true, extra: {} }],
    },
    description: 'Write HANDOFF.md',
    overridden: false,
    rules: DEFAULT_RULES,
    timeoutSeconds: 5,
    stub: 'command',
    maxRetries: 0,
    defaultBin: 'claude',
    env: {},
    conflictAllowed: false,
    simulated: true,
    toolVersion: '0.0.0-test',
    standby: 0,
    ...over,
  };
}

const usage = (inputTokens: number) => ({
  inputTokens,
  outputTokens: 0,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 0,
});
const run = (over: Partial<RunResult>): RunResult => ({
  outcome: { kind: 'not-triggered' },
  durationMs: 1,
  usage: usage(0),
  ...over,
});

describe('loopBudget', () => {
  const budgeted = settings({
    budget: { maxUsd: 1, firstEstimateUsd: 0.5, spentUsd: 0.25 },
    prices: { table, identity: pricesIdentity(table) },
  });

  it('is absent without a budget, or without prices to count it in', () => {
    expect(loopBudget(settings())).toBeUndefined();
    expect(loopBudget({ ...budgeted, prices: undefined })).toBeUndefined();
  });

  it('carries the budget and what earlier measurements spent', () => {
    expect(loopBudget(budgeted)).toMatchObject({ maxUsd: 1, firstEstimateUsd: 0.5, spentUsd: 0.25 });
    expect(loopBudget({ ...budgeted, budget: { maxUsd: 1, firstEstimateUsd: 0.5 } })).not.toHaveProperty(
      'spentUsd',
    );
  });

  it('prices a run from its usage and model, else the model asked for, else the settings', () => {
    const budget = loopBudget(budgeted);
    expect(budget?.costOf(run({ usage: usage(2_000_000), model: 'claude-test' }))).toBeCloseTo(2);
    expect(budget?.costOf(run({ usage: usage(3_000_000), requestedModel: 'claude-test' }))).toBeCloseTo(3);
    const bySettings = loopBudget({ ...budgeted, model: 'claude-test' });
    expect(bySettings?.costOf(run({ usage: usage(4_000_000) }))).toBeCloseTo(4);
  });

  it('counts an unpriced run, and a run whose agent reported no tokens, at the first estimate', () => {
    const budget = loopBudget(budgeted);
    expect(budget?.costOf(run({ usage: usage(1_000_000), model: 'unknown-model' }))).toBe(0.5);
    expect(budget?.costOf(run({ usageUnreported: true, model: 'claude-test' }))).toBe(0.5);
    // A claude run with no tokens is priced, at nothing.
    expect(budget?.costOf(run({ model: 'claude-test' }))).toBe(0);
  });
});

/** Each side's claude stub, as the loop opens claude with these settings. */
function claudeSides(s: MeasureSettings) {
  const setup = runSetupOf(s, measurementLoop(s), 'claude');
  return setup ? claudeStubs(setup.stubs) : [];
}

describe('measurementLoop', () => {
  it('writes the stub from the emulated listing when no probe read it', () => {
    const s = settings({ skill: { ...settings().skill, whenToUse: 'at the end' } });
    const { plan, listed } = measurementLoop(s);
    expect(listed).toEqual({ candidate: 'Write HANDOFF.md - at the end', source: 'emulation' });
    expect(plan.sides).toEqual([{ label: 'candidate' }]);
    // The stub holds the listed text whole: the CLI lists exactly what is measured.
    expect(claudeSides(s)).toEqual([
      { layout: 'command', skillName: 'handoff', description: 'Write HANDOFF.md - at the end' },
    ]);
  });

  it('uses the skill file’s own emulated listing unless the description is overridden', () => {
    const skill = { ...settings().skill, emulatedListing: 'as listed' };
    expect(measurementLoop(settings({ skill })).listed.candidate).toBe('as listed');
    expect(measurementLoop(settings({ skill, overridden: true })).listed.candidate).toBe('Write HANDOFF.md');
  });

  it('adds a baseline side, and the siblings to every stub', () => {
    const s = settings({
      baselineDescription: 'Old text',
      listed: { candidate: 'New text', baseline: 'Old text', source: 'probe' },
      siblings: [{ name: 'notes', listed: 'Take notes' }],
    });
    const { plan, siblings } = measurementLoop(s);
    expect(siblings.map((x) => x.name)).toEqual(['notes']);
    expect(plan.sides.map((x) => x.label)).toEqual(['candidate', 'baseline']);
    expect(claudeSides(s).map((x) => [x.description, x.siblings])).toEqual([
      ['New text', [{ skillName: 'notes', description: 'Take notes' }]],
      ['Old text', [{ skillName: 'notes', description: 'Take notes' }]],
    ]);
  });

  it('sets the run from the settings, and one agent or several as the loop reads them', () => {
    const s = settings({ model: 'm', timeoutSeconds: 7, lateTurns: 2, standby: 1 });
    const one = measurementLoop(s);
    expect(one.plan).toMatchObject({ timeoutMs: 7000, model: 'm' });
    expect(runSetupOf(s, one, 'claude')).toMatchObject({
      bin: 'claude',
      knobs: { maxRetries: 0, lateTurns: 2 },
    });
    expect(one.plan).not.toHaveProperty('agent');
    expect(one.warm).toBe(true);

    // Gemini CLI has no warm standby: its runs go cold whatever --standby says.
    const geminiOnly = measurementLoop(settings({ agents: [{ agent: 'gemini' }], standby: 1 }));
    expect(geminiOnly.plan.agent).toBe('gemini');
    expect(geminiOnly.warm).toBe(false);

    const both = measurementLoop(
      settings({ agents: [{ agent: 'claude' }, { agent: 'codex', model: 'g' }], standby: 1 }),
    );
    expect(both.plan.agents).toEqual([{ agent: 'claude' }, { agent: 'codex', model: 'g' }]);
    expect(both.warm).toBe(true);
  });

  it('opens each agent the plan runs, and only those', () => {
    const codex = settings({
      agents: [{ agent: 'codex' }],
      others: { codex: { bin: 'codex', siblings: [] } },
    });
    const opened = openLoopAgents(codex, measurementLoop(codex));
    expect(Object.keys(opened)).toEqual(['codex']);
    expect(opened.codex?.id).toBe('codex');
    expect(Object.keys(openLoopAgents(settings(), measurementLoop(settings())))).toEqual(['claude']);
  });
});
