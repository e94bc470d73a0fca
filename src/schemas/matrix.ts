import { z } from 'zod';
import { AGENT_IDS, type AgentId } from '../agents/ids.js';
import { agentFacts } from '../agents/registry.js';
import {
  contextSummarySchema,
  environmentSchema,
  outcomeCodeSchema,
  requestedModelSchema,
  rosterSchema,
} from './report.js';

/**
 * The matrix report, version 3: `<date>-matrix.json` (and `.md`), written by `skilltrigger matrix`
 * (a `--shard i/n` leg: `<date>-matrix-shard-<i>-of-<n>.json`, src/report/disk/files.ts).
 * It says, for every query of every skill's eval set, which of the installed skills each run
 * loaded. The privacy of the run report (docs/security.md) holds: the skills' names are the user's own and
 * appear; their descriptions only as bytes + SHA-256; the machine's roster hashed (every installed
 * stub left out); no path, stderr or key. Query texts appear as in the run report.
 */
/** The agents the routing matrix runs on (docs/matrix.md): those the registry says route one, in its order. */
export const MATRIX_AGENTS: readonly AgentId[] = AGENT_IDS.filter((id) => agentFacts(id).routesMatrix);

export const MATRIX_SCHEMA_ID = 'skilltrigger/matrix';
/**
 * Version 4 allows `agent: gemini` and records contexts (the optional `settings.context` and
 * `queries[].context`, each as hash, turns and characters); version 3 records `agent` (a Codex
 * matrix; absent for Claude Code), version 2 `settings.launch` (standby or cold); files of
 * versions 1 to 3, without them, still read.
 */
export const MATRIX_SCHEMA_VERSION = 4;
/** The oldest matrix report `matrix --merge`, `view` and the Action still read. */
export const OLDEST_MATRIX_SCHEMA_VERSION = 1;

/** The column of runs that loaded none of the installed skills: nothing, or another skill or command. */
export const NONE_OTHER = 'none/other';

/** The `$schema` written into every matrix report: its JSON Schema as shipped in the npm package. */
export function matrixJsonSchemaUrl(toolVersion: string): string {
  return `https://unpkg.com/skilltrigger@${toolVersion}/schema/matrix.schema.json`;
}

const count = z.number().int().nonnegative();
const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

/** Where one run went. */
export const matrixRunSchema = z.discriminatedUnion('to', [
  /** The first decisive message loaded this installed skill (the owner or a competitor). */
  z.object({ to: z.literal('skill'), skill: z.string() }),
  /** It loaded nothing, or a skill or command that is not one of the installed skills. */
  z.object({ to: z.literal('none-other') }),
  /** A timeout or an error: not a measurement (docs/design.md), counted apart. */
  z.object({
    to: z.literal('lost'),
    outcome: outcomeCodeSchema,
    /** The HTTP status of an API error, where the API gave one. */
    status: z.number().int().optional(),
  }),
]);

export const matrixQuerySchema = z.object({
  /** The skill whose eval set holds the query. */
  owner: z.string(),
  /** The entry's id within its owner's eval set. */
  id: z.string(),
  query: z.string(),
  shouldTrigger: z.boolean(),
  /** Every run, in order. */
  runs: z.array(matrixRunSchema),
  /** Measured runs (lost ones excluded). */
  measured: count,
  /** Measured runs per installed skill that they loaded (skills loaded at least once). */
  loaded: z.record(z.string(), count),
  /** Measured runs that loaded none of the installed skills. */
  noneOther: count,
  timeouts: count,
  errors: count,
  /**
   * The context its runs started with (its entry's own, else `--context`; docs/context.md): its
   * hash, turns and size, never its text. Absent: every run started fresh.
   */
  context: contextSummarySchema().optional(),
});

/** One row of the matrix: the queries of one skill with one label, and where their runs went. */
export const matrixRowSchema = z.object({
  owner: z.string(),
  label: z.enum(['positive', 'negative']),
  queries: count,
  /** Measured runs of these queries. */
  runs: count,
  /** One cell per installed skill (every skill, zeros included), by name. */
  cells: z.record(z.string(), count),
  /** The "none/other" column. */
  noneOther: count,
});

const intervalSchema = z.object({
  lower: z.number().min(0).max(1),
  upper: z.number().min(0).max(1),
  confidence: z.number().gt(0).lt(1),
});

/** A share with its Wilson score interval; rate and interval null when there is nothing to divide by. */
const shareSchema = z.object({
  hits: count,
  of: count,
  rate: z.number().min(0).max(1).nullable(),
  interval: intervalSchema.nullable(),
});

export const skillFiguresSchema = z.object({
  skill: z.string(),
  /** Runs of the skill's own positives that loaded it, of their measured runs. */
  recall: shareSchema,
  /** Runs that loaded the skill and were its own positives, of every measured run that loaded it. */
  precision: shareSchema,
});

/** A positive of `owner` that loaded `thief` more often than its owner. */
export const stolenSchema = z.object({
  owner: z.string(),
  id: z.string(),
  query: z.string(),
  thief: z.string(),
  ownerRuns: count,
  thiefRuns: count,
  /** Measured runs of the query. */
  runs: count,
});

export const matrixSkillSchema = z.object({
  name: z.string(),
  /** The listed text the stub was written from (description, ` - `, when_to_use), never the text. */
  description: z.object({ bytes: count, sha256 }),
  /** Its eval set's size; null when the skill has none ("no eval set": installed as a competitor only). */
  evalSet: z
    .object({
      queries: count,
      positives: count,
      negatives: count,
      /** SHA-256 of the set's queries and labels, so merged legs are known to share it. */
      sha256,
    })
    .nullable(),
});

export const matrixReportSchema = z.object({
  /** Optional: the JSON Schema this report follows. */
  $schema: z.string().optional(),
  schema: z.literal(MATRIX_SCHEMA_ID),
  schemaVersion: z.number().int().min(OLDEST_MATRIX_SCHEMA_VERSION).max(MATRIX_SCHEMA_VERSION),
  tool: z.object({ name: z.literal('skilltrigger'), version: z.string() }),
  createdAt: z.iso.datetime(),
  simulated: z.boolean(),
  /**
   * The agent whose CLI ran every run (docs/codex.md); absent: Claude Code. A matrix is measured
   * on one agent; `cli.version` is that agent's version.
   */
  agent: z.enum(MATRIX_AGENTS).optional(),
  cli: z.object({ version: z.string().nullable() }),
  model: requestedModelSchema(count),
  /** The machine's roster beside the installed skills, hashed as in the run report. */
  roster: rosterSchema.nullable(),
  environment: environmentSchema.nullable(),
  settings: z.object({
    runsPerQuery: z.number().int().positive(),
    timeoutSeconds: z.number().positive(),
    noVerdictShare: z.number().min(0).max(1),
    stub: z.enum(['command', 'skill']),
    maxRetries: count,
    /**
     * How the prompts reached claude, as in the run report: `standby` (a claude started ahead, its
     * prompt a stream-json message) or `cold` (`claude -p <query>`); the first request differs in
     * one tool text between the two (docs/speed.md, "A warm standby"). Absent in version 1: cold.
     */
    launch: z.enum(['standby', 'cold']).optional(),
    /** `--context`: the summary of the turns every query without its own started with. Absent: none. */
    context: contextSummarySchema().optional(),
  }),
  conflictAllowed: z.boolean(),
  /** `--shard i/n`: this report is leg i of n (1-based); null for a whole or merged matrix. */
  shard: z.object({ index: z.number().int().positive(), count: z.number().int().positive() }).nullable(),
  /** A matrix merged by `--merge`: how many legs it was made of. Absent otherwise. */
  mergedLegs: z.number().int().positive().optional(),
  /** Every installed skill, sorted by name. */
  skills: z.array(matrixSkillSchema),
  verdict: z.enum(['ok', 'no-verdict']),
  noVerdictReasons: z.array(z.string()),
  aborted: z.boolean(),
  interrupted: z.boolean(),
  queries: z.array(matrixQuerySchema),
  /** Rows: owner × label, in skill order, positives first. */
  rows: z.array(matrixRowSchema),
  /** Per installed skill, in skill order (recall null for a skill with no eval set). */
  figures: z.array(skillFiguresSchema),
  stolen: z.array(stolenSchema),
  totals: z.object({
    planned: count,
    executed: count,
    measured: count,
    timeouts: count,
    errors: count,
    errorCauses: z.record(z.string(), count),
  }),
});

export type MatrixReport = z.infer<typeof matrixReportSchema>;
export type MatrixRun = z.infer<typeof matrixRunSchema>;
export type MatrixQuery = z.infer<typeof matrixQuerySchema>;
export type MatrixRow = z.infer<typeof matrixRowSchema>;
export type SkillFigures = z.infer<typeof skillFiguresSchema>;
export type Stolen = z.infer<typeof stolenSchema>;
export type MatrixSkill = z.infer<typeof matrixSkillSchema>;
