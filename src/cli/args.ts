import { AGENT_IDS, type AgentChoice, type AgentId, DEFAULT_AGENTS } from '../agents/ids.js';
import { DEFAULT_AGENT } from '../agents/registry.js';
import { UsageError } from '../errors.js';
import { isAgent } from '../inputs/agents.js';
import { parseShard } from '../matrix/plan.js';
import { MATRIX_AGENTS } from '../schemas/matrix.js';
import { agentsOption, oneAgent } from './agent-args.js';
import { type ImproveArgs, type InitArgs, improveArgs, initArgs } from './author-args.js';
import { closest } from './closest.js';
import type { CommandName } from './help/commands.js';
import { commandUsage, USAGE } from './help/help.js';
import { type ImproveApplyArgs, improveApplyArgs } from './improve-apply.js';
import { type MeasuringFlags, measuringFlags } from './measuring-args.js';
import {
  agentBins,
  DEFAULT_OUT,
  nonEmptyModel,
  noPositionals,
  numberOption,
  optional,
  runsOption,
} from './option-values.js';
import { type ParsedOptions, parseOptions } from './parse-options.js';
import { type RunArgs, runArgs } from './run-args.js';

export { USAGE } from './help/help.js';

/**
 * Flags become one typed settings object here; nothing else reads
 * `process.argv`, so every flag has one reader.
 * Each command is one entry of `COMMANDS`: its options come from its help entry (src/cli/help/commands.ts),
 * so an option cannot exist without its explanation, and `build` turns what was parsed into the
 * command's settings. A new command is a new help entry plus a new `COMMANDS` entry.
 * The line is split by parse-options.ts and each value checked by option-values.ts.
 */
export interface PreflightArgs {
  command: 'preflight';
  model?: string;
  skill?: string;
  out: string;
  allowConflict: boolean;
  /** `--agent`: whose gates run (default Claude Code's). */
  agents: AgentChoice[];
  /** Each agent's executable. */
  bins: Record<AgentId, string>;
}

export interface CompareArgs {
  command: 'compare';
  a: string;
  b?: string;
  json: boolean;
  /** `--fail-on-regression`: exit 2 when the comparison finds a regression (for scripts and hooks). */
  failOnRegression: boolean;
}

export interface CheckArgs {
  command: 'check';
  skills: string[];
  evals: string[];
  /** `--roster <file|dir>`: say how each skill is listed among that crowd (docs/roster.md). */
  roster?: string;
  /** `--model`: the model whose listing budget applies (the CLI's default when absent). */
  model?: string;
  /** `--agent`: whose listing the roster is checked on (default: the roster file's agent, else claude). */
  agent?: AgentId;
  /** Each agent's executable: the default agent's probe reads each skill as it lists it (emulated when absent). */
  bins: Record<AgentId, string>;
}

export interface RosterExportArgs {
  command: 'roster-export';
  agent: AgentId;
  out: string;
  hashNames: boolean;
  model?: string;
  bin: string;
}

export interface ViewArgs {
  command: 'view';
  /** One report, or the baseline's and the candidate's. */
  reports: [string] | [string, string];
  open: boolean;
}

/** `skilltrigger matrix`: measure the skills under a folder together, or merge the legs of a sharded matrix. */
export interface MatrixArgs extends MeasuringFlags {
  command: 'matrix';
  /** The folder whose SKILL.md files are measured; absent with `merge`. */
  skills?: string;
  /** `--merge`: the legs' JSON files to combine (nothing is run). */
  merge: string[];
  runs: number;
  model?: string;
  /** `--shard i/n`: leg i of n (1-based). */
  shard?: { index: number; count: number };
  json: boolean;
  /** `--context <file>`: the turns every query without a context of its own starts with (docs/context.md). */
  context?: string;
  /** `--context-fill N`: N characters of the shipped coding conversation instead. */
  contextFill?: number;
  /** `--agent <id>` for an agent but the default: the agent that runs the matrix (absent: Claude Code). */
  agent?: AgentId;
}

export type CliArgs =
  | RunArgs
  | MatrixArgs
  | PreflightArgs
  | CompareArgs
  | CheckArgs
  | ViewArgs
  | RosterExportArgs
  | InitArgs
  | ImproveArgs
  | ImproveApplyArgs
  /** `topic`: the command whose help was asked for; absent for the overall usage. */
  | { command: 'help'; topic?: CommandName }
  | { command: 'version' };

interface CommandSpec {
  build(parsed: ParsedOptions, env: NodeJS.ProcessEnv): CliArgs;
}

/** The commands: each builds its settings from what `parseOptions` found. */
export const COMMANDS: Record<CommandName, CommandSpec> = {
  run: {
    build: (parsed, env): RunArgs => runArgs(parsed, env),
  },
  preflight: {
    build(parsed, env): PreflightArgs {
      noPositionals('preflight', parsed.positionals);
      return {
        command: 'preflight',
        ...optional('model', nonEmptyModel(parsed)),
        ...optional('skill', parsed.values.get('skill')),
        out: parsed.values.get('out') ?? DEFAULT_OUT,
        allowConflict: parsed.switches.has('allow-conflict'),
        agents: agentsOption(parsed.values.get('agent'), undefined).agents ?? [...DEFAULT_AGENTS],
        bins: agentBins(parsed, env),
      };
    },
  },
  compare: {
    build(parsed): CompareArgs {
      const [a, b, extra] = parsed.positionals;
      if (!a)
        throw new UsageError(
          `compare needs two reports (or one paired report)\n\n${commandUsage('compare')}`,
        );
      if (extra) throw new UsageError(`compare takes at most two reports; got a third: "${extra}"`);
      return {
        command: 'compare',
        a,
        ...optional('b', b),
        json: parsed.switches.has('json'),
        failOnRegression: parsed.switches.has('fail-on-regression'),
      };
    },
  },
  check: {
    build(parsed, env): CheckArgs {
      noPositionals('check', parsed.positionals);
      const skills = [...(parsed.lists.get('skill') ?? [])];
      const evals = [...(parsed.lists.get('eval') ?? [])];
      if (skills.length === 0 && evals.length === 0) {
        throw new UsageError(
          `check needs at least one --skill <dir> or --eval <file>\n\n${commandUsage('check')}`,
        );
      }
      const roster = parsed.values.get('roster');
      const model = parsed.values.get('model');
      const agent = parsed.values.get('agent');
      if (agent !== undefined && !isAgent(agent))
        throw new UsageError(`--agent ${agent}: not an agent. Fix: give one of ${AGENT_IDS.join(', ')}`);
      return {
        command: 'check',
        skills,
        evals,
        ...(roster === undefined ? {} : { roster }),
        ...(model === undefined ? {} : { model }),
        ...(agent === undefined ? {} : { agent }),
        bins: agentBins(parsed, env),
      };
    },
  },
  view: {
    build(parsed): ViewArgs {
      const [a, b, extra] = parsed.positionals;
      if (a === undefined)
        throw new UsageError(
          `view needs a report (a .json file written by skilltrigger run)\n\n${commandUsage('view')}`,
        );
      if (extra !== undefined) {
        throw new UsageError(
          `view takes at most two reports (a baseline and a candidate); got a third: "${extra}"`,
        );
      }
      return { command: 'view', reports: b === undefined ? [a] : [a, b], open: parsed.switches.has('open') };
    },
  },
  matrix: {
    build(parsed, env): MatrixArgs {
      const v = parsed.values;
      const merge = [...(parsed.lists.get('merge') ?? [])];
      // `--merge a.json b.json`: the files after the first are positionals.
      if (merge.length > 0) merge.push(...parsed.positionals);
      else noPositionals('matrix', parsed.positionals);
      const skills = v.get('skills');
      if (merge.length > 0 && skills !== undefined)
        throw new UsageError(
          'matrix takes --skills <dir> (measure) or --merge <files…> (combine legs), not both',
        );
      if (merge.length > 0 && v.has('shard'))
        throw new UsageError('--merge combines legs and measures nothing, so it takes no --shard');
      if (merge.length === 0 && !skills)
        throw new UsageError(
          `matrix needs --skills <dir> (the folder holding the skills) or --merge <files…>\n\n${commandUsage('matrix')}`,
        );
      const shard = v.get('shard');
      return {
        command: 'matrix',
        ...optional('skills', skills),
        merge,
        // A matrix measures a fixed number of runs per query: no auto.
        runs: runsOption(v.get('runs'), { fallback: 2, auto: false }).runs,
        ...optional('model', nonEmptyModel(parsed)),
        ...measuringFlags(parsed, env),
        ...(shard === undefined ? {} : { shard: parseShard(shard) }),
        json: parsed.switches.has('json'),
        ...optional('context', v.get('context')),
        ...(v.get('context-fill') === undefined
          ? {}
          : { contextFill: numberOption('context-fill', v.get('context-fill'), 0) }),
        ...otherMatrixAgent(matrixAgent(v.get('agent'))),
      };
    },
  },
  init: { build: (parsed, env) => initArgs(parsed, env) },
  roster: {
    build(parsed, env): RosterExportArgs {
      const [action, extra] = parsed.positionals;
      if (action !== 'export' || extra !== undefined)
        throw new UsageError(`roster takes one action, export\n\n${commandUsage('roster')}`);
      const out = parsed.values.get('out');
      if (!out) throw new UsageError(`roster export needs --out <roster.json>\n\n${commandUsage('roster')}`);
      const agent = parsed.values.get('agent') ?? DEFAULT_AGENT;
      if (!isAgent(agent))
        throw new UsageError(`--agent ${agent}: not an agent. Fix: give one of ${AGENT_IDS.join(', ')}`);
      return {
        command: 'roster-export',
        agent,
        out,
        hashNames: parsed.switches.has('hash-names'),
        ...optional('model', parsed.values.get('model')),
        bin: agentBins(parsed, env)[agent],
      };
    },
  },
  improve: {
    // --apply writes a finished session's winner: none of the measuring options apply.
    build: (parsed, env) =>
      parsed.values.has('apply') ? improveApplyArgs(optionRecord(parsed)) : improveArgs(parsed, env),
  },
};

/**
 * `matrix --agent`: one agent per matrix. Its report holds one agent's runs, so two agents are two
 * calls (docs/matrix.md).
 */
function matrixAgent(value: string | undefined): AgentId | undefined {
  if (value === undefined) return undefined;
  const only = oneAgent(
    value,
    (agents) =>
      `matrix measures one agent per report; got --agent ${value}. Fix: run ${agents.map((a) => `matrix --agent ${a}`).join(' and ')} as two calls`,
  );
  const known = MATRIX_AGENTS.find((id) => id === only);
  if (known === undefined)
    throw new UsageError(
      `matrix --agent ${only}: the routing matrix runs on ${MATRIX_AGENTS.join(' or ')} for now (docs/matrix.md). Fix: measure ${only} with run --agent ${only} --siblings <dir>`,
    );
  return known;
}

/** The matrix's agent, when it is not the default agent. */
function otherMatrixAgent(agent: AgentId | undefined): { agent?: AgentId } {
  return agent === undefined || agent === DEFAULT_AGENT ? {} : { agent };
}

/** The options as one record, for `improve --apply`, which refuses every option but its own. */
function optionRecord(parsed: ParsedOptions): Record<string, string | true> {
  const values: Record<string, string | true> = Object.fromEntries(parsed.values);
  for (const name of parsed.switches) values[name] = true;
  return values;
}

function isCommand(name: string | undefined): name is CommandName {
  return name !== undefined && Object.hasOwn(COMMANDS, name);
}

/** `--help` or `-h` anywhere before a `--` asks for the command's help instead of running it. */
function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

export function parseCli(argv: string[], env: NodeJS.ProcessEnv = process.env): CliArgs {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
    case '--help':
    case '-h':
      return { command: 'help' };
    case 'help': {
      const [topic, extra] = rest;
      if (topic === undefined) return { command: 'help' };
      if (!isCommand(topic)) throw new UsageError(`there is no command "${topic}" to explain\n\n${USAGE}`);
      if (extra !== undefined) throw new UsageError(`help explains one command; got "${extra}" too`);
      return { command: 'help', topic };
    }
    case '--version':
    case '-v':
      return { command: 'version' };
  }
  if (!isCommand(command)) {
    const meant = closest(command, Object.keys(COMMANDS));
    throw new UsageError(
      `unknown command "${command}"${meant === undefined ? '' : `: did you mean ${meant}?`}\n\n${USAGE}`,
    );
  }
  if (asksForHelp(rest)) return { command: 'help', topic: command };
  return COMMANDS[command].build(parseOptions(command, rest), env);
}
