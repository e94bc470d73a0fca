import type { AgentId } from '../agents/ids.js';
import { AGENT_IDS } from '../agents/ids.js';
import { DEFAULT_AGENT } from '../agents/registry.js';
import { oneAgent } from './agent-args.js';
import { maxCostOption } from './cost-args.js';
import { type MeasuringFlags, measuringFlags, skillAndEvalSet } from './measuring-args.js';
import {
  agentBins,
  nonEmptyModel,
  noPositionals,
  numberOption,
  optional,
  requiredOption,
  runsOption,
} from './option-values.js';
import type { ParsedOptions } from './parse-options.js';

/**
 * The flags of the author's commands, `init` and `improve`, as typed settings. Kept apart from
 * args.ts, which only dispatches here; every value is checked by option-values.ts, as for the
 * other commands.
 */

/** `skilltrigger init`: draft an eval set through the user's own agent CLI (`claude -p` by default). */
export interface InitArgs {
  command: 'init';
  /** `--agent <id>`: the agent whose CLI drafts (absent: the default agent). */
  agent?: AgentId;
  /** Each agent's executable (`--codex <path>`, else $SKILLTRIGGER_CODEX, else codex on PATH). */
  bins: Record<AgentId, string>;
  skill: string;
  /** Default `<skill dir>/evals/evals.json`. */
  out?: string;
  /** Prompts to draft in total (about half should trigger). */
  count: number;
  model?: string;
  /** Bound on the drafting call. */
  timeoutSeconds: number;
  maxRetries: number;
}

/** `skilltrigger improve`: propose, measure paired, accept only a significant improvement. */
export interface ImproveArgs extends MeasuringFlags {
  command: 'improve';
  /** `--agent <id>`: the agent measured and asked for rewrites (absent: the default agent). */
  agent?: AgentId;
  /** Each agent's executable. */
  bins: Record<AgentId, string>;
  skill: string;
  eval: string;
  /** Rewrites to try at most. */
  iterations: number;
  runs: number;
  runsAuto: boolean;
  model?: string;
  /** Per rewrite call (`timeoutSeconds` is per measured run). */
  askTimeoutSeconds: number;
  /** Replace the description in SKILL.md with a winner that held on the holdout. */
  write: boolean;
  threshold: number;
  /** `--max-cost-usd X`: refuse before anything is measured when the session's estimate passes X. */
  maxCostUsd?: number;
  /** `--prices <file>`: the price table for the estimate. */
  prices?: string;
  /** `--context <file>`: the turns every measured run starts with, as for run (docs/context.md). */
  context?: string;
  /** `--context-fill N`: N characters of the shipped coding conversation before every query. */
  contextFill?: number;
  /** `--memory <file>` (repeatable): project instructions every measured run's project holds, as for run. */
  memory: string[];
}

/**
 * `--agent` of an author command: one agent, since a session or a draft is asked of one model
 * (docs/author-loop.md, "On another agent"); absent for the default agent.
 */
export function authorAgent(value: string | undefined, command: 'init' | 'improve'): { agent?: AgentId } {
  if (value === undefined) return {};
  const only = oneAgent(
    value,
    (agents) =>
      `${command} runs on one agent per call; got --agent ${value}. Fix: run ${agents.map((a) => `${command} --agent ${a}`).join(' and ')} as separate calls (one of ${AGENT_IDS.join(', ')} each)`,
  );
  return only === DEFAULT_AGENT ? {} : { agent: only };
}

export function initArgs(parsed: ParsedOptions, env: NodeJS.ProcessEnv): InitArgs {
  noPositionals('init', parsed.positionals);
  const v = parsed.values;
  return {
    command: 'init',
    ...authorAgent(v.get('agent'), 'init'),
    bins: agentBins(parsed, env),
    skill: requiredOption(parsed, 'init', 'skill', '<dir> (the folder holding SKILL.md)'),
    ...optional('out', v.get('out')),
    count: numberOption('count', v.get('count'), 20),
    ...optional('model', nonEmptyModel(parsed)),
    timeoutSeconds: numberOption('timeout', v.get('timeout'), 180),
    maxRetries: numberOption('max-retries', v.get('max-retries'), 2),
  };
}

export function improveArgs(parsed: ParsedOptions, env: NodeJS.ProcessEnv): ImproveArgs {
  const v = parsed.values;
  return {
    command: 'improve',
    ...authorAgent(v.get('agent'), 'improve'),
    ...skillAndEvalSet(parsed, 'improve', 'an eval set with a holdout'),
    iterations: numberOption('iterations', v.get('iterations'), 5),
    // A rewrite is judged on as many runs as it takes, unless --runs says otherwise.
    ...runsOption(v.get('runs'), { fallback: 'auto', auto: true }),
    ...optional('model', nonEmptyModel(parsed)),
    ...measuringFlags(parsed, env),
    askTimeoutSeconds: numberOption('ask-timeout', v.get('ask-timeout'), 180),
    write: parsed.switches.has('write'),
    threshold: numberOption('threshold', v.get('threshold'), 0.5),
    ...maxCostOption(v.get('max-cost-usd')),
    ...optional('prices', v.get('prices')),
    ...optional('context', v.get('context')),
    ...(v.get('context-fill') === undefined
      ? {}
      : { contextFill: numberOption('context-fill', v.get('context-fill'), 0) }),
    memory: [...(parsed.lists.get('memory') ?? [])],
  };
}
