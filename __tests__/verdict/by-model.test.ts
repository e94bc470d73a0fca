import { describe, expect, it } from 'vitest';
import type { EvalItem } from '../../src/inputs/types.js';
import { NO_USAGE, type Outcome } from '../../src/outcome.js';
import { summarizeByModel } from '../../src/verdict/by-model.js';
import { DEFAULT_RULES, type RunRecord } from '../../src/verdict/rules.js';

const items: EvalItem[] = [
  { id: 'p1', query: 'p1', shouldTrigger: true, extra: {} },
  { id: 'n1', query: 'n1', shouldTrigger: false, extra: {} },
];
const run = (requestedModel: string, outcome: Outcome, late = false): RunRecord => ({
  outcome,
  durationMs: 1,
  usage: NO_USAGE,
  requestedModel,
  ...(late ? { late: true } : {}),
});
const hit: Outcome = { kind: 'triggered' };
const miss: Outcome = { kind: 'not-triggered' };
const lost: Outcome = { kind: 'error', cause: 'overloaded', status: 529 };
const state = {
  aborted: false,
  interrupted: false,
  description: { bytes: 1, sha256: '0'.repeat(64), overridden: false },
};

describe('summarizeByModel', () => {
  it('counts each model’s runs apart, late loads included', () => {
    const { queries, models } = summarizeByModel(
      items,
      [
        [run('haiku', hit), run('sonnet', miss, true), run('haiku', hit), run('sonnet', hit)],
        [run('haiku', miss), run('sonnet', hit), run('haiku', miss), run('sonnet', hit)],
      ],
      ['haiku', 'sonnet'],
      DEFAULT_RULES,
      state,
    );
    expect(queries[0]).toEqual({
      haiku: { hits: 2, runs: 2, late: 0, timeouts: 0, errors: 0, rate: 1, pass: true },
      sonnet: { hits: 1, runs: 2, late: 1, timeouts: 0, errors: 0, rate: 0.5, pass: false },
    });
    expect(models.haiku?.totals.positives).toEqual({ triggered: 2, runs: 2 });
    expect(models.sonnet?.totals.negatives).toEqual({ fired: 2, runs: 2 });
  });

  it('applies the no-verdict rule to each model alone', () => {
    const { models } = summarizeByModel(
      items,
      [
        [run('haiku', hit), run('sonnet', lost), run('haiku', hit), run('sonnet', lost)],
        [run('haiku', miss), run('sonnet', miss), run('haiku', miss), run('sonnet', miss)],
      ],
      ['haiku', 'sonnet'],
      DEFAULT_RULES,
      state,
    );
    expect(models.haiku?.verdict).toBe('ok');
    expect(models.sonnet?.verdict).toBe('no-verdict');
    expect(models.sonnet?.lostQueries).toEqual(['p1']);
  });
});
