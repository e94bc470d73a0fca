/**
 * The agent spec's runtime contract: what the core asks of an agent CLI (`AgentLoopRuntime`), and
 * the settings of what it runs beyond a measurement's runs (a side listing, a routing matrix, an
 * author call), so the loop, the verdicts, the reports and the Action never ask which agent ran. It
 * ties the spec's parts, each a module beside it: `ids.ts`, `transcript.ts`, `listing.ts`,
 * `runs.ts`, `gates.ts`, `facts.ts` and the listed-text probe's `listed.ts`. It imports no agent:
 * each one implements it in its own folder (`claude/`, `codex/`, docs/architecture.md, "A new
 * agent"), and the registry (`registry.ts`) names them.
 */
import type { ErrorCause, Usage } from '../outcome.js';
import type { AgentGateSettings, AgentGates, InheritedSetup } from './gates.js';
import type { ListedTextProbe } from './listed.js';
import type {
  AgentListingSettings,
  CrowdMember,
  FileListing,
  InstalledRead,
  ListingProbe,
  SiblingText,
} from './listing.js';
import type { Agent, AgentRunKnobs, AgentRunSettings, AgentStubs, EarlyStart, RunShape } from './runs.js';

/**
 * What the measurement loop and the routing matrix ask of every agent, the default one included:
 * its loop agent, its matrix's, the kill, its version, and how its runs list a side.
 */
export interface AgentLoopRuntime {
  /** Its loop agent for one measurement. */
  open(settings: AgentRunSettings): Agent;
  /** Its gates in order (cli, auth, round-trip, conflict, roster), each marked with its id but the default agent's. */
  gates(settings: AgentGateSettings): Promise<AgentGates>;
  /** Its gates start the machine's sleep gate in their own order (`AgentGateSettings.sleep`). */
  placesSleepGate?: boolean;
  /** How many standbys this machine holds by default (an agent with a warm standby; docs/speed.md). */
  defaultStandby?(): number;
  /** The first run's warm start, begun before the gates; undefined for an agent without one. */
  startEarly?(settings: Omit<AgentRunSettings, 'warm'>, first: RunShape): EarlyStart | undefined;
  /**
   * Its loop agent over a routing matrix (`matrix --agent <id>`): the run of side i installs the
   * i-th skill's stub as the tested one and every other skill beside it, and its result's `loaded`
   * names whichever of them the run loaded. Absent: the agent cannot route a matrix.
   */
  matrix?(settings: AgentMatrixSettings): Agent;
  /** The matrix's first run's warm start, begun before the gates; undefined for an agent without one. */
  startMatrixEarly?(settings: AgentMatrixSettings, first: RunShape): EarlyStart | undefined;
  /** SIGKILLs the process group of each of its runs still alive (a second interrupt). */
  killAll(): void;
  /**
   * Removes what a run of it killed mid-write left in the user's HOME since `sinceMs` (a lock, a
   * temp file), once none of its runs is alive any more (docs/home.md).
   */
  removeInterruptedWrites?(env: Record<string, string | undefined>, sinceMs: number): Promise<void>;
  /** Its CLI's version, read without the gates (a gate that did not get that far). */
  version(bin: string, env: NodeJS.ProcessEnv): Promise<string | undefined>;
  /**
   * How its runs of each side will list the stub, read by a probe of their own environment:
   * prepared once (the machine's catalogue read), then asked per side. `folder`: the skill's own
   * folder name, where the listing's order depends on it.
   */
  sideListing?(settings: AgentSideListing): Promise<(side: number) => Promise<ListingProbe>>;
  /**
   * How it lists a skill, one of two ways: `listedText`, its listed-text probe, which reads the
   * listing from its own CLI (which text it is measured on, each stub's listing checked, and its
   * siblings' listed texts: src/agents/listed.ts); or `fileListing`, its reading of the SKILL.md
   * alone. Every agent has exactly one of them (the runtime's test says so).
   */
  listedText?: ListedTextProbe;
  fileListing?: FileListing;
  /**
   * How its runs of one side will list the stub, read by a probe of their own environment, where
   * it is read one side at a time (its `sideListing` is then made from it).
   */
  listing?(settings: AgentListingSettings): Promise<ListingProbe>;
  /** The catalogue it lists on this machine, read without writing to the user's HOME. */
  installed?(settings: { bin: string; env: NodeJS.ProcessEnv; model?: string }): Promise<InstalledRead>;
  /** One author call through its CLI, one turn in a fresh temp project (src/agents/ask.ts). */
  ask?(prompt: string, settings: AskSettings): Promise<AskResult>;
  /**
   * What the user's setup adds to every run of it beyond the stub, as counts only (the report's
   * `environment`), read without writing; `tempRoot` is where its runs' projects go.
   */
  environment?(env: NodeJS.ProcessEnv, tempRoot: string): Promise<InheritedSetup>;
}

/** What a side listing probe is prepared with: the runs' own settings. */
export interface AgentSideListing {
  bin: string;
  env: NodeJS.ProcessEnv;
  model?: string;
  stubs: AgentStubs;
  folder: string;
  /** `run --roster`: the crowd the runs are listed among instead of the machine's catalogue. */
  crowd?: readonly CrowdMember[];
  /** `--versus-clean`: the sides listed among an empty crowd (AgentRunSettings' `cleanSides`). */
  cleanSides?: readonly number[];
}

/** One side of a loop agent's runs: the skill its stub stands for, as the agent lists it, and the skills beside it. */
export interface AgentSide {
  skillName: string;
  description: string;
  siblings: readonly SiblingText[];
}

/**
 * What a routing matrix's runs are made with (docs/matrix.md), once the agent's gates have passed:
 * one side per skill of the matrix, each skill the tested one of its own side.
 */
export interface AgentMatrixSettings {
  bin: string;
  /** The user's environment (its key and endpoint are read from it). */
  env: NodeJS.ProcessEnv;
  /** Its version, from its gates (what its runs send without `--model` may depend on it). */
  version?: string;
  /** Side i: the i-th skill as the tested one, every other skill of the matrix beside it, as the agent lists them. */
  sides: readonly AgentSide[];
  /** How many of its next runs it starts ahead (an agent with a warm standby; absent or 0: every run cold). */
  standby?: number;
  /** How the stub is laid out, for an agent with more than one way (`--stub`, docs/design.md). */
  layout?: 'command' | 'skill';
  /** The model every run asks for (absent: the agent's own default). */
  model?: string;
  knobs?: AgentRunKnobs;
  /** The plan's first run (with standbys), which `early` serves. */
  first?: RunShape;
  /** The first run's warm start, begun before the gates (`startMatrixEarly`). */
  early?: EarlyStart;
}

/** What an author call (`init`'s draft, `improve`'s rewrite) is made with: the agent's executable, the user's environment, the run's knobs. */
export interface AskSettings {
  bin: string;
  env: NodeJS.ProcessEnv;
  maxRetries: number;
  model?: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** How an author call ended. */
export type AskResult =
  /** `usage`: the call's tokens (its `result`), so `improve --max-cost-usd` can price it. */
  | { kind: 'answer'; text: string; usage?: Usage }
  | { kind: 'api-error'; cause: ErrorCause; said: string }
  | { kind: 'timeout'; seconds: number }
  | { kind: 'spawn-failed'; reason: string }
  | { kind: 'interrupted' }
  | { kind: 'no-answer'; said: string };
