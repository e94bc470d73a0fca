/**
 * The shape of the help entries, and the options several commands explain alike, each written once;
 * a command's help entry (command-help.ts) lists them among its own, so `parse-options.ts` reads
 * them from the same table.
 */

import { AGENT_IDS, type AgentId } from '../../agents/ids.js';
import { AGENTS, agentFacts, DEFAULT_AGENT } from '../../agents/registry.js';

/** The default agent, whose executable option every measuring command takes (`--claude <path>`). */
const DEFAULT = agentFacts(DEFAULT_AGENT);

/** The default agent's executable option, worded for what the command does with it. */
export function defaultBinOption(text: string): OptionHelp {
  return { name: DEFAULT.binOption, value: '<path>', text };
}

/** `$SKILLTRIGGER_CLAUDE`, `claude`: where the default agent's executable is found, for a help text. */
export const DEFAULT_BIN = { bin: DEFAULT.bin, variable: `$${DEFAULT.binVariable}` } as const;

/** One option of a command, as `--help` explains it. */
export interface OptionHelp {
  /** The flag without its dashes (`runs`). */
  name: string;
  /** The value's placeholder (`<dir>`); absent for a switch. */
  value?: string;
  /** What it does, what it accepts and its default; may span lines. */
  text: string;
  /** May be given more than once (`check --skill a --skill b`); every other option only once. */
  repeatable?: true;
}

/** One command's help entry (command-help.ts holds them all). */
export interface CommandHelp {
  /** One line: what the command is for. */
  summary: string;
  /** The synopsis lines, without the leading `skilltrigger `. */
  usage: readonly string[];
  /** Positional arguments, explained like options. */
  args?: readonly OptionHelp[];
  options: readonly OptionHelp[];
  /** What each exit code means for this command. */
  exitCodes: readonly (readonly [number, string])[];
  /** Two command lines, each with a comment line above it. */
  examples: readonly (readonly [string, string])[];
}

export const SHARED_OPTIONS = {
  /** run, improve, init: the skill measured or drafted for. */
  skill: { name: 'skill', value: '<dir>', text: 'the folder holding SKILL.md (required)' },
  /** run, preflight, matrix. */
  out: {
    name: 'out',
    value: '<dir>',
    text: 'where reports go, and where printed plugin toggles are remembered (default ./skilltrigger-results)',
  },
  /** run, preflight, matrix. */
  allowConflict: {
    name: 'allow-conflict',
    text: 'measure even when an enabled plugin carries a skill or command of the same name (it can shadow the stub); the report records that the conflict was allowed',
  },
  /** run and matrix, whose runs are bounded by --timeout. */
  maxRetries: {
    name: 'max-retries',
    value: '<N>',
    text: 'API retries inside claude, 0 to 10 (default 2), so failures surface within --timeout',
  },
  /** init and improve, which say less of it. */
  maxRetriesBrief: { name: 'max-retries', value: '<n>', text: 'API retries inside claude (default 2)' },
  /** run and matrix; improve says it shorter, pointing to run. */
  standby: {
    name: 'standby',
    value: '<N>',
    text: "start the next N runs' claude (or codex) ahead, each in its own project, waiting for its prompt, so the agent's start-up is off each run's time; still one run at a time towards the model. 0 to 4; 0: every run starts cold. Default: 1 (2 with 4 or more cores for claude), fewer when memory is short (~210 MB a claude, ~100 MB a codex)",
  },
  /** run, preflight, matrix. */
  defaultBin: defaultBinOption(
    `the ${DEFAULT.bin} binary to run (default: $${DEFAULT.binVariable}, else ${DEFAULT.bin} on PATH)`,
  ),
  /** run, improve, matrix. */
  debug: { name: 'debug', text: "show claude's stderr" },
} as const satisfies Record<string, OptionHelp>;

const OTHER_AGENTS = Object.values(AGENTS).filter((a) => a.id !== DEFAULT_AGENT);

/** `claude|codex|gemini`: the `--agent` values, from the registry (or those given). */
export const agentValues = (ids: readonly AgentId[] = AGENT_IDS): string => ids.join('|');

/** `claude (Claude Code, the default), codex (…) or gemini (…)`: each agent as `--agent` explains it. */
export function agentChoices(ids: readonly AgentId[] = AGENT_IDS): string {
  const texts = ids.map((id) => agentFacts(id).agentHelp);
  return texts.length < 2 ? texts.join('') : `${texts.slice(0, -1).join(', ')} or ${texts.at(-1)}`;
}

/** `[--codex <path>] [--gemini <path>]`: the usage line's executable options of the agents but the default. */
export const agentBinUsage = (ids: readonly AgentId[] = OTHER_AGENTS.map((a) => a.id)): string =>
  ids.map((id) => `[--${agentFacts(id).binOption} <path>]`).join(' ');

/**
 * The executable option of each agent but the default (`--codex <path>`), from the registry;
 * `withEndpoint` adds where its runs send their model calls.
 */
export function agentBinOptions(
  withEndpoint: boolean,
  ids: readonly AgentId[] = OTHER_AGENTS.map((a) => a.id),
): OptionHelp[] {
  return ids.map((id) => {
    const a = agentFacts(id);
    const endpoint = withEndpoint && a.endpointHelp ? `. ${a.endpointHelp}` : '';
    return {
      name: a.binOption,
      value: '<path>',
      text: `the ${a.bin} binary to run with --agent ${a.id} (default: $${a.binVariable}, else ${a.bin} on PATH)${endpoint}`,
    };
  });
}
