import { describe, expect, it } from 'vitest';
import {
  IMPROVE_NOTICE,
  IMPROVE_SCHEMA_ID,
  type ImproveReport,
  improveReportSchema,
} from '../../src/schemas/improve.js';
import { improveFixture } from '../fakes/improve-fixture.js';

// The improve report's schema (docs/author-loop.md): a valid document parses, and each documented
// constraint refuses what it should. The versions it reads: improve/schema.test.ts.

/** The issue paths a mutated copy of the fixture is refused with ([] when it parses). */
function refused(mutate: (r: ImproveReport) => void): string[] {
  const r = structuredClone(improveFixture());
  mutate(r);
  const parsed = improveReportSchema.safeParse(r);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.path.join('.'));
}

describe('a valid session report', () => {
  it('parses as written, with a budget, its cost, its stop and an interruption', () => {
    const r: ImproveReport = {
      ...improveFixture(),
      settings: { ...improveFixture().settings, maxCostUsd: 2 },
      cost: { usd: 1.5, measuredUsd: 1.25, rewriteUsd: 0.25, rewriteCalls: 4 },
      budgetStop: { spentUsd: 1.9, nextEstimateUsd: 0.2, maxUsd: 2, before: 'rewrite', phase: 'rewrite 5' },
      interrupted: true,
    };
    expect(improveReportSchema.parse(r)).toEqual(r);
  });

  it('its id and notice: the notice says the file holds description texts', () => {
    expect(IMPROVE_SCHEMA_ID).toBe('skilltrigger/improve');
    expect(IMPROVE_NOTICE).toContain('holds description texts');
    expect(refused((r) => Object.assign(r, { schema: 'skilltrigger/report' }))).toEqual(['schema']);
    expect(refused((r) => Object.assign(r, { notice: 'edited' }))).toEqual(['notice']);
    expect(refused((r) => Object.assign(r, { createdAt: '14/03/2025' }))).toEqual(['createdAt']);
  });
});

describe('settings', () => {
  it('iterations and runs are positive whole numbers', () => {
    expect(refused((r) => Object.assign(r.settings, { iterations: 0 }))).toEqual(['settings.iterations']);
    expect(refused((r) => Object.assign(r.settings, { runsPerQuery: 1.5 }))).toEqual([
      'settings.runsPerQuery',
    ]);
  });

  it('the levels lie strictly between 0 and 1; the threshold within 0–1', () => {
    for (const value of [0, 1, 1.2]) {
      expect(
        refused((r) => Object.assign(r.settings, { sessionAlpha: value })),
        String(value),
      ).toEqual(['settings.sessionAlpha']);
      expect(
        refused((r) => Object.assign(r.settings, { proposalAlpha: value })),
        String(value),
      ).toEqual(['settings.proposalAlpha']);
    }
    expect(refused((r) => Object.assign(r.settings, { triggerThreshold: 1 }))).toEqual([]);
    expect(refused((r) => Object.assign(r.settings, { triggerThreshold: -0.5 }))).toEqual([
      'settings.triggerThreshold',
    ]);
  });

  it('the enumerations and the budget', () => {
    expect(refused((r) => Object.assign(r.settings, { runsMode: 'adaptive' }))).toEqual([
      'settings.runsMode',
    ]);
    expect(refused((r) => Object.assign(r.settings, { stub: 'plugin' }))).toEqual(['settings.stub']);
    expect(refused((r) => Object.assign(r.settings, { model: null }))).toEqual([]);
    expect(refused((r) => Object.assign(r.settings, { maxCostUsd: 0 }))).toEqual(['settings.maxCostUsd']);
  });
});

describe('candidates', () => {
  it('iterations count from 1', () => {
    expect(refused((r) => Object.assign(r.candidates[0] ?? {}, { iteration: 0 }))).toEqual([
      'candidates.0.iteration',
    ]);
  });

  it('the proposal, decision and label are from their lists; the label may be null', () => {
    expect(refused((r) => Object.assign(r.candidates[0] ?? {}, { proposal: 'guessed' }))).toEqual([
      'candidates.0.proposal',
    ]);
    expect(refused((r) => Object.assign(r.candidates[0] ?? {}, { decision: 'maybe' }))).toEqual([
      'candidates.0.decision',
    ]);
    expect(refused((r) => Object.assign(r.candidates[0] ?? {}, { label: 'better' }))).toEqual([
      'candidates.0.label',
    ]);
    expect(
      refused((r) => Object.assign(r.candidates[0] ?? {}, { label: null, pValue: null, train: null })),
    ).toEqual([]);
  });

  it('a p-value within 0–1, a description text or null', () => {
    expect(refused((r) => Object.assign(r.candidates[0] ?? {}, { pValue: 1.01 }))).toEqual([
      'candidates.0.pValue',
    ]);
    expect(refused((r) => Object.assign(r.candidates[0] ?? {}, { pValue: -0.01 }))).toEqual([
      'candidates.0.pValue',
    ]);
    expect(
      refused((r) => Object.assign(r.candidates[0] ?? {}, { description: null, proposal: 'no-answer' })),
    ).toEqual([]);
  });

  it('train figures are whole counts', () => {
    expect(
      refused((r) => {
        const train = r.candidates[0]?.train;
        if (train) train.candidate.positives.hits = -1;
      }),
    ).toEqual(['candidates.0.train.candidate.positives.hits']);
  });
});

describe('the end of the session', () => {
  it('the recommendation is adopt, keep-original, did-not-generalise or no-verdict', () => {
    for (const recommendation of ['adopt', 'keep-original', 'did-not-generalise', 'no-verdict']) {
      expect(
        refused((r) => Object.assign(r.final, { recommendation })),
        recommendation,
      ).toEqual([]);
    }
    expect(refused((r) => Object.assign(r.final, { recommendation: 'ship' }))).toEqual([
      'final.recommendation',
    ]);
  });

  it('no winner has no holdout check', () => {
    expect(refused((r) => Object.assign(r.final, { winner: null, holdout: null }))).toEqual([]);
    expect(
      refused((r) => Object.assign(r.final, { holdout: { ...(r.final.holdout ?? {}), label: 'held' } })),
    ).toEqual(['final.holdout.label']);
  });

  it('interrupted is only ever true', () => {
    expect(refused((r) => Object.assign(r, { interrupted: false }))).toEqual(['interrupted']);
  });

  it('money is not negative, a budget above zero, a stop before a run or a rewrite', () => {
    const stop = { spentUsd: 1, nextEstimateUsd: 0.1, maxUsd: 1, before: 'run', phase: 'original' };
    expect(refused((r) => Object.assign(r, { budgetStop: stop }))).toEqual([]);
    expect(refused((r) => Object.assign(r, { budgetStop: { ...stop, before: 'holdout' } }))).toEqual([
      'budgetStop.before',
    ]);
    expect(refused((r) => Object.assign(r, { budgetStop: { ...stop, maxUsd: 0 } }))).toEqual([
      'budgetStop.maxUsd',
    ]);
    const cost = { usd: 1, measuredUsd: 1, rewriteUsd: 0, rewriteCalls: 0 };
    expect(refused((r) => Object.assign(r, { cost: { ...cost, rewriteUsd: -0.5 } }))).toEqual([
      'cost.rewriteUsd',
    ]);
    expect(refused((r) => Object.assign(r, { cost: { ...cost, rewriteCalls: 1.5 } }))).toEqual([
      'cost.rewriteCalls',
    ]);
  });
});
