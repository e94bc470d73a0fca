import { z } from 'zod';
import { AGENT_IDS } from '../agents/ids.js';
import { ERROR_CAUSES } from '../outcome.js';

/**
 * The report schema (version REPORT_SCHEMA_VERSION). Documented in docs/report-schema.md. Anything read back (by
 * `compare`, by the Action restoring a baseline) is validated against it; a foreign or newer file
 * is a clear input error, never a crash deep in a renderer.
 *
 * Privacy (docs/security.md): no description text (bytes + SHA-256), no paths, no stub or roster names
 * (first 12 hex of SHA-256), no stderr, and of the inherited environment only counts.
 */
export const REPORT_SCHEMA_ID = 'skilltrigger/report';
export const REPORT_SCHEMA_VERSION = 10;
/**
 * The oldest version `read` still accepts. Version 10 only added optional fields:
 * `settings.memory` (`--memory`: each file's hash, size and agents), `settings.roster.versusClean`
 * (`run --roster --versus-clean`: the baseline side is the clean room) and `listing.*.stub.text`
 * (the characters the entry's text needs, listed or not), so a version-9 report reads as it was.
 * Version 9 only added the optional `settings.roster`
 * (`run --roster`: the crowd's hash, where it came from and its counts), so a version-8 report
 * reads as it was. Version 8 only added `gemini` to the agent ids and optional
 * fields (per query `context`, `byContext`, `listing`; per measurement `byContext`, `sessionCost`,
 * `listing`; `settings.versusFresh|contextFill`), so a version-7 report reads as it was. Version 7 only added the optional `settings.context` (the
 * turns every run started with, as hash, count and size), so a version-6 report reads as it was.
 * Version 6 added the required `agents` (the agent each
 * measurement ran on, with its version); every report before it was measured on Claude Code, so
 * `read` fills it in as claude with `cli.version`. Its other fields (`settings.agents`, `byAgent`,
 * `queries[].byAgent|agents`) are optional. Version 5 only added the optional `settings.launch` (a
 * warm standby or a cold start) and `description.from` (where the measured text came from), so a
 * version-4 report reads as it was. Version 4 only added the optional `pairedByModel` (a
 * paired report of several models), so a version-3 report reads as it was. Version 3 only added optional fields (siblings:
 * `siblings`, `queries[].siblingHits`, `totals.siblings`; several models, cost and the late load:
 * `settings.models|lateTurns|maxCostUsd|prices`, `queries[].byModel|late|costUsd|runsCostUsd`,
 * `totals.late`, `byModel`, `cost`, `budgetStop`), so a version-2 report reads as it was. Version 2 only added optional fields (`$schema`,
 * `description.listed`, `subsets`) and `errorCauses` keys with a status (`api:500`; the part before
 * the `:` is the cause, as the bare keys of version 1 are), so a version-1 report reads as it was.
 */
export const OLDEST_READ_SCHEMA_VERSION = 1;

/**
 * The `$schema` written into every report: the JSON Schema (schema/report.schema.json) as shipped
 * in the npm package of the version that wrote it, so an editor or validator finds the exact shape.
 */
export function reportJsonSchemaUrl(toolVersion: string): string {
  return `https://unpkg.com/skilltrigger@${toolVersion}/schema/report.schema.json`;
}

/**
 * The head the run report and the matrix report open with, in this key order (the files' text
 * depends on it): the JSON Schema's URL, the schema's id and version, the tool, the time written.
 */
export function documentHead<Id extends string, Version extends number>(
  schemaUrl: string,
  schema: Id,
  schemaVersion: Version,
  toolVersion: string,
  createdAt: Date,
) {
  return {
    $schema: schemaUrl,
    schema,
    schemaVersion,
    tool: { name: 'skilltrigger' as const, version: toolVersion },
    createdAt: createdAt.toISOString(),
  };
}

const hex12 = z.string().regex(/^[0-9a-f]{12}$/);
const count = z.number().int().nonnegative();

/** The agents a report can name (`--agent`). */
export const agentIdSchema = z.enum(AGENT_IDS);
/** How an entry reached the model: its whole text, its text cut, or its name alone. */
const listingStateSchema = z.enum(['whole', 'cut', 'bare']);

export const outcomeCodeSchema = z.union([
  z.enum(['triggered', 'not-triggered', 'timeout']),
  z.string().regex(new RegExp(`^error:(${ERROR_CAUSES.join('|')})$`)),
]);

export const usageSchema = z.object({
  inputTokens: count,
  outputTokens: count,
  cacheReadInputTokens: count,
  cacheCreationInputTokens: count,
  costUsd: z.number().nonnegative().optional(),
});

/**
 * A context as a report may say it (docs/context.md, "Privacy"): the SHA-256 of its turns, their
 * number and their size in characters, never their text. A new object per call (see
 * `requestedModelSchema`): a shared instance would change the text of the shipped JSON Schemas.
 */
export function contextSummarySchema() {
  return z.object({
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    turns: z.number().int().positive(),
    chars: z.number().int().positive(),
  });
}

/** One query's runs on one model (`--model a,b`). */
export const modelCountsSchema = z.object({
  hits: count,
  runs: count,
  late: count,
  timeouts: count,
  errors: count,
});

export const querySchema = z.object({
  id: z.string(),
  query: z.string(),
  shouldTrigger: z.boolean(),
  /** Extra fields of the eval entry (note, needs_context, …), as the user wrote them. */
  extra: z.record(z.string(), z.unknown()),
  /** Every run's outcome, in the order they ran. */
  outcomes: z.array(outcomeCodeSchema),
  /** The model each run's init event reported (null where the run died before init). */
  models: z.array(z.string().nullable()),
  durationsMs: z.array(count),
  planned: count,
  /** Runs that ended triggered or not-triggered. */
  runs: count,
  hits: count,
  timeouts: count,
  errors: count,
  /** hits/runs, null when no run was measured. */
  rate: z.number().min(0).max(1).nullable(),
  /** Against the threshold; null when no run was measured. */
  pass: z.boolean().nullable(),
  /** Measured on fewer runs than planned (some lost, or the run was stopped early). */
  partial: z.boolean(),
  usage: usageSchema,
  /** `--siblings`: measured runs whose deciding message loaded each sibling (only siblings loaded at least once). */
  siblingHits: z.record(z.string(), count).optional(),
  /** `--late N`: misses whose run loaded the stub in a later turn (never hits). Absent without `--late`. */
  late: count.optional(),
  /** `--model a,b`: this query's counts on each model, keyed by the model asked for. */
  byModel: z.record(z.string(), modelCountsSchema).optional(),
  /** `--agent a,b`: this query's counts on each agent. */
  byAgent: z.record(z.string(), modelCountsSchema).optional(),
  /** `--agent a,b`: the agent each run ran on, in run order (as `models`). */
  agents: z.array(agentIdSchema).optional(),
  /** What the runs cost in US dollars (the priced ones; see `runsCostUsd`). Absent in reports before it. */
  costUsd: z.number().nonnegative().optional(),
  /** Each run's cost in US dollars, in run order; null where the model's price is unknown. */
  runsCostUsd: z.array(z.number().nonnegative().nullable()).optional(),
  /** The context this query's runs started with (its entry's own, or `--context`); absent: fresh. */
  context: contextSummarySchema().optional(),
  /** With both arms (docs/context.md, "Arms"): this query's counts fresh and with its context. */
  byContext: z.object({ fresh: modelCountsSchema, context: modelCountsSchema }).partial().optional(),
  /** The stub's listing state in each run, in run order; null where none was read. */
  listing: z.array(listingStateSchema.nullable()).optional(),
});

/** `--siblings`: where the runs went among the competing skills (docs/matrix.md). */
export const siblingTotalsSchema = z.object({
  /** Measured runs of positives (cross-negatives excluded) whose deciding message loaded a sibling instead. */
  lostPositives: count,
  /** Measured runs of positives, the denominator of `lostPositives`. */
  positiveRuns: count,
  /** `lostPositives` per sibling name (only siblings that took at least one). */
  lostTo: z.record(z.string(), count),
  /** Measured runs of negatives that name an owner sibling (`owner` field, or a cross-negative). */
  ownedNegativeRuns: count,
  /** Of those, the runs that loaded the owner: the prompt went where it belongs. */
  toOwner: count,
  /** `--cross-negatives`: the siblings' positives measured as negatives here, counted apart (also in the totals above). */
  crossNegatives: z.object({ queries: count, passed: count, fired: count, runs: count }).optional(),
});

export const totalsSchema = z.object({
  planned: count,
  executed: count,
  positives: z.object({ triggered: count, runs: count }),
  negatives: z.object({ fired: count, runs: count }),
  timeouts: count,
  errors: count,
  errorCauses: z.record(z.string(), count),
  queries: count,
  passed: count,
  failed: count,
  usage: usageSchema,
  /** `--siblings`: positives lost to siblings, negatives that went to their owner; absent without siblings. */
  siblings: siblingTotalsSchema.optional(),
  /** `--late N`: misses that loaded the stub later, over every query. Absent without `--late`. */
  late: count.optional(),
});

/** What a measurement's runs cost, priced from their usage up to the decision (src/cost/). */
export const costSchema = z.object({
  /** The sum over every priced run, US dollars. */
  usd: z.number().nonnegative(),
  pricedRuns: count,
  /** Runs whose model has no price in the table; their tokens are still in `usage`. */
  unpricedRuns: count,
  /** The models without a price ("price unknown"). */
  unknownModels: z.array(z.string()),
  /** Dollars per model (as reported by the run, else as asked for). */
  byModel: z.record(z.string(), z.number().nonnegative()),
  /**
   * The table checked against the CLI's own total_cost_usd, per model, over the runs that reached
   * their result event (src/cost/cost-check.ts); absent when no run did. Optional.
   */
  check: z
    .object({
      runs: count,
      models: z.array(
        z.object({
          model: z.string(),
          runs: count,
          tableUsd: z.number().nonnegative(),
          cliUsd: z.number().nonnegative(),
          differs: z.boolean(),
          suspect: z
            .object({
              rate: z.enum(['input', 'output', 'cacheRead', 'cacheWrite']),
              tableRate: z.number().nonnegative(),
              impliedRate: z.number().nonnegative(),
              alsoFits: z.array(z.enum(['input', 'output', 'cacheRead', 'cacheWrite'])),
            })
            .optional(),
        }),
      ),
    })
    .optional(),
});

/** One model's side of a measurement (`--model a,b`): the verdict rules applied to its runs alone. */
export const modelSummarySchema = z.object({
  verdict: z.enum(['ok', 'no-verdict']),
  noVerdictReasons: z.array(z.string()),
  lostQueries: z.array(z.string()),
  totals: totalsSchema,
  /** What this model's runs cost; absent when none was priced. */
  costUsd: z.number().nonnegative().optional(),
});

/** One agent a report measured on: its CLI's version (null where it could not be read), and the model asked of it with several agents. */
export const agentSchema = z.object({
  name: agentIdSchema,
  version: z.string().nullable(),
  /** With several agents: the model this agent was asked for (absent: the agent's default). */
  model: z.string().optional(),
});

/** Why `--max-cost-usd` stopped the run: what was spent and what the next run was expected to cost. */
export const budgetStopSchema = z.object({
  spentUsd: z.number().nonnegative(),
  nextEstimateUsd: z.number().nonnegative(),
  maxUsd: z.number().positive(),
});

const comparisonLabelSchema = z.enum(['noise', 'improvement', 'regression', 'no-verdict']);

/** One class of one model in a paired report: baseline → candidate, measured runs only, and compare's label. */
export const pairedClassSchema = z.object({
  base: z.object({ hits: count, runs: count }),
  cand: z.object({ hits: count, runs: count }),
  /** Candidate rate − baseline rate; null when a side has no measured run. */
  deltaRate: z.number().min(-1).max(1).nullable(),
  label: comparisonLabelSchema,
});

/**
 * A paired report of several models (`--baseline-description` with `--model a,b`): each model's
 * candidate against the same model's baseline, labelled as `compare` labels them.
 */
export const pairedByModelSchema = z.object({
  /** The skill's standing: a regression on any model is the skill's; else an improvement on any, with no model lacking a verdict. */
  label: comparisonLabelSchema,
  /** Per model (keyed as asked for, in the order measured): compare's label, and each class's counts and label. */
  models: z.record(
    z.string(),
    z.object({ label: comparisonLabelSchema, positives: pairedClassSchema, negatives: pairedClassSchema }),
  ),
  /**
   * compare's label over every model's runs together, with the models it pools. Present only when
   * it is honest: every query ran each model as often on both sides (else a side with more runs of
   * the likelier model would look better). A change on one model can cancel another's in it.
   */
  pooled: z.object({ label: comparisonLabelSchema, models: z.array(z.string()) }).optional(),
});

/** Totals over one subset of the queries (pass/fail per query is the same as in the whole). */
export const subsetTotalsSchema = z.object({
  /** Queries in the subset. */
  queries: count,
  /** Positives of the subset: how many, how many pass, and their measured runs and hits. */
  positives: z.object({ queries: count, passed: count, triggered: count, runs: count }),
  /** Negatives of the subset: how many, how many pass, and their measured runs and fires. */
  negatives: z.object({ queries: count, passed: count, fired: count, runs: count }),
  passed: count,
  failed: count,
});

/** The subsets an eval set's annotations define; each present only when the annotation is used. */
export const subsetsSchema = z.object({
  /** Every query not marked `needs_context: true`; present when some query is marked. */
  withoutContext: subsetTotalsSchema.optional(),
  /** Queries not held out (`split: train`, the default); present, with holdout, when some query is held out. */
  train: subsetTotalsSchema.optional(),
  /** Queries marked `split: holdout`; present when some query is. */
  holdout: subsetTotalsSchema.optional(),
});

export const descriptionSchema = z.object({
  bytes: count,
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  overridden: z.boolean(),
  /**
   * Where the measured text came from: the SKILL.md (`skill`), a flag's own text (`text`:
   * `--description`, `--baseline-description "<text>"`) or a file (`file`: `--baseline-description`
   * naming a file, `--baseline-description-file`). Never the text or the path. Absent in reports
   * before it, and where the Action measured.
   */
  from: z.enum(['skill', 'text', 'file']).optional(),
  /**
   * The text actually measured: Claude Code's listing line for the skill (description, ` - `,
   * when_to_use, capped at 1,536), which the stub was written from. `source` says whether the
   * listing probe read it from the CLI or the emulation stood in. Absent in reports before it.
   */
  listed: z
    .object({
      bytes: count,
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      source: z.enum(['probe', 'emulation']),
    })
    .optional(),
});

/** One class of `sessionCost`: each arm's measured runs, and the rate with the context − fresh. */
const armDeltaSchema = z.object({
  fresh: z.object({ hits: count, runs: count }),
  context: z.object({ hits: count, runs: count }),
  /** Rate with the context − rate fresh (negative: the session costs loads); null when an arm has no measured run. */
  deltaRate: z.number().min(-1).max(1).nullable(),
  /** Newcombe's 95% interval of `deltaRate`; null with it. */
  interval: z.object({ lower: z.number().min(-1).max(1), upper: z.number().min(-1).max(1) }).nullable(),
});

/** `--versus-fresh`: the queries measured both fresh and with their context, and each class's change. */
export const sessionCostSchema = z.object({
  queries: count,
  positives: armDeltaSchema,
  negatives: armDeltaSchema,
});
export type SessionCost = z.infer<typeof sessionCostSchema>;

/**
 * How one agent listed the stub and its catalogue (docs/listing-budget.md, "The listing of a
 * measured run"): the budget and what the listing used (display characters for Claude Code, UTF-8
 * bytes for Codex), every entry counted by state, every entry but the stub by the first 12 hex of
 * the SHA-256 of its listed name (as the roster's members), the stub's own entry, and the runs
 * counted by the state the stub had in each.
 */
export const agentListingSchema = z.object({
  unit: z.enum(['characters', 'bytes']),
  /** Absent where the agent did not say it and the rule does not know the model's window. */
  budget: count.optional(),
  used: count,
  /** Every entry of the listing, the stub's included; `omitted`: left out by Codex's budget. */
  entries: z.object({ whole: count, cut: count, bare: count, omitted: count }),
  members: z.array(z.object({ id: hex12, state: z.enum(['whole', 'cut', 'bare', 'omitted']) })),
  /**
   * The stub's entry as the probe of the runs' environment read it; `chars`: its text as listed (0
   * bare); `text`: the room its entry's text needs in `unit`, listed or not (Claude Code's listed
   * text, already capped at 1,536; Codex's SKILL.md description). `text` is absent in reports
   * before it.
   */
  stub: z.object({ state: listingStateSchema, chars: count, text: count.optional() }),
  /** The runs by the stub's state; `fromRequest`: those whose state was read from their own request. */
  runs: z.object({ whole: count, cut: count, bare: count, fromRequest: count }),
});

/** One description measured over one eval set. A paired report holds two. */
export const measurementSchema = z.object({
  description: descriptionSchema,
  verdict: z.enum(['ok', 'no-verdict']),
  /** Why there is no verdict (empty when there is one). */
  noVerdictReasons: z.array(z.string()),
  /** True when the run was stopped early (no-verdict share passed, or interrupted). */
  aborted: z.boolean(),
  interrupted: z.boolean(),
  /** Ids of queries that lost every run. */
  lostQueries: z.array(z.string()),
  /** Ids of queries measured on fewer runs than planned. */
  partialQueries: z.array(z.string()),
  queries: z.array(querySchema),
  totals: totalsSchema,
  /** Totals apart for the annotated subsets (needs_context, split); absent when the set uses neither. */
  subsets: subsetsSchema.optional(),
  /** `--model a,b`: per model (keyed as asked for), its verdict, reasons and totals. */
  byModel: z.record(z.string(), modelSummarySchema).optional(),
  /** `--agent a,b`: per agent, its verdict (the no-verdict rule on its runs alone), reasons and totals. */
  byAgent: z.record(z.string(), modelSummarySchema).optional(),
  /**
   * When some runs started fresh and some with a context (docs/context.md, "Arms"): each arm's
   * verdict (the no-verdict rule on its runs alone), reasons and totals, over its own queries.
   */
  byContext: z.object({ fresh: modelSummarySchema, context: modelSummarySchema }).partial().optional(),
  /** `--versus-fresh` (docs/context.md): what the session costs over the queries measured in both arms. */
  sessionCost: sessionCostSchema.optional(),
  /** What the runs cost; absent in reports before it. */
  cost: costSchema.optional(),
  /** Set when `--max-cost-usd` stopped the run; `noVerdictReasons` then opens with `budget: …`. */
  budgetStop: budgetStopSchema.optional(),
  /** Per agent, how the stub and its catalogue were listed; absent where no listing was read. */
  listing: z.partialRecord(agentIdSchema, agentListingSchema).optional(),
});

/**
 * The model asked for (`--model`; null: the CLI's default) and how many runs reported each model in
 * their init event, as the run and matrix reports both hold it. A new object per call, counting with
 * the caller's own `count`: a shared instance would be written once under `$defs`, and so change the
 * text of the JSON Schemas shipped in schema/.
 */
export function requestedModelSchema(runCount: z.ZodNumber) {
  return z.object({
    requested: z.string().nullable(),
    reported: z.record(z.string(), runCount),
  });
}

export const rosterSchema = z.object({
  slashCommands: count,
  skills: count,
  /** First 12 hex of SHA-256 of each member name (slash commands ∪ skills, stub excluded), sorted. */
  members: z.array(hex12),
});

export const environmentSchema = z.object({
  memoryFiles: z.object({ project: count, user: count }),
  hooks: count,
  mcpServers: count,
});

export const reportSchema = z.object({
  /** Optional: a URL (or relative id) naming the JSON Schema this report follows; see reportJsonSchemaUrl. */
  $schema: z.string().optional(),
  schema: z.literal(REPORT_SCHEMA_ID),
  schemaVersion: z.literal(REPORT_SCHEMA_VERSION),
  tool: z.object({ name: z.literal('skilltrigger'), version: z.string() }),
  createdAt: z.iso.datetime(),
  /** The name of the skill under test (the author's own; never a roster member's). */
  skill: z.string(),
  simulated: z.boolean(),
  /** The version of the (first) agent's CLI; the same as `agents[0].version`. */
  cli: z.object({ version: z.string().nullable() }),
  /** The agents measured (`--agent`), in the order asked; one entry for one agent, claude by default. */
  agents: z.array(agentSchema).min(1),
  model: requestedModelSchema(count),
  roster: rosterSchema.nullable(),
  environment: environmentSchema.nullable(),
  settings: z.object({
    /** Runs per query; with `runsMode: auto`, the most a query could get. */
    runsPerQuery: z.number().int().positive(),
    /** `auto`: each query stopped once its pass/fail was settled (`--runs auto[:max]`). Absent = fixed. */
    runsMode: z.enum(['fixed', 'auto']).optional(),
    timeoutSeconds: z.number().positive(),
    triggerThreshold: z.number().min(0).max(1),
    noVerdictShare: z.number().min(0).max(1),
    stub: z.enum(['command', 'skill']),
    maxRetries: count,
    /**
     * How the prompts reached claude: `standby` (a stream-json message to a claude started ahead)
     * or `cold` (`claude -p <query>`). The two requests differ in one Bash tool text (docs/speed.md,
     * "A warm standby"); `compare` warns when two reports differ. Absent: cold (older reports).
     */
    launch: z.enum(['standby', 'cold']).optional(),
    /** `--model a,b`: the models measured, in the order asked. Absent with one model. */
    models: z.array(z.string()).optional(),
    /** `--agent a,b`: the agents measured, in the order asked. Absent with one agent. */
    agents: z.array(agentIdSchema).optional(),
    /** `--late N`: the turns a miss was watched for a late load (0 = off). */
    lateTurns: count.optional(),
    /**
     * `--context <file>`: every run started with these turns in its history (docs/context.md),
     * said as the SHA-256 of the turns, their number and their size in characters, never their text.
     * Absent: every run started fresh.
     */
    context: contextSummarySchema().optional(),
    /**
     * `--versus-fresh`: each query with a context was also measured fresh, interleaved; the
     * measurement's `byContext` and `sessionCost` hold the two arms. Absent: off.
     */
    versusFresh: z.literal(true).optional(),
    /**
     * `--context-fill N`: `context` is the first N characters of the coding conversation that ships
     * with skilltrigger (docs/context.md, "Filling context"); its summary is in `context`. Absent: none.
     */
    contextFill: z.number().int().positive().optional(),
    /**
     * `run --roster`: the crowd every run was listed among (docs/roster.md), by the SHA-256 of what
     * was read (the roster file, or each skill folder's name and SKILL.md) and its counts, never a
     * name or a description. Absent: the machine's own catalogue.
     */
    roster: z
      .object({
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
        from: z.enum(['file', 'folder']),
        skills: count,
        commands: count,
        /**
         * `--versus-clean`: the baseline side is the same description measured in the clean room
         * (no crowd), interleaved, so the comparison is the crowd's cost. Absent: not so.
         */
        versusClean: z.literal(true).optional(),
      })
      .optional(),
    /**
     * `--memory <file>`…: the project instructions every run's project held, as each agent reads
     * them (CLAUDE.md, AGENTS.md, GEMINI.md; docs/cli.md "Memory files"), each file in order by the
     * SHA-256 of its bytes and their number, never its text or its path. Absent: none.
     */
    memory: z
      .array(
        z.object({
          sha256: z.string().regex(/^[0-9a-f]{64}$/),
          bytes: z.number().int().positive(),
          /** The agents whose runs held it (the Action's `memory: auto`); absent: every agent's. */
          agents: z.array(agentIdSchema).min(1).optional(),
        }),
      )
      .min(1)
      .optional(),
    /** `--max-cost-usd`: the budget, US dollars. */
    maxCostUsd: z.number().positive().optional(),
    /** The price table the costs come from: the built-in one, or a `--prices` file (its SHA-256, first 12 hex). */
    prices: z
      .object({ source: z.enum(['builtin', 'file']), sha256: hex12.optional(), asOf: z.string() })
      .optional(),
  }),
  conflictAllowed: z.boolean(),
  /** Counted over both sides of a paired report. */
  verdict: z.enum(['ok', 'no-verdict']),
  candidate: measurementSchema,
  /** Present in a paired report: the baseline description, measured interleaved with the candidate. */
  baseline: measurementSchema.optional(),
  /** `--baseline-description` with several models: the comparison model by model. Absent otherwise. */
  pairedByModel: pairedByModelSchema.optional(),
  /**
   * `--siblings`: the competing skills every run had installed, by name with the SHA-256 of the
   * text listed for each (sorted by name), and whether their positives were measured as
   * cross-negatives. `compare` warns when two reports' sets differ. Absent without siblings.
   */
  siblings: z
    .object({
      members: z.array(z.object({ name: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
      crossNegatives: z.boolean(),
    })
    .optional(),
});

export type Report = z.infer<typeof reportSchema>;
export type Measurement = z.infer<typeof measurementSchema>;
export type QueryResult = z.infer<typeof querySchema>;
export type Totals = z.infer<typeof totalsSchema>;
export type SubsetTotals = z.infer<typeof subsetTotalsSchema>;
export type Subsets = z.infer<typeof subsetsSchema>;
export type Roster = z.infer<typeof rosterSchema>;
export type Environment = z.infer<typeof environmentSchema>;
export type ReportUsage = z.infer<typeof usageSchema>;
export type SiblingTotals = z.infer<typeof siblingTotalsSchema>;
export type ModelCounts = z.infer<typeof modelCountsSchema>;
export type ModelSummaryReport = z.infer<typeof modelSummarySchema>;
export type ReportCost = z.infer<typeof costSchema>;
export type PairedByModel = z.infer<typeof pairedByModelSchema>;
export type ReportAgent = z.infer<typeof agentSchema>;
export type AgentListing = z.infer<typeof agentListingSchema>;
