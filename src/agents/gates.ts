/**
 * Gates (part of the agent spec; docs/design.md): a gate's result and how a message names it, what
 * an agent's gates are told, and what they found (the default agent's findings, the inherited
 * setup, the plugin reminders). It imports the runs' init event.
 */
import type { Usage } from '../outcome.js';
import type { InitInfo } from './runs.js';

/**
 * A gate's verdict (docs/design.md). Rules produce these as data; `src/preflight/render.ts` turns them into lines,
 * so the Action can show the same results as annotated log groups.
 */
export const GATE_NAMES = ['cli', 'auth', 'round-trip', 'conflict', 'sleep', 'roster'] as const;
export type GateName = (typeof GATE_NAMES)[number];

/** `fail` refuses the run (exit 2); `warn` measures anyway; `skip` means the gate could not run. */
export type GateStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface GateResult {
  gate: GateName;
  status: GateStatus;
  /** What the gate found, in one sentence. */
  reason: string;
  /** For anything not ok: what to do about it (may span lines; commands stand on their own lines). */
  fix?: string;
  /**
   * The id of the agent a gate checked, when it is not the default agent's (`codex roster`;
   * docs/codex.md): any agent with gates, registered for measuring or not yet.
   */
  agent?: string;
}

export function gateResult(gate: GateName, status: GateStatus, reason: string, fix?: string): GateResult {
  return { gate, status, reason, ...(fix === undefined ? {} : { fix }) };
}

/** A gate as a message names it: `roster` for Claude Code's, `codex roster` for another agent's. */
export function gateLabel(result: GateResult): string {
  return result.agent ? `${result.agent} ${result.gate}` : result.gate;
}

/** What an agent's gates are told (the default agent's and every other's alike). */
export interface AgentGateSettings {
  /** Its executable. */
  bin: string;
  /** The user's environment: its key, its endpoint, HOME. */
  env: NodeJS.ProcessEnv;
  /** Its model (absent: its own default). */
  model?: string;
  skillName?: string;
  skillNames?: string[];
  allowConflict: boolean;
  roundTripTimeoutMs?: number;
  signal?: AbortSignal;
  /** Called as each gate's result is known, in gate order. */
  onGate?: (result: GateResult) => void;
  /** Tests only: the machine-wide skills folder its conflict gate reads. */
  systemSkillsFolder?: string;
  /** Its API retries for the round trip, as for its runs. */
  maxRetries: number;
  /** Several models: the round trip runs once for each (then `model` is ignored). */
  models?: string[];
  /** The results folder, where an agent keeps what its gates advised (Claude Code's plugin toggles). */
  out: string;
  /** Bound for its plain commands (`--version`, `auth status`; default 30 s). */
  commandTimeoutMs?: number;
  /** Tests only: the clock its gates date what they remember by. */
  now?: () => Date;
  /**
   * The machine's sleep gate, held by the core: an agent whose gates place it in their own order
   * (`placesSleepGate`) starts it here, once, and records the result it gives.
   */
  sleep?: () => Promise<GateResult>;
}

/**
 * What the default agent's gates find beyond the others': each model's round trip, the stub-less
 * run's init event, the inherited environment, the plugins its conflict gate advised turning off.
 * The run's report and the cost estimate read them.
 */
export interface GateFindings {
  cliVersion?: string;
  /** Each round trip's tokens, keyed by the model asked for (`default` without a model). */
  roundTripUsage?: Record<string, Usage>;
  /** The model each round trip's init event reported, keyed as `roundTripUsage` (an alias resolved). */
  roundTripModels?: Record<string, string>;
  /** The model each round trip's answer named, keyed as `roundTripUsage`. */
  roundTripMessageModels?: Record<string, string>;
  /** The stub-less run's init event (the CLI version filled in from `--version` if missing). */
  rosterInit?: InitInfo;
  /** What the user's setup adds to every run, as counts. */
  environment?: InheritedSetup;
  conflictAllowed: boolean;
  /** Plugins disabled on an earlier preflight's advice and still disabled: remind to re-enable. */
  reminders: PluginReminder[];
}

/** A plugin the user was told to turn off while measuring a skill (the toggles file's entry, src/schemas/toggles.ts). */
export interface PluginReminder {
  id: string;
  scope: string;
  skill: string;
  printedAt: string;
}

/** What an agent's gates found: each marked with the agent's id. */
export interface AgentGates {
  gates: GateResult[];
  interrupted: boolean;
  conflictAllowed: boolean;
  /** Its CLI's version, from its cli gate. */
  version?: string;
  /** The round trip's tokens: what a run costs, the estimate's start. */
  roundTripUsage?: Usage;
  /** The default agent's findings, which the report reads as the preflight's own. */
  findings?: GateFindings;
}

/** What the user's setup adds to an agent's runs, as counts (memory files it loads, hooks). */
export interface InheritedSetup {
  memoryFiles: { project: number; user: number };
  hooks: number;
}
