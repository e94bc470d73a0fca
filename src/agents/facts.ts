/**
 * What an agent declares as plain data (part of the agent spec): its facts, one entry per id in
 * `registry.ts`, and its price table, joined in `prices.ts`. It imports the ids and the transcripts.
 */
import type { AgentId } from './ids.js';
import type { TranscriptFormat } from './transcript.js';

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
