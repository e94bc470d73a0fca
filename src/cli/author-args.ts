import { maxCostOption } from './cost-args.js';
import { type MeasuringFlags, measuringFlags, skillAndEvalSet } from './measuring-args.js';
import {
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

/** `skilltrigger init`: draft an eval set through the user's own `claude -p`. */
export interface InitArgs {
  command: 'init';
  skill: string;
  /** Default `<skill dir>/evals/evals.json`. */
  out?: string;
  /** Prompts to draft in total (about half should trigger). */
  count: number;
  model?: string;
  /** Bound on the drafting call. */
  timeoutSeconds: number;
  maxRetries: number;
  claude: string;
}

/** `skilltrigger improve`: propose, measure paired, accept only a significant improvement. */
export interface ImproveArgs extends MeasuringFlags {
  command: 'improve';
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

export function initArgs(parsed: ParsedOptions, claudeDefault: string): InitArgs {
  noPositionals('init', parsed.positionals);
  const v = parsed.values;
  return {
    command: 'init',
    skill: requiredOption(parsed, 'init', 'skill', '<dir> (the folder holding SKILL.md)'),
    ...optional('out', v.get('out')),
    count: numberOption('count', v.get('count'), 20),
    ...optional('model', nonEmptyModel(parsed)),
    timeoutSeconds: numberOption('timeout', v.get('timeout'), 180),
    maxRetries: numberOption('max-retries', v.get('max-retries'), 2),
    claude: v.get('claude') ?? claudeDefault,
  };
}

export function improveArgs(parsed: ParsedOptions, claudeDefault: string): ImproveArgs {
  const v = parsed.values;
  return {
    command: 'improve',
    ...skillAndEvalSet(parsed, 'improve', 'an eval set with a holdout'),
    iterations: numberOption('iterations', v.get('iterations'), 5),
    // A rewrite is judged on as many runs as it takes, unless --runs says otherwise.
    ...runsOption(v.get('runs'), { fallback: 'auto', auto: true }),
    ...optional('model', nonEmptyModel(parsed)),
    ...measuringFlags(parsed, v.get('claude') ?? claudeDefault),
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
