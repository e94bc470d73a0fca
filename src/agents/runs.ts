/**
 * Runs (part of the agent spec): what an agent's runs of one measurement install and are told
 * (stubs, knobs, warm starts, settings), the run request and its result (what a run loaded, its
 * init event, its phases), and the `Agent` the loop runs. It imports the ids, the transcripts and
 * the listings.
 */
import type { Outcome, Usage } from '../outcome.js';
import type { AgentId } from './ids.js';
import type { CrowdMember, SiblingText, StubListing } from './listing.js';
import type { ContextTurn } from './transcript.js';

/** What an agent's runs of one measurement install: each side's text as its SKILL.md holds it. */
export interface AgentStubs {
  skillName: string;
  /** One per side (the candidate, then the baseline). */
  descriptions: readonly string[];
  siblings: readonly SiblingText[];
  /** The SKILL.md's text, when the candidate is its own description: an agent may list it its own way. */
  skillText?: string;
  /**
   * One per side: the text as the default agent's listing shows it (read by its probe, or
   * emulated; docs/listing-budget.md). An agent whose stub is written from its listed text writes
   * this, and reads each sibling's `listed`; every other agent ignores it.
   */
  listed?: readonly string[];
  /** How the stub is laid out, for an agent with more than one way (`--stub`, docs/design.md). */
  layout?: 'command' | 'skill';
  /** The skill's own folder name: where a listing's order depends on it (docs/roster.md). */
  folder?: string;
}

/** The knobs of a measurement's runs every agent is told; each honours those it has. */
export interface AgentRunKnobs {
  /** `--max-retries`: the API retries a run's CLI may make. */
  maxRetries: number;
  /** `--debug`: the CLI's own debug output, kept beside the run. */
  debug?: boolean;
  /** `--late N`: after a miss, the turns watched for a late load (0 = off). */
  lateTurns?: number;
}

/** One planned run as a warm start is fixed to it at its spawn: its side, its model, its context. */
export interface RunShape {
  side: number;
  model?: string;
  context?: readonly ContextTurn[];
}

/**
 * A run started before the gates so that its start-up overlaps them (an agent with a warm
 * standby): its agent takes it for the plan's first run when it was started as that run needs.
 */
export interface EarlyStart {
  /** Discards it unless it was taken, and waits for that. Never throws. */
  release(): Promise<void>;
}

/** How many of an agent's next runs are started ahead, waiting for their prompts (docs/speed.md). */
export interface AgentWarmStarts {
  /** 0: every run cold. An agent without a warm standby (its facts) is told 0. */
  count: number;
  /** The plan's first run of this agent, which `early` serves. */
  first?: RunShape;
  early?: EarlyStart;
}

/** What an agent's measured runs are made with, once its gates have passed. */
export interface AgentRunSettings {
  bin: string;
  /** The user's environment (its key and endpoint are read from it). */
  env: NodeJS.ProcessEnv;
  /** Its version, from its gates (read again when they did not say). */
  version?: string;
  stubs: AgentStubs;
  knobs?: AgentRunKnobs;
  /** `run --roster`: the crowd each run is listed among, in a HOME of the run's own (docs/roster.md). */
  crowd?: readonly CrowdMember[];
  /**
   * `run --roster --versus-clean`: the sides listed in the clean room instead, an empty crowd (a HOME
   * of the run's own holding the stub alone), so the two arms differ by the crowd alone.
   */
  cleanSides?: readonly number[];
  /**
   * `run --memory`: the text every run's project holds in the agent's memory file (its facts'
   * `memoryFile`, at the project's root), the files joined in order (docs/cli.md "Memory files").
   */
  memory?: string;
  warm?: AgentWarmStarts;
}

/** What identifies the stub in the stream: its name (Skill input) and its file (Read input). */
export interface StubIdentity {
  name: string;
  /** Absolute path of the stub file; a Read of it counts as loading the stub. */
  filePath: string;
  /** The temp project, to resolve a relative Read path. */
  projectDir: string;
  /** Other spellings of the same file (e.g. the realpath when the temp dir sits behind a symlink). */
  aliases?: string[];
}

/** A sibling's stub: its identity in the stream, and the skill it stands for (`run --siblings`). */
export type SiblingIdentity = StubIdentity & { skillName: string };

/**
 * What the first decisive message loaded: the tested stub, a sibling (by its skill's name),
 * another skill or slash command, or nothing. A message that loads the stub is `stub` wherever
 * the stub's block stands; otherwise the first sibling it loads, else `other` for any other
 * Skill/SlashCommand call, else `none`.
 */
export type LoadedEntry =
  | { kind: 'stub' }
  | { kind: 'sibling'; name: string }
  | { kind: 'other' }
  | { kind: 'none' };

/** What the init event of a run said: recorded per run, never decisive by itself. */
export interface InitInfo {
  model?: string;
  cliVersion?: string;
  slashCommands: string[];
  skills: string[];
  mcpServers: number;
}

/**
 * Where one run's time went, as readings of the run's clock (ms): the project ready, the agent
 * spawned, its init event read, its request started (claude's `requesting` status), the decision (or timeout) known, the process group gone, the
 * project removed (or handed over for removal). For `npm run bench`; never in a report.
 */
export interface RunPhases {
  started: number;
  projectReady: number;
  spawned: number;
  init?: number;
  asked?: number;
  decided: number;
  gone: number;
  cleaned: number;
}

/** The result of one measured run, whichever agent ran it. */
export interface AgentRunResult {
  outcome: Outcome;
  /** What the first decisive action loaded; set for triggered and not-triggered runs. */
  loaded?: LoadedEntry;
  usage: Usage;
  durationMs: number;
  /** The model the run reported (claude's init event) or was sent with (`-m`, else the agent's default). */
  model?: string;
  /** The agent that ran it, as the run records say it: absent for claude (`RunRecord.agent`). */
  agent?: AgentId;
  /** `--late N`: a miss whose run loaded the stub in a later turn. */
  late?: boolean;
  /** The stub's entry in the listing this run's own request sent, where the harness can read it (Codex's rollout). */
  listing?: StubListing;
  /**
   * The agent reported no tokens for a run that paid for its prompt (Codex reports usage only when
   * a turn completes, so a run killed at its decision has none): a budget counts its estimate.
   */
  usageUnreported?: true;
  /** What only the harness reads: the CLI's init event, the decision-to-exit latency, the phases. */
  init?: InitInfo;
  decisionToExitMs?: number;
  phases?: RunPhases;
}

/** Thrown by a run whose caller's signal aborted it: the run is not recorded. */
export class RunInterrupted extends Error {}

/** One run the loop asks for. */
export interface AgentRunRequest {
  query: string;
  /** Which side's text is under test (0 the candidate, 1 the baseline): each agent holds its stubs. */
  side: number;
  /** The model to ask for (absent: the agent's default). */
  model?: string;
  timeoutMs: number;
  /** Aborting kills the run and removes its files; the run then rejects and is not recorded. */
  signal?: AbortSignal;
  /**
   * The turns the run starts with in its history (docs/context.md); absent: a fresh session. The
   * same query's runs are handed the same array, so an agent may key what it prepares on it.
   */
  context?: readonly ContextTurn[];
}

/** A run planned after the current one, by the agent that will run it. */
export interface UpcomingRun extends RunShape {
  agent: AgentId;
}

export interface Agent {
  id: AgentId;
  /** One run end to end: launch in a fresh project, decide, kill at the decision, remove its files. */
  run(request: AgentRunRequest): Promise<AgentRunResult>;
  /**
   * Told, once a run has started, which runs come next (every agent's, nearest first), so it may
   * prepare its own while this one runs (claude: the next project, or the next standbys). Nothing
   * prepared may talk to the model before its run.
   */
  ahead?(upcoming: readonly UpcomingRun[]): void;
  /** Discards whatever was prepared and not run, and waits for every removal. Never throws. */
  settle?(): Promise<void>;
}
