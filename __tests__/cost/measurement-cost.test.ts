import { describe, expect, it } from 'vitest';
import { costOfMeasurement } from '../../src/cost/measurement-cost.js';
import { DEFAULT_PRICE_TABLE } from '../../src/cost/price-table.js';
import { NO_USAGE } from '../../src/outcome.js';
import type { RunRecord } from '../../src/verdict/rules.js';

const run = (model: string | undefined, input: number, extra: Partial<RunRecord> = {}): RunRecord => ({
  outcome: { kind: 'triggered' },
  durationMs: 1,
  usage: { ...NO_USAGE, inputTokens: input, outputTokens: 0 },
  ...(model === undefined ? {} : { model }),
  ...extra,
});

describe('costOfMeasurement', () => {
  it('prices each run by the model it reported, sums per query, per model and in total', () => {
    const { queries, total } = costOfMeasurement(
      [
        [run('claude-sonnet-4-5', 1_000_000), run('claude-haiku-4-5', 1_000_000)],
        [run('claude-sonnet-4-5', 500_000)],
      ],
      DEFAULT_PRICE_TABLE,
    );
    expect(queries).toEqual([
      { runsUsd: [3, 1], usd: 4 },
      { runsUsd: [1.5], usd: 1.5 },
    ]);
    expect(total).toEqual({
      usd: 5.5,
      pricedRuns: 3,
      unpricedRuns: 0,
      unknownModels: [],
      byModel: { 'claude-sonnet-4-5': 4.5, 'claude-haiku-4-5': 1 },
    });
  });

  it('falls back to the model the run asked for, then the requested one; counts the unpriced apart', () => {
    const { queries, total } = costOfMeasurement(
      [
        [
          run(undefined, 1_000_000, { requestedModel: 'claude-haiku-4-5' }),
          run(undefined, 1_000_000),
          run('claude-fable-5-2', 1_000_000),
        ],
      ],
      DEFAULT_PRICE_TABLE,
      'claude-sonnet-4-5',
    );
    expect(queries[0]).toEqual({ runsUsd: [1, 3, null], usd: 4 });
    expect(total.unpricedRuns).toBe(1);
    expect(total.unknownModels).toEqual(['claude-fable-5-2']);
  });
});
