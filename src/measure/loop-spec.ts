/** What the measuring loop (src/measure/loop.ts) is given, and what it gives back. */
import type { AgentId } from '../agents/ids.js';
import type { StubProjectError } from '../agents/process/stub-project.js';
import type { Agent, AgentRunResult } from '../agents/runs.js';
import type { BudgetStop } from '../cost/budget.js';
import type { EvalItem } from '../inputs/types.js';
import type { RuleSettings, RunRecord } from '../verdict/rules.js';
import type { PlannedRun } from './run-plan.js';

export type SideLabel = 'candidate' | 'baseline';

/** A finished run as the loop records it: what the rules read, plus what only the harness sees. */
export interface RunResult extends RunRecord, Omit<AgentRunResult, keyof RunRecord> {}

/**
 * One description to measure, before any run (a report's measured side is `Side` in
 * src/report/sides.ts); each agent holds its own stub of each side. A paired run has two sides over
 * the same queries.
 */
export interface SideSpec {
  label: SideLabel;
}

/** One agent of `--agent a,b`, with the model it is asked for (absent: the agent's default). */
export interface AgentTarget {
  agent: AgentId;
  model?: string;
}

/** What the plan's second dimension is (the agents with several, else the models), and its runs. */
export interface LoopTargets {
  /** `--agent a,b`: the agents, with two or more. */
  severalAgents?: AgentTarget[];
  /** `--model a,b` (with one agent). */
  models?: string[];
  /** One per plan slot's `model` index. */
  targets: AgentTarget[];
  /** Every run of the plan, in order (src/measure/run-plan.ts): made once, here. */
  runs: PlannedRun[];
}

export interface LoopSpec {
  items: EvalItem[];
  sides: SideSpec[];
  rules: RuleSettings;
  /** Each run's timeout. */
  timeoutMs: number;
  /**
   * `--model a,b`: every query is measured on each model, interleaved query by query, so drift
   * hits all models alike; each run's `requestedModel` says which. Absent: `model` alone.
   */
  models?: string[];
  /** The agent of every run when `agents` is absent; default the registry's default agent. */
  agent?: AgentId;
  /**
   * `--agent claude,codex`: every query is measured on each agent, interleaved query by query as
   * models are (then `models` is absent: each agent has at most one model); each run's `agent` says
   * which.
   */
  agents?: AgentTarget[];
  /** `--model` with one agent: every run's model, unless `models` names several. */
  model?: string;
  /**
   * The loop agent of each agent the plan runs, by id, each made with its stubs of `sides` (any
   * `Agent` of the spec in src/agents/runs.ts): `openLoopAgents`, or a test's fakes.
   */
  seam: Partial<Record<AgentId, Agent>>;
  /** `--max-cost-usd`: stop before a run that could take the spend past `maxUsd`. */
  budget?: Budget;
  /** The plan as `measurementLoop` made it (src/measure/loop-targets.ts); made from the spec when absent. */
  planned?: LoopTargets;
}

/** What the loop needs to keep a measurement within `--max-cost-usd`. */
export interface Budget {
  maxUsd: number;
  /** What a finished run cost (priced from its usage; every model of the plan has a price). */
  costOf(result: RunResult): number;
  /** What the next run will cost, before any run is measured (from the round trip's usage). */
  firstEstimateUsd: number;
  /** Spent before this measurement on the same budget (the Action's earlier skills in the job); 0 when absent. */
  spentUsd?: number;
}

export type { BudgetStop } from '../cost/budget.js';

export interface RunProgress extends PlannedRun {
  /** 1-based count of runs done, and the planned total. */
  done: number;
  planned: number;
  label: SideLabel;
  result: RunResult;
}

export interface LoopResult {
  /** records[side][item] = that item's runs on that side, in order. */
  records: RunResult[][][];
  aborted: boolean;
  interrupted: boolean;
  /** Why the loop stopped early when the machine could no longer host a run (the runs so far are kept). */
  failure?: StubProjectError;
  /** Set when the next run could have passed `--max-cost-usd`, so the loop stopped before it. */
  budgetStop?: BudgetStop;
}
