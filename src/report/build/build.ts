import { type AgentId, DEFAULT_AGENTS } from '../../agents/ids.js';
import type { StubListing } from '../../agents/listing.js';
import { DEFAULT_AGENT } from '../../agents/registry.js';
import type { InitInfo, LoadedEntry } from '../../agents/runs.js';
import { type BudgetSetter, type BudgetStop, budgetReason, type PricesIdentity } from '../../cost/budget.js';
import type { PriceTable } from '../../cost/prices.js';
import type { ContextSummary } from '../../inputs/context.js';
import type { EvalItem } from '../../inputs/types.js';
import { describeText, rosterOf } from '../../schemas/privacy.js';
import {
  documentHead,
  type Environment,
  type Measurement,
  REPORT_SCHEMA_ID,
  REPORT_SCHEMA_VERSION,
  type Report,
  reportJsonSchemaUrl,
} from '../../schemas/report.js';
import { type RuleSettings, type RunRecord, summarizeMeasurement } from '../../verdict/rules.js';
import { withContextArms } from './context-arms.js';
import { type ListingPictures, measurementListing, runState } from './listing.js';
import { withModelsAndCost } from './models-cost.js';

/**
 * A run as the report reads it: the verdict's record, the init event it saw (for the roster and the
 * CLI version) and what its decisive message loaded. The loop's `RunResult` is one, with more that
 * only the harness reads.
 */
export type ReportedRun = RunRecord & { init?: InitInfo; loaded?: LoadedEntry; listing?: StubListing };

export interface SideInput {
  description: string;
  overridden: boolean;
  records: ReportedRun[][];
  /** Names the runs' stubs had, excluded from the roster. */
  stubNames: string[];
  /** Per agent, the listing a probe of the runs' environment read for this side's stub. */
  listing?: ListingPictures;
}

export interface ReportInput {
  toolVersion: string;
  createdAt: Date;
  skill: string;
  simulated: boolean;
  requestedModel?: string;
  items: EvalItem[];
  rules: RuleSettings;
  timeoutSeconds: number;
  stub: 'command' | 'skill';
  maxRetries: number;
  /** How the runs' prompts reached claude (docs/speed.md, "A warm standby"). */
  launch?: 'standby' | 'cold';
  conflictAllowed: boolean;
  aborted: boolean;
  interrupted: boolean;
  /** Why the run stopped early, in words fit for the report (no paths). */
  stopReason?: string;
  /** Counts gathered by the roster gate; null when not gathered. */
  environment: Omit<Environment, 'mcpServers'> | null;
  /** The roster as a stub-less run saw it, when the roster gate ran; else the first run's init is used. */
  rosterInit?: InitInfo;
  candidate: SideInput;
  baseline?: SideInput;
  /** `--model a,b`: the models measured, each run's `requestedModel` one of them. */
  models?: string[];
  /**
   * The agents measured (`--agent`), each with its model (several agents) and its CLI's version
   * where known (claude's is also read from its runs' init events). Absent: claude alone.
   */
  agents?: Array<{ agent: AgentId; model?: string; version?: string }>;
  /** `--late N` (0 = off). */
  lateTurns?: number;
  /** `--context <file>`, as a report may say it (docs/context.md). */
  context?: ContextSummary;
  /** `--versus-fresh`: each query with a context was measured fresh too (its runs hold both arms). */
  versusFresh?: boolean;
  /** `--context-fill N`: the context is N characters of the shipped conversation. */
  contextFill?: number;
  /** `run --roster`: the crowd, by hash and counts. */
  roster?: NonNullable<Report['settings']['roster']>;
  /** `--memory`: each file by hash and size. */
  memory?: NonNullable<Report['settings']['memory']>;
  /** The price table the runs are priced with, and its identity for `settings.prices`. */
  prices?: { table: PriceTable; identity: PricesIdentity };
  maxCostUsd?: number;
  /** `--max-cost-usd` stopped the run before its plan was done. */
  budgetStop?: BudgetStop;
  /** Who set the budget, for the stop's reason: the CLI's flag (absent) or the Action's input. */
  budgetSetBy?: BudgetSetter;
}

function measurementOf(input: ReportInput, side: SideInput): Measurement {
  const state = {
    aborted: input.aborted,
    interrupted: input.interrupted,
    ...(input.stopReason === undefined ? {} : { stopReason: input.stopReason }),
    ...(input.budgetStop ? { budgetReason: budgetReason(input.budgetStop, input.budgetSetBy ?? 'cli') } : {}),
    description: describeText(side.description, side.overridden),
    ...(input.versusFresh ? { versusFresh: true } : {}),
  };
  // With several models (or agents) every query is planned once per each; each is judged apart too.
  const agents = severalAgents(input);
  const modelCount = agents?.length ?? (input.models && input.models.length > 1 ? input.models.length : 1);
  const overall = { ...input.rules, runsPerQuery: input.rules.runsPerQuery * modelCount };
  const measurement = withModelsAndCost(
    summarizeMeasurement(input.items, side.records, overall, state),
    side.records,
    {
      items: input.items,
      rules: input.rules,
      ...(input.models ? { models: input.models } : {}),
      ...(agents ? { agents } : {}),
      lateTurns: input.lateTurns ?? 0,
      ...(input.prices ? { prices: input.prices.table } : {}),
      ...(input.requestedModel ? { requestedModel: input.requestedModel } : {}),
      state,
    },
  );
  const armed = withContextArms(measurement, side.records, { items: input.items, rules: overall, state });
  const listed = withListing(armed, side);
  return input.budgetStop ? { ...listed, budgetStop: input.budgetStop } : listed;
}

/** The stub's listing state per run and, per agent, the listing's picture; unchanged without one. */
function withListing(measurement: Measurement, side: SideInput): Measurement {
  const pictures = side.listing ?? {};
  const listing = measurementListing(side.records, pictures);
  if (listing === undefined) return measurement;
  const queries = measurement.queries.map((q, i) => ({
    ...q,
    listing: (side.records[i] ?? []).map((r) => runState(r, pictures)),
  }));
  return { ...measurement, queries, listing };
}

/** `--agent a,b`: the agents' names, with two or more. */
function severalAgents(input: ReportInput): AgentId[] | undefined {
  return input.agents && input.agents.length > 1 ? input.agents.map((a) => a.agent) : undefined;
}

/** Assemble the report from what was measured. Pure: the caller supplies the clock and the gates' findings. */
export function buildReport(input: ReportInput): Report {
  const sides = [input.candidate, ...(input.baseline ? [input.baseline] : [])];
  const runs = sides.flatMap((s) => s.records.flat());
  const firstInit = input.rosterInit ?? runs.find((r) => r.init)?.init;
  const reported: Record<string, number> = {};
  for (const r of runs) if (r.model) reported[r.model] = (reported[r.model] ?? 0) + 1;
  const stubNames = sides.flatMap((s) => s.stubNames);
  const candidate = measurementOf(input, input.candidate);
  const baseline = input.baseline ? measurementOf(input, input.baseline) : undefined;
  const verdict = candidate.verdict === 'ok' && (baseline?.verdict ?? 'ok') === 'ok' ? 'ok' : 'no-verdict';
  const agents = reportAgents(input, runs);
  return {
    ...documentHead(
      reportJsonSchemaUrl(input.toolVersion),
      REPORT_SCHEMA_ID,
      REPORT_SCHEMA_VERSION,
      input.toolVersion,
      input.createdAt,
    ),
    skill: input.skill,
    simulated: input.simulated,
    cli: { version: agents[0]?.version ?? null },
    agents,
    model: { requested: input.requestedModel ?? null, reported },
    roster: firstInit ? rosterOf(firstInit.slashCommands, firstInit.skills, stubNames) : null,
    environment: input.environment
      ? { ...input.environment, mcpServers: firstInit?.mcpServers ?? 0 }
      : firstInit
        ? { memoryFiles: { project: 0, user: 0 }, hooks: 0, mcpServers: firstInit.mcpServers }
        : null,
    settings: reportSettings(input),
    conflictAllowed: input.conflictAllowed,
    verdict,
    candidate,
    ...(baseline ? { baseline } : {}),
  };
}

/** The agents measured, each with its version (the default agent's from its runs' init events). */
function reportAgents(input: ReportInput, runs: readonly ReportedRun[]): Report['agents'] {
  // The default agent's version comes from its runs' init events (the first run of it that has one).
  const defaultInit =
    input.rosterInit ?? runs.find((r) => r.init && (r.agent ?? DEFAULT_AGENT) === DEFAULT_AGENT)?.init;
  const measured: NonNullable<ReportInput['agents']> = input.agents ?? [...DEFAULT_AGENTS];
  return measured.map((a) => ({
    name: a.agent,
    version: a.version ?? (a.agent === DEFAULT_AGENT ? (defaultInit?.cliVersion ?? null) : null),
    ...(a.model !== undefined && (input.agents?.length ?? 0) > 1 ? { model: a.model } : {}),
  }));
}

/** The settings the runs were measured under, each optional one only where it was used. */
function reportSettings(input: ReportInput): Report['settings'] {
  const several = severalAgents(input);
  return {
    runsPerQuery: input.rules.runsPerQuery,
    runsMode: input.rules.autoRuns ? 'auto' : 'fixed',
    timeoutSeconds: input.timeoutSeconds,
    triggerThreshold: input.rules.triggerThreshold,
    noVerdictShare: input.rules.noVerdictShare,
    stub: input.stub,
    maxRetries: input.maxRetries,
    ...(input.launch === undefined ? {} : { launch: input.launch }),
    ...(input.models && input.models.length > 1 ? { models: input.models } : {}),
    ...(several ? { agents: several } : {}),
    ...(input.lateTurns === undefined ? {} : { lateTurns: input.lateTurns }),
    ...(input.context === undefined ? {} : { context: input.context }),
    ...(input.versusFresh ? { versusFresh: true as const } : {}),
    ...(input.contextFill === undefined ? {} : { contextFill: input.contextFill }),
    ...(input.roster === undefined ? {} : { roster: input.roster }),
    ...(input.memory === undefined ? {} : { memory: input.memory }),
    ...(input.maxCostUsd === undefined ? {} : { maxCostUsd: input.maxCostUsd }),
    ...(input.prices ? { prices: input.prices.identity } : {}),
  };
}
