import type { AgentTarget } from '../measure/loop-spec.js';
import { agentsOption } from './agent-args.js';
import { lateOption, maxCostOption } from './cost-args.js';
import { type MeasuringFlags, measuringFlags, skillOnly } from './measuring-args.js';
import { crossNegativesOf, numberOption, optional, runsOption } from './option-values.js';
import type { ParsedOptions } from './parse-options.js';

/** `skilltrigger run`'s settings, as its flags give them (src/cli/args.ts dispatches to `runArgs`). */
export interface RunArgs extends MeasuringFlags {
  command: 'run';
  skill: string;
  /** Absent: the skill's own eval set, by the folder convention (src/cli/eval-file.ts). */
  eval?: string;
  /** Runs per query; with `runsAuto`, the maximum. */
  runs: number;
  runsAuto: boolean;
  model?: string;
  /** `--model a,b[,…]`: several models, each measured on every query (then `model` is absent). */
  models?: string[];
  /** `--late N`: turns a miss is watched for a late load of the stub (0 = off). */
  lateTurns: number;
  /** `--prices <file>`: a price table replacing the built-in one. */
  prices?: string;
  /** `--max-cost-usd X`: refuse a plan estimated above X, stop before a run that could pass it. */
  maxCostUsd?: number;
  /** `--dry-run`: the gates, the plan and its estimate; no measured run. */
  dryRun: boolean;
  description?: string;
  /** `--baseline-description <text|file>`: the text, or a file holding it when one of that name exists. */
  baselineDescription?: string;
  /** `--baseline-description-file <file>`: the baseline's text from this file (which must exist). */
  baselineDescriptionFile?: string;
  /** `--junit <file>`: also write the report as JUnit XML there. */
  junit?: string;
  threshold: number;
  /** `--siblings <dir>` (repeatable): folders whose other skills compete in every run (docs/matrix.md). */
  siblings: string[];
  /** `--cross-negatives`: the siblings' positives measured as extra negatives of this skill. */
  crossNegatives: boolean;
  /** `--roster <file|dir>`: the crowd every run is listed among (docs/roster.md). */
  roster?: string;
  /** `--versus-clean`: with `--roster`, the same description measured in the clean room too, paired (docs/roster.md). */
  versusClean: boolean;
  /** `--allow-bare`: measure a stub listed worse than the skill itself would be (src/measure/listing-gate.ts). */
  allowBare: boolean;
  /** `--agent`: the agents measured, each with its model with several (absent: claude alone). */
  agents?: AgentTarget[];
  /** `--context <file>`: the turns every run starts with in its history (docs/context.md). */
  context?: string;
  /** `--context-fill N`: N characters of the shipped coding conversation before every query. */
  contextFill?: number;
  /** `--versus-fresh`: each query with a context is measured fresh too, interleaved (docs/context.md). */
  versusFresh: boolean;
  /** `--memory <file>` (repeatable): project instructions every run's project holds (docs/cli.md "Memory files"). */
  memory: string[];
}

/** `run`'s settings from what `parseOptions` found. */
export function runArgs(parsed: ParsedOptions, env: NodeJS.ProcessEnv): RunArgs {
  const v = parsed.values;
  return {
    command: 'run',
    skill: skillOnly(parsed, 'run'),
    ...optional('eval', v.get('eval')),
    ...runsOption(v.get('runs'), { fallback: 2, auto: true }),
    ...agentsOption(v.get('agent'), v.get('model')),
    lateTurns: lateOption(v.get('late')),
    ...optional('prices', v.get('prices')),
    ...maxCostOption(v.get('max-cost-usd')),
    dryRun: parsed.switches.has('dry-run'),
    ...measuringFlags(parsed, env),
    ...optional('description', v.get('description')),
    ...optional('baselineDescription', v.get('baseline-description')),
    ...optional('baselineDescriptionFile', v.get('baseline-description-file')),
    ...optional('junit', v.get('junit')),
    ...optional('context', v.get('context')),
    ...(v.get('context-fill') === undefined
      ? {}
      : { contextFill: numberOption('context-fill', v.get('context-fill'), 0) }),
    versusFresh: parsed.switches.has('versus-fresh'),
    threshold: numberOption('threshold', v.get('threshold'), 0.5),
    siblings: [...(parsed.lists.get('siblings') ?? [])],
    memory: [...(parsed.lists.get('memory') ?? [])],
    crossNegatives: crossNegativesOf(parsed),
    allowBare: parsed.switches.has('allow-bare'),
    versusClean: parsed.switches.has('versus-clean'),
    ...optional('roster', v.get('roster')),
  };
}
