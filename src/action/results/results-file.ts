import path from 'node:path';
import { z } from 'zod';
import { compareReport, compareReports } from '../../compare/compare.js';
import { UsageError } from '../../errors.js';
import { isRecord } from '../../guards.js';
import type { Shard } from '../../matrix/shard.js';
import { jsonPath } from '../../report/read/read.js';
import { matrixReportSchema } from '../../schemas/matrix.js';
import { reportSchema } from '../../schemas/report.js';
import {
  type ActionRun,
  BASELINE_MODES,
  type MeasuredSkill,
  type RoutingMatrix,
  type SkillResult,
} from './results.js';

/**
 * A matrix leg's results file (`skilltrigger/action-results` v1): what the leg measured, per skill,
 * as the renderers need it, so the merge job (`mode: merge`) can post the one comment and summary
 * for every leg. Comparisons are not stored: they are recomputed from the reports the file holds
 * (the PR's, and the cached baseline's), so a file cannot claim a label its numbers do not carry.
 * Report paths are stored relative to the file's folder (the artifact keeps the folder's layout).
 * With `routing-matrix: true` the file also holds the leg's slice of the routing matrix (`run.matrix`,
 * optional, so a file written before it, or without the input, still reads and merges as v1).
 * Joining the legs' files is shard-merge.ts; reading and writing them, action/results-files.ts.
 */

export const RESULTS_SCHEMA_ID = 'skilltrigger/action-results';
export const RESULTS_SCHEMA_VERSION = 1;

/** `skilltrigger-results.shard-<i>-of-<n>.json`. */
export function resultsFileName(shard: Shard): string {
  return `skilltrigger-results.shard-${shard.index}-of-${shard.count}.json`;
}

/** The names the merge step picks up in `results-dir` (any other file there is not its business). */
export const RESULTS_FILE_PATTERN = /^skilltrigger-results\.shard-.*\.json$/;

const change = z.enum(['added', 'modified', 'renamed', 'removed', 'all']);
const relativePath = z
  .string()
  .refine(
    (p) => p !== '' && !path.isAbsolute(p) && !p.split(/[\\/]/).includes('..'),
    'a path inside the results folder',
  );

const baselineUseSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('cache'),
    hit: z.enum(['exact', 'prefix']),
    sha: z.string().optional(),
    createdAt: z.string(),
    drift: z.array(z.string()),
    stale: z.boolean(),
  }),
  z.object({ kind: z.literal('paired'), why: z.string() }),
  z.object({ kind: z.literal('none'), why: z.string() }),
]);

const baselineSaveSchema = z.discriminatedUnion('saved', [
  z.object({ saved: z.literal(true), key: z.string() }),
  z.object({ saved: z.literal(false), why: z.string() }),
]);

const skillSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('measured'),
    skill: z.string(),
    file: z.string(),
    descriptionLine: z.number().int().nonnegative(),
    change,
    previousPath: z.string().optional(),
    report: reportSchema,
    reportPath: relativePath,
    markdownPath: relativePath,
    baseline: baselineUseSchema.optional(),
    baselineReport: reportSchema.optional(),
    saved: baselineSaveSchema.optional(),
    warnings: z.array(z.string()),
  }),
  z.object({
    kind: z.literal('skipped'),
    file: z.string(),
    change,
    previousPath: z.string().optional(),
    reason: z.enum(['body-only', 'renamed-unchanged', 'removed']),
    skill: z.string().optional(),
  }),
  z.object({
    kind: z.literal('invalid'),
    file: z.string(),
    skill: z.string().optional(),
    problems: z.array(z.string()),
  }),
  z.object({ kind: z.literal('not-run'), file: z.string(), skill: z.string() }),
]);

const gateFindingSchema = z.object({
  gate: z.enum(['cli', 'auth', 'round-trip', 'conflict', 'sleep', 'roster']),
  status: z.enum(['ok', 'warn', 'fail', 'skip']),
  reason: z.string(),
  fix: z.string().optional(),
});

/** The leg's routing matrix (`routing-matrix: true`): its report, or why it was not measured. */
const matrixSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('measured'),
    report: matrixReportSchema,
    reportPath: relativePath,
    markdownPath: relativePath,
  }),
  z.object({ kind: z.literal('invalid'), problems: z.array(z.string()) }),
  z.object({ kind: z.literal('not-run'), why: z.string() }),
]);

const stageSchema = z.enum(['nothing', 'ignored', 'input-error', 'gate-failed', 'measured']);

export const resultsFileSchema = z.object({
  schema: z.literal(RESULTS_SCHEMA_ID),
  schemaVersion: z.literal(RESULTS_SCHEMA_VERSION),
  tool: z.object({ name: z.literal('skilltrigger'), version: z.string() }),
  shard: z
    .object({ index: z.number().int().positive(), count: z.number().int().positive() })
    .refine((s) => s.index <= s.count, 'index at most count'),
  /** The commit the leg measured (a PR's head); empty when the leg's event named none. */
  headSha: z.string(),
  run: z.object({
    event: z.enum(['pull_request', 'push', 'other']),
    eventName: z.string(),
    prNumber: z.number().int().positive().optional(),
    headSha: z.string().optional(),
    baseSha: z.string().optional(),
    fromFork: z.boolean(),
    stage: stageSchema,
    skills: z.array(skillSchema),
    gates: z.array(gateFindingSchema),
    notes: z.array(z.string()),
    settings: z.object({
      runs: z.number().int().positive(),
      model: z.string().optional(),
      baseline: z.enum(BASELINE_MODES),
      failOnRegression: z.boolean(),
      roster: z.string().optional(),
    }),
    cliVersion: z.string().optional(),
    /** `max-cost-usd`: the leg's budget, and why it measured nothing when its estimate passed it. */
    budget: z.object({ maxUsd: z.number().positive(), refused: z.string().optional() }).optional(),
    /** The leg's slice of the routing matrix (`routing-matrix: true`); absent without it. */
    matrix: matrixSchema.optional(),
  }),
});

export type ResultsFile = z.infer<typeof resultsFileSchema>;
type StoredSkill = z.infer<typeof skillSchema>;

/** A results file that cannot be read or does not hold what a leg writes (exit 1, naming it). */
export class ResultsFileError extends UsageError {}

/** The file's form of a leg's run (pure): report paths relative to `dir`, comparisons dropped. */
export function toResultsFile(
  run: ActionRun,
  shard: Shard,
  headSha: string,
  dir: string,
  toolVersion: string,
): ResultsFile {
  const skills: StoredSkill[] = run.skills.map((s) => {
    if (s.kind !== 'measured') return s;
    const { comparison: _dropped, ...rest } = s;
    return {
      ...rest,
      reportPath: path.relative(dir, s.reportPath),
      markdownPath: path.relative(dir, s.markdownPath),
    };
  });
  // The links and the eval-set findings are this job's own (its summary shows them); the merge step has its own links.
  const { matrix, links: _links, evalSetFindings: _findings, ...rest } = run;
  return {
    schema: RESULTS_SCHEMA_ID,
    schemaVersion: RESULTS_SCHEMA_VERSION,
    tool: { name: 'skilltrigger', version: toolVersion },
    shard: { index: shard.index, count: shard.count },
    headSha,
    run: {
      ...rest,
      skills,
      ...(matrix === undefined
        ? {}
        : {
            matrix:
              matrix.kind === 'measured'
                ? {
                    ...matrix,
                    reportPath: path.relative(dir, matrix.reportPath),
                    markdownPath: path.relative(dir, matrix.markdownPath),
                  }
                : matrix,
          }),
    },
  };
}

const NAMES = { base: 'baseline', cand: 'this PR' };

/** A stored skill back in the run's form: paths resolved against `dir`, the comparison recomputed. */
export function restoreSkill(s: StoredSkill, dir: string): SkillResult {
  if (s.kind !== 'measured') return s;
  const measured: MeasuredSkill = {
    ...s,
    reportPath: path.resolve(dir, s.reportPath),
    markdownPath: path.resolve(dir, s.markdownPath),
  };
  if (s.baseline?.kind === 'paired' && s.report.baseline) {
    measured.comparison = compareReport(s.report, { names: NAMES });
  } else if (s.baseline?.kind === 'cache' && s.baselineReport) {
    measured.comparison = compareReports(s.baselineReport, s.report, { names: NAMES });
  }
  return measured;
}

/** A leg's stored matrix back in the run's form: its paths resolved against `dir`. */
export function restoreMatrix(m: NonNullable<ResultsFile['run']['matrix']>, dir: string): RoutingMatrix {
  if (m.kind !== 'measured') return m;
  return {
    ...m,
    reportPath: path.resolve(dir, m.reportPath),
    markdownPath: path.resolve(dir, m.markdownPath),
  };
}

/** Validates a parsed value as a results file; `file` names it in the error. */
export function parseResultsFile(value: unknown, file: string): ResultsFile {
  const parsed = resultsFileSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const schema = isRecord(value) && 'schema' in value ? value.schema : undefined;
  if (schema !== RESULTS_SCHEMA_ID) {
    throw new ResultsFileError(
      `${file}: not a skilltrigger shard results file (expected "schema": "${RESULTS_SCHEMA_ID}", got ${JSON.stringify(schema) ?? 'none'}); results-dir should hold only the files the measuring legs wrote`,
    );
  }
  const issues = parsed.error.issues
    .slice(0, 3)
    .map((i) => `${jsonPath(i.path)}: ${i.message}`)
    .join('; ');
  throw new ResultsFileError(
    `${file}: not a valid ${RESULTS_SCHEMA_ID} v${RESULTS_SCHEMA_VERSION} file (${issues}); it was changed, or written by another skilltrigger version: run the legs and the merge with the same version`,
  );
}

/** A results file as read, with where it came from. */
export interface ShardResults {
  file: string;
  dir: string;
  results: ResultsFile;
}
