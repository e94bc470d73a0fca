import {
  IMPROVE_NOTICE,
  IMPROVE_SCHEMA_ID,
  IMPROVE_SCHEMA_VERSION,
  type ImproveReport,
  improveReportSchema,
} from '../../src/schemas/improve.js';
import type { Filler } from './html-hostile.js';

const f = (ph: number, pr: number, nh: number, nr: number) => ({
  positives: { hits: ph, runs: pr },
  negatives: { hits: nh, runs: nr },
});

/**
 * A hand-built, schema-valid improve report for the page tests (`t` fills each text slot): a
 * session of four iterations: greedy rejected, good accepted, a repeat, a useless one rejected;
 * priced, without a budget.
 */
export function improveFixture(t: Filler = (s) => s, overrides: Partial<ImproveReport> = {}): ImproveReport {
  return improveReportSchema.parse({
    schema: IMPROVE_SCHEMA_ID,
    schemaVersion: IMPROVE_SCHEMA_VERSION,
    notice: IMPROVE_NOTICE,
    tool: { name: 'skilltrigger', version: t('tool') },
    createdAt: '2025-03-14T09:26:53.000Z',
    skill: t('handoff'),
    simulated: true,
    settings: {
      iterations: 4,
      runsPerQuery: 3,
      runsMode: 'fixed',
      sessionAlpha: 0.05,
      proposalAlpha: 0.0125,
      model: t('model'),
      triggerThreshold: 0.5,
      stub: 'command',
    },
    queries: { train: { positives: 2, negatives: 2 }, holdout: { positives: 1, negatives: 1 } },
    original: { description: t('Helps with notes.'), train: f(0, 6, 0, 6), holdout: f(0, 3, 0, 3) },
    candidates: [
      {
        iteration: 1,
        description: t('Use for absolutely every request.'),
        proposal: 'measured',
        decision: 'rejected',
        reason: t('regression on train: negatives fired 0/6 → 6/6'),
        label: 'regression',
        pValue: 0.0011,
        train: { incumbent: f(0, 6, 0, 6), candidate: f(6, 6, 6, 6) },
      },
      {
        iteration: 2,
        description: t('Writes the session handoff note.'),
        proposal: 'measured',
        decision: 'accepted',
        reason: t('improvement on train: positives triggered 0/6 → 6/6'),
        label: 'improvement',
        pValue: 0.0011,
        train: { incumbent: f(0, 6, 0, 6), candidate: f(6, 6, 0, 6) },
      },
      {
        iteration: 3,
        description: t('Writes the session handoff note.'),
        proposal: 'repeat',
        decision: 'rejected',
        reason: t('repeats the incumbent or an earlier candidate'),
        label: null,
        pValue: null,
        train: null,
      },
      {
        iteration: 4,
        description: t('Writes the handoff note.'),
        proposal: 'measured',
        decision: 'rejected',
        reason: t('not a significant improvement'),
        label: 'noise',
        pValue: 0.5,
        train: { incumbent: f(6, 6, 0, 6), candidate: f(5, 6, 1, 6) },
      },
    ],
    stopReason: t('reached --iterations 4'),
    final: {
      winner: t('Writes the session handoff note.'),
      holdout: {
        original: f(0, 3, 0, 3),
        winner: f(3, 3, 0, 3),
        label: 'improvement',
        reason: t('held: positives triggered 0/3 → 3/3'),
      },
      recommendation: 'adopt',
      written: false,
    },
    cost: { usd: 0.4321, measuredUsd: 0.4, rewriteUsd: 0.0321, rewriteCalls: 4 },
    ...overrides,
  });
}
