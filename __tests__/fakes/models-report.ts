import { pricesIdentity } from '../../src/cost/budget.js';
import { DEFAULT_PRICE_TABLE } from '../../src/cost/price-table.js';
import type { EvalItem } from '../../src/inputs/types.js';
import type { RunResult } from '../../src/measure/loop-spec.js';
import { buildReport } from '../../src/report/build/build.js';
import { type Report, reportSchema } from '../../src/schemas/report.js';

/** Two queries, one that should trigger and one that should not, as the reports of several models are built here. */
export const TWO_QUERIES: EvalItem[] = [
  { id: 'q1', query: 'write the handoff', shouldTrigger: true, extra: {} },
  { id: 'q2', query: 'rename a variable', shouldTrigger: false, extra: {} },
];

/** One run's tokens with the prompt cache warm: what those reports' runs cost, model by model. */
export const CACHED_RUN_USAGE = {
  inputTokens: 1200,
  outputTokens: 1,
  cacheReadInputTokens: 18_000,
  cacheCreationInputTokens: 0,
};

/** A run on `model` as the loop records it (the model asked for and reported alike). */
export function modelRun(
  model: string,
  kind: 'triggered' | 'not-triggered' | 'timeout',
  usage = { inputTokens: 100, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
  late = false,
): RunResult {
  return {
    outcome: { kind },
    model,
    requestedModel: model,
    durationMs: 1000,
    usage,
    ...(late ? { late: true } : {}),
  };
}

/** What the report of several models is built from (`modelsReport`), for a test that builds variants of it. */
export interface ModelsReportInput {
  items: EvalItem[];
  models: string[];
  records: RunResult[][];
  baseline?: RunResult[][];
  runsPerQuery: number;
  /** Default 0.5: lost runs are part of what these fixtures show; the no-verdict rule is not. */
  noVerdictShare?: number;
  /** `--late N`, when the runs record late loads. */
  lateTurns?: number;
}

/** The real report builder's input for `modelsReport`, priced with the built-in table. */
export function modelsReportArgs(input: ModelsReportInput): Parameters<typeof buildReport>[0] {
  return {
    toolVersion: '0.1.0',
    createdAt: new Date('2026-12-01T12:00:00Z'),
    skill: 'handoff',
    simulated: true,
    items: input.items,
    rules: {
      runsPerQuery: input.runsPerQuery,
      triggerThreshold: 0.5,
      noVerdictShare: input.noVerdictShare ?? 0.5,
    },
    timeoutSeconds: 30,
    stub: 'command',
    maxRetries: 2,
    conflictAllowed: false,
    aborted: false,
    interrupted: false,
    environment: null,
    models: input.models,
    ...(input.lateTurns === undefined ? {} : { lateTurns: input.lateTurns }),
    prices: { table: DEFAULT_PRICE_TABLE, identity: pricesIdentity(DEFAULT_PRICE_TABLE) },
    candidate: {
      description: 'Write HANDOFF.md',
      overridden: false,
      stubNames: [],
      records: input.records,
    },
    ...(input.baseline
      ? {
          baseline: {
            description: 'Docs helper',
            overridden: true,
            stubNames: [],
            records: input.baseline,
          },
        }
      : {}),
  };
}

/**
 * A schema-valid report of several models from each query's runs (`records[i]` = query i's), built
 * by the real report builder and priced with the built-in table; `baseline` makes it paired.
 */
export function modelsReport(input: ModelsReportInput): Report {
  return reportSchema.parse(buildReport(modelsReportArgs(input)));
}
