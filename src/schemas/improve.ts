import { z } from 'zod';
import { agentIdSchema } from './report.js';

/**
 * The improve report, version 2: `<date>-<skill>-improve.json` (and `.md`). Version 2 adds the
 * budget (`settings.maxCostUsd`, `cost`, `budgetStop`) and the `no-verdict` recommendation of a
 * session stopped by `--max-cost-usd`; a version 1 file still reads (it has none of them). Unlike every other
 * report (docs/security.md), it is the author's own working file and holds the description texts — the
 * original and every candidate — so that the author can read and pick them (docs/author-loop.md). It says
 * so in `notice`, at its top. It holds no query text, path, stderr or key.
 */
export const IMPROVE_SCHEMA_ID = 'skilltrigger/improve';
/**
 * Version 4 added only the optional `settings.agent` (`improve --agent`); version 3 the optional
 * `interrupted`; version 2 the budget. Older files read as written.
 */
export const IMPROVE_SCHEMA_VERSION = 4;
/** The oldest improve report `view` still reads. */
export const OLDEST_IMPROVE_SCHEMA_VERSION = 1;

export const IMPROVE_NOTICE =
  'This improve report holds description texts (the original and every candidate): it is your working file. Do not publish it where the descriptions are private.';

const count = z.number().int().nonnegative();

const classFiguresSchema = z.object({ hits: count, runs: count });

/** One description's hits and measured runs, per class, over the train or the holdout queries. */
export const figuresSchema = z.object({ positives: classFiguresSchema, negatives: classFiguresSchema });

const labelSchema = z.enum(['noise', 'improvement', 'regression', 'no-verdict']);

export const candidateSchema = z.object({
  /** 1-based. */
  iteration: z.number().int().positive(),
  /** The proposed text; null when the rewrite call gave none. */
  description: z.string().nullable(),
  /** `measured`: judged paired; `no-answer`/`invalid`/`repeat`: rejected without a measurement. */
  proposal: z.enum(['measured', 'no-answer', 'invalid', 'repeat']),
  decision: z.enum(['accepted', 'rejected']),
  reason: z.string(),
  /** compare's label of the paired train comparison (null when not measured). */
  label: labelSchema.nullable(),
  /** The smallest one-sided p-value towards better over the two classes (null when not measured). */
  pValue: z.number().min(0).max(1).nullable(),
  /** The incumbent's and the candidate's train figures, measured interleaved. */
  train: z.object({ incumbent: figuresSchema, candidate: figuresSchema }).nullable(),
});

/** What an improve session spent, US dollars. */
export const sessionCostSchema = z.object({
  /** Measured runs and rewrite calls together. */
  usd: z.number().nonnegative(),
  /** The measured runs (the original, the paired candidates, the holdout check). */
  measuredUsd: z.number().nonnegative(),
  /** The rewrite calls to the model. */
  rewriteUsd: z.number().nonnegative(),
  rewriteCalls: count,
});

/** Why `--max-cost-usd` ended a session: what was spent, and what the next step was expected to cost. */
export const sessionBudgetStopSchema = z.object({
  spentUsd: z.number().nonnegative(),
  nextEstimateUsd: z.number().nonnegative(),
  maxUsd: z.number().positive(),
  /** The step the budget did not cover: a measured run, or a rewrite call. */
  before: z.enum(['run', 'rewrite']),
  /** The phase it stopped in: `original`, `candidate N`, `rewrite N` or `holdout`. */
  phase: z.string(),
});

export const improveReportSchema = z.object({
  schema: z.literal(IMPROVE_SCHEMA_ID),
  schemaVersion: z.number().int().min(OLDEST_IMPROVE_SCHEMA_VERSION).max(IMPROVE_SCHEMA_VERSION),
  notice: z.literal(IMPROVE_NOTICE),
  tool: z.object({ name: z.literal('skilltrigger'), version: z.string() }),
  createdAt: z.iso.datetime(),
  skill: z.string(),
  simulated: z.boolean(),
  settings: z.object({
    iterations: z.number().int().positive(),
    runsPerQuery: z.number().int().positive(),
    runsMode: z.enum(['fixed', 'auto']),
    /** The chance the whole session accepts a rewrite no better than the incumbent is at most this. */
    sessionAlpha: z.number().gt(0).lt(1),
    /** Each candidate's paired comparison is judged at this level (sessionAlpha / iterations). */
    proposalAlpha: z.number().gt(0).lt(1),
    model: z.string().nullable(),
    triggerThreshold: z.number().min(0).max(1),
    stub: z.enum(['command', 'skill']),
    /** `--max-cost-usd`: the session's budget, US dollars. Absent without it. */
    maxCostUsd: z.number().positive().optional(),
    /** `--agent`: the agent measured and asked for rewrites. Absent: Claude Code, the default. */
    agent: agentIdSchema.optional(),
  }),
  queries: z.object({
    train: z.object({ positives: count, negatives: count }),
    holdout: z.object({ positives: count, negatives: count }),
  }),
  original: z.object({
    description: z.string(),
    train: figuresSchema,
    holdout: figuresSchema,
  }),
  candidates: z.array(candidateSchema),
  stopReason: z.string(),
  final: z.object({
    /** The last accepted candidate; null when none was accepted. */
    winner: z.string().nullable(),
    /** The winner and the original, measured interleaved on the holdout (null without a winner). */
    holdout: z
      .object({
        original: figuresSchema,
        winner: figuresSchema,
        label: labelSchema,
        reason: z.string(),
      })
      .nullable(),
    /**
     * `adopt`: a winner that held on the holdout; `keep-original`: nothing beat it; `did-not-generalise`;
     * `no-verdict`: `--max-cost-usd` stopped the session before it could judge (see `budgetStop`).
     */
    recommendation: z.enum(['adopt', 'keep-original', 'did-not-generalise', 'no-verdict']),
    /** True when `--write` put the winner into SKILL.md. */
    written: z.boolean(),
  }),
  /** What the session spent, priced from the usage of its measured runs and its rewrite calls. Absent in reports before it. */
  cost: sessionCostSchema.optional(),
  /** Set when `--max-cost-usd` ended the session: it is then no verdict, and `stopReason` opens with `budget:`. */
  budgetStop: sessionBudgetStopSchema.optional(),
  /**
   * Set when a signal (Ctrl-C, SIGTERM, SIGHUP) ended the session: it is then no verdict, the
   * figures hold the runs made so far, and `stopReason` opens with `interrupted:`. Absent otherwise.
   */
  interrupted: z.literal(true).optional(),
});

export type ImproveReport = z.infer<typeof improveReportSchema>;
export type SessionCost = z.infer<typeof sessionCostSchema>;
export type SessionBudgetStop = z.infer<typeof sessionBudgetStopSchema>;
export type CandidateRecord = z.infer<typeof candidateSchema>;
