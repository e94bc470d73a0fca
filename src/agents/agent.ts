/**
 * The agent spec: what the core asks of an agent CLI, and the neutral shapes every agent speaks, so
 * the loop, the verdicts, the reports and the Action never ask which agent ran. It imports no
 * agent: each one implements it in its own folder (`claude/`, `codex/`, docs/architecture.md,
 * "A new agent"), and the registry (`registry.ts`) names them.
 */
import type { InputError } from '../errors.js';
import { isRecord } from '../guards.js';
import type { ErrorCause, Outcome, Usage } from '../outcome.js';
import type { ListedTextProbe } from './listed.js';

/** The agent CLIs a measurement can run (`--agent`): Claude Code, OpenAI's Codex CLI and Google's Gemini CLI. */
export const AGENT_IDS = ['claude', 'codex', 'gemini'] as const;
export type AgentId = (typeof AGENT_IDS)[number];

/** One agent measured, with the model asked of it (absent: the agent's own default). */
export interface AgentChoice {
  agent: AgentId;
  model?: string;
}

/**
 * What the core asks about an agent that is plain fact (one per id, in `registry.ts`): names,
 * package, executable, the options and inputs that name it, its secrets. What it runs is its runtime.
 */
export interface AgentFacts {
  id: AgentId;
  /** How people call it: `Claude Code`, `Codex`. */
  label: string;
  /** Its CLI where a version is named: `Claude CLI`. */
  cliLabel: string;
  /** The npm package the Action installs, and the executable it puts in `node_modules/.bin`. */
  npmPackage: string;
  bin: string;
  /** The version the Action installs by default: the one this release was tested with. */
  pinnedVersion: string;
  /** The CLI option (without `--`) and the environment variable that name its executable. */
  binOption: string;
  binVariable: string;
  /** The Action's inputs that name its version, its executable and its API key. */
  inputs: { version: string; path: string; apiKey: string };
  /** The variable its runs read the API key from (the Action sets it from `inputs.apiKey`). */
  keyVariable: string;
  /** The environment variables whose values are its secrets: masked wherever text is printed. */
  secretVariables: readonly string[];
  /** Whether its runs can start warm: a process started ahead, waiting for its prompt. */
  warmStandby: boolean;
  /**
   * Whether a routing matrix runs on it (`matrix --agent <id>`, docs/matrix.md), through its
   * runtime's `matrix`.
   */
  routesMatrix: boolean;
  /** Whether its runs can be listed among a roster's crowd (`run --roster`, docs/roster.md). */
  placesRoster: boolean;
  /**
   * The project memory file its runs read from the project's root (`run --memory`, docs/cli.md
   * "Memory files"): `CLAUDE.md`, `AGENTS.md`, `GEMINI.md`.
   */
  memoryFile: string;
  /** The root file it reads instead when its own is absent (Claude Code reads `AGENTS.md`; docs/claude-cli.md). */
  memoryFallback?: string;
  /**
   * Why its runs cannot start from a context (`--context`; docs/context.md), said to the user; absent
   * when they can.
   */
  noContext?: string;
  /** Its session files read as a context (`--context`; docs/context.md), where it writes any. */
  transcript?: TranscriptFormat;
  /** How `--agent`'s help names it: `codex (OpenAI's Codex CLI; docs/codex.md)`. */
  agentHelp: string;
  /** Where its runs send their model calls, for its executable option's help (empty: nothing to say). */
  endpointHelp: string;
  /** The model a version runs without `--model`, when skilltrigger can name it (for the price). */
  defaultModel(version: string | undefined): string | undefined;
  /**
   * The commands that turn one of its plugins off and back on, which its conflict gate prints for
   * the user to run (skilltrigger never runs them); absent: it has no plugins to toggle.
   */
  toggleCommands?(toggle: { id: string; scope: string }): { disable: string; enable: string };
  /** Who loads a skill on it, as an author prompt says it (`Claude`); absent: its label. */
  loaderName?: string;
  /** The fix its auth and round-trip gates give when it is not logged in, or its key was refused. */
  loginFix?: string;
}

/** How one entry reaches the model: its whole text, its text cut at the cap (ending `…`), or its name alone. */
export type ListingState = 'whole' | 'cut' | 'bare';

/** How a message says each state. */
export const LISTING_STATE_WORDS: Readonly<Record<ListingState, string>> = {
  whole: 'whole',
  cut: 'cut',
  bare: 'name-only',
};

/** The stub's entry in a listing: its state, and the characters of its text as listed (0 when bare). */
export interface StubListing {
  state: ListingState;
  chars: number;
}

/**
 * A whole skill listing as one probe of a run's environment read it (docs/listing-budget.md): the
 * budget where the agent says it or the rule knows it, what the listing used, every other entry by
 * its listed name with its state (`omitted`: Codex left it out), and the stub's own entry. Names are the adapter's; a report keeps only their hashes.
 */
export interface ListingPicture {
  /** Claude Code counts display width in characters, Codex UTF-8 bytes. */
  unit: 'characters' | 'bytes';
  budget?: number;
  used: number;
  entries: Array<{ name: string; state: ListingState | 'omitted' }>;
  stub: StubListing;
  /** How the skill itself would be listed in its user's place, where the stub is not whole and that was read. */
  realSkill?: ListingState;
}

/** What a listing probe read, or why it could not. */
export type ListingProbe = { kind: 'read'; picture: ListingPicture } | { kind: 'failed'; reason: string };

/** What an agent's listing probe is told: one side's stub, laid out as its runs lay it out. */
export interface AgentListingSettings {
  bin: string;
  /** The user's environment, HOME included: the catalogue a run lists is the one it finds there. */
  env: NodeJS.ProcessEnv;
  model?: string;
  skillName: string;
  /** The side's text as its SKILL.md holds it. */
  description: string;
  siblings: readonly SiblingText[];
  /** A roster's crowd, listed in a throwaway HOME instead of the user's catalogue. */
  crowd?: readonly CrowdMember[];
}

/** One entry of the catalogue an agent lists on this machine, as a roster holds it (docs/roster.md). */
export interface InstalledEntry {
  kind: 'skill' | 'command';
  source: 'user' | 'project' | 'plugin';
  /** The folder or command file name. */
  name: string;
  /** The text the agent lists for it. */
  description: string;
  /** The use record that ranks it (Claude Code's `skillUsage`). */
  usage?: { usageCount: number; lastUsedAt: number };
}

/** One entry of a roster's crowd (docs/roster.md): a skill folder's SKILL.md, or an entry's description to write one from. */
export interface CrowdMember {
  kind: InstalledEntry['kind'];
  source: InstalledEntry['source'];
  name: string;
  /** A folder roster's SKILL.md, byte for byte. */
  fileText?: string;
  /** A roster file's description (with hashed names: as many `x` as it had characters). */
  description?: string;
  usage?: InstalledEntry['usage'];
}

/** What a reading of the installed catalogue found, or why it could not. */
export type InstalledRead = { kind: 'read'; entries: InstalledEntry[] } | { kind: 'failed'; reason: string };

/** One earlier turn of a context (docs/context.md): who said it and its text. */
export interface ContextTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** A sibling as an agent's run installs it: the sibling skill's name and its text as the agent lists it. */
export interface SiblingText {
  skillName: string;
  description: string;
  /** Its text as the default agent's listing shows it (`AgentStubs.listed`), where the core has it. */
  listed?: string;
}

/** The siblings as an agent sees them: those it lists, and those it leaves out, with why. */
export interface ListedSiblings {
  installed: SiblingText[];
  leftOut: Array<{ name: string; reason: string }>;
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

/** What the user's setup adds to an agent's runs, as counts (memory files it loads, hooks). */
export interface InheritedSetup {
  memoryFiles: { project: number; user: number };
  hooks: number;
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

/** One line of a JSON Lines session file, with its line number. */
export interface TranscriptLine {
  line: number;
  value: Record<string, unknown>;
}

/**
 * An agent's session file as a context: how it is recognised among JSON Lines, and its
 * conversation read as turns (text only: tool calls, their results and thinking left out). Pure.
 */
export interface TranscriptFormat {
  /** The context's `format` when read from it: `claude-session`. */
  format: string;
  /** How an error names it: `Claude Code session`. */
  label: string;
  /** Where the agent writes one, for a fix: `~/.claude/projects/…/<id>.jsonl`. */
  where: string;
  /** Whether these lines are such a file. */
  recognises(lines: readonly TranscriptLine[]): boolean;
  turns(lines: readonly TranscriptLine[]): ContextTurn[];
}

/** The texts of a transcript's content field: a string, or its blocks of the given types. */
export function blockTexts(content: unknown, types: readonly string[]): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content
    .filter(isRecord)
    .filter((block) => types.includes(String(block.type)) && typeof block.text === 'string')
    .map((block) => block.text as string);
}

/** A model's rates in US dollars per million tokens (src/cost/prices.ts checks a file of them). */
export interface ModelRates {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
  /** Rates for a request whose prompt (input + cache reads + cache writes) passes `thresholdTokens`. */
  longPrompt?: {
    thresholdTokens: number;
    input: number;
    output: number;
    cacheWrite: number;
    cacheRead: number;
  };
}

/**
 * The rates of the models an agent's runs may report, with where they come from (`asOf` only
 * where the source gives a day): joined, in registry order, into the default price table.
 */
export interface AgentPriceTable {
  source: string;
  asOf?: string;
  models: Record<string, ModelRates>;
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

/** The crowd side `side` is listed among: none for a clean side (`--versus-clean`), else the roster's. */
export function sideCrowd(
  settings: { crowd?: readonly CrowdMember[]; cleanSides?: readonly number[] },
  side: number,
): readonly CrowdMember[] | undefined {
  return settings.cleanSides?.includes(side) ? [] : settings.crowd;
}

/** A SKILL.md as an agent's listing reads it: its name, where it is, its text as it stands. */
export interface SkillFile {
  name: string;
  /** The SKILL.md, and the folder holding it. */
  file: string;
  dir: string;
  /** The file's text (absent for a description given on the command line). */
  fileText?: string;
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

/**
 * How an agent lists a skill read off its SKILL.md alone, without starting its CLI: the agents
 * whose listing is their own reading of the file (docs/codex.md, docs/gemini.md). An agent whose
 * listing is read from its own CLI has a listed-text probe instead (`AgentLoopRuntime.listedText`).
 */
export interface FileListing {
  /** The input error of a SKILL.md it leaves out of its listing: nothing to measure on it. */
  unlisted(skill: SkillFile): InputError | undefined;
  /**
   * The siblings its runs install beside the stub, as it lists them; for a routing matrix, its
   * listing of the whole skill set (each skill's text as it lists it, and those it leaves out).
   */
  siblings(skills: readonly { skill: SkillFile; file: string }[]): ListedSiblings;
}

/** What a measurement runs on when no agent is named. */
export const DEFAULT_AGENTS: readonly AgentChoice[] = [{ agent: 'claude' }];

/** True when `id` is among the agents measured. */
export function measures(agents: readonly AgentChoice[], id: AgentId): boolean {
  return agents.some((a) => a.agent === id);
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
