/** Everything one skill's measurement is told: what the entries validate and hand to `measureSkill`. */

import type { AgentId } from '../agents/ids.js';
import type { SiblingText } from '../agents/listing.js';
import type { EarlyStart, InitInfo } from '../agents/runs.js';
import type { ContextTurn } from '../agents/transcript.js';
import type { BudgetSetter, PricesIdentity } from '../cost/budget.js';
import type { PriceTable } from '../cost/prices.js';
import type { MemoryFile } from '../inputs/memory.js';
import type { Crowd } from '../inputs/roster.js';
import type { EvalSet, Skill } from '../inputs/types.js';
import type { ListingRead } from '../report/build/listing.js';
import type { SiblingListed } from '../report/build/sibling-counts.js';
import type { RuleSettings } from '../verdict/rules.js';
import type { AgentTarget } from './loop-spec.js';

/** An agent measured through the registry's runtime alone: what its loop agent is made with. */
export interface OtherAgent {
  bin: string;
  version?: string;
  siblings: SiblingText[];
}

/** Everything a measurement needs, validated by the entry (CLI flags or Action inputs). */
export interface MeasureSettings {
  skill: Skill;
  evalSet: EvalSet;
  /** The text under test: the override, or the SKILL.md description. */
  description: string;
  overridden: boolean;
  /** Paired mode: the baseline text, measured interleaved with the candidate. */
  baselineDescription?: string;
  model?: string;
  rules: RuleSettings;
  timeoutSeconds: number;
  stub: 'command' | 'skill';
  maxRetries: number;
  /** The default agent's executable (the registry's `DEFAULT_AGENT`); every other's is in `others`. */
  defaultBin: string;
  env: NodeJS.ProcessEnv;
  conflictAllowed: boolean;
  simulated: boolean;
  toolVersion: string;
  /** Told when the loop stopped for a reason of its own (e.g. no temp project could be made); the message may hold paths. */
  onStopped?: (message: string) => void;
  /** The roster a stub-less run saw, from the roster gate. */
  rosterInit?: InitInfo;
  debug?: boolean;
  /**
   * What the default agent lists for each side, read by its probe before the gates
   * (docs/listing-budget.md); its stubs are written from it. Absent: the emulation's reading
   * (src/inputs/listing.ts).
   */
  listed?: { candidate: string; baseline?: string; source: 'probe' | 'emulation' };
  /**
   * `--siblings`: the competing skills, each by name with the text the default agent lists for it; every
   * run installs them beside the stub (docs/matrix.md). Absent or empty: the skill alone, as before.
   */
  siblings?: SiblingListed[];
  /** `--cross-negatives`: the eval set's items include the siblings' positives as negatives (for the report). */
  crossNegatives?: boolean;
  /** `--model a,b`: every query measured on each model, interleaved (then `model` is absent). */
  models?: string[];
  /**
   * `--agent`: the agents measured, each with the model it is asked for. One: every run on it
   * (its model is `model`/`models`). Several: every query on each, interleaved (then `model` and
   * `models` are absent). Absent: claude alone.
   */
  agents?: AgentTarget[];
  /**
   * Each other agent measured (every one but the default agent), by id: its executable, its version
   * (from its gates) and the siblings its runs install, as it lists them (src/agents/runtime.ts).
   */
  others?: Partial<Record<AgentId, OtherAgent>>;
  /** Each agent's version for the report (claude's also comes from its runs' init events). */
  agentVersions?: Partial<Record<AgentId, string>>;
  /** `--late N`: turns a miss is watched for a late load (0 = off). */
  lateTurns?: number;
  /** `--context <file>`: the turns every run starts with in its history (docs/context.md). */
  context?: readonly ContextTurn[];
  /** `--versus-fresh`: each query with a context is measured fresh too, interleaved (docs/context.md). */
  versusFresh?: boolean;
  /** `--context-fill N`: `context` is N characters of the shipped conversation (docs/context.md). */
  contextFill?: number;
  /** The price table the runs are priced with (the built-in one, or `--prices`). */
  prices?: { table: PriceTable; identity: PricesIdentity };
  /**
   * `--max-cost-usd`: the budget and the first run's estimate (from the round trip). Needs `prices`.
   * `spentUsd`: what earlier measurements of the same job already spent of it (the Action's `max-cost-usd`).
   * `setBy`: who set it, for the stop's reason (absent: the CLI's `--max-cost-usd`).
   */
  budget?: { maxUsd: number; firstEstimateUsd: number; spentUsd?: number; setBy?: BudgetSetter };
  /**
   * `--standby N`: the next runs of an agent with a warm standby started ahead, waiting for their
   * prompts; 0 runs every run cold. Absent: the agents' default for this machine's cores and free
   * memory (docs/speed.md).
   */
  standby?: number;
  /** The first warm run, started before the gates (`startEarly` in src/measure/measurement-loop.ts). */
  early?: EarlyStart;
  /**
   * Read how each agent lists each side's stub among the machine's catalogue, by a probe of the
   * runs' environment before the runs (docs/listing-budget.md, "The listing of a measured run").
   */
  readListing?: boolean;
  /** Told what the probes read, before the first run (and told why a probe failed). */
  onListing?: (read: ListingRead) => void;
  /** Refuse the runs (exit 2) when a stub is listed worse than the skill itself would be (src/measure/listing-gate.ts). */
  listingGate?: boolean;
  /** `run --roster`: the crowd every run is listed among, in a HOME of the run's own (docs/roster.md). */
  roster?: MeasureRoster;
  /**
   * `--memory <file>`…: project instructions every run's project holds, as each agent reads them
   * (its facts' `memoryFile`), the files joined in order (docs/cli.md "Memory files").
   */
  memory?: readonly MemoryFile[];
}

/** A roster measurement's crowd: each agent places it in its runs' own HOMEs (docs/roster.md). */
export interface MeasureRoster {
  crowd: Crowd;
  /**
   * `--versus-clean`: the baseline side measures the same description in the clean room (no crowd,
   * the stub alone in a HOME of the run's own), interleaved with the candidate's among the crowd.
   */
  versusClean?: boolean;
}

/** What of the settings the loop's spec is made from (the entries can make it before the gates). */
export type LoopSettings = Pick<
  MeasureSettings,
  | 'skill'
  | 'evalSet'
  | 'description'
  | 'overridden'
  | 'baselineDescription'
  | 'listed'
  | 'siblings'
  | 'stub'
  | 'others'
  | 'agents'
  | 'models'
  | 'model'
  | 'env'
  | 'maxRetries'
  | 'defaultBin'
  | 'rules'
  | 'timeoutSeconds'
  | 'debug'
  | 'lateTurns'
  | 'context'
  | 'versusFresh'
  | 'standby'
  | 'roster'
  | 'memory'
>;
