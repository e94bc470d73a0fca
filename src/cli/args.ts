import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from '../errors.js';
import { DEFAULT_AUTO_MAX } from '../verdict/sequential.js';
import { type ImproveArgs, type InitArgs, parseImproveArgs, parseInitArgs } from './author-args.js';

/**
 * Flags become one typed settings object here; nothing else reads `process.argv` (STYLE §2).
 * Unknown options are errors, not ignored: `--workers` in particular is refused, because parallel
 * runs divide the measured rate (the first trap in the seeds).
 */
export interface RunArgs {
  command: 'run';
  skill: string;
  eval: string;
  /** Runs per query; with `runsAuto`, the maximum. */
  runs: number;
  runsAuto: boolean;
  model?: string;
  timeoutSeconds: number;
  description?: string;
  baselineDescription?: string;
  stub: 'command' | 'skill';
  out: string;
  allowConflict: boolean;
  maxRetries: number;
  threshold: number;
  claude: string;
  debug: boolean;
}

export interface PreflightArgs {
  command: 'preflight';
  model?: string;
  skill?: string;
  out: string;
  allowConflict: boolean;
  claude: string;
}

export interface CompareArgs {
  command: 'compare';
  a: string;
  b?: string;
  json: boolean;
}

export interface CheckArgs {
  command: 'check';
  skills: string[];
  evals: string[];
}

export type CliArgs =
  | RunArgs
  | PreflightArgs
  | CompareArgs
  | CheckArgs
  | InitArgs
  | ImproveArgs
  | { command: 'help' }
  | { command: 'version' };

export const USAGE = `skilltrigger — measure how often a skill description makes Claude load the skill

Usage:
  skilltrigger run --skill <dir> --eval <file> [--runs 2|auto[:max]] [--model M] [--timeout 30]
                   [--description "<text>"] [--baseline-description <text|file>]
                   [--stub command|skill] [--out ./skilltrigger-results] [--allow-conflict]
  skilltrigger preflight [--model M] [--skill <dir>] [--out <dir>] [--allow-conflict]
  skilltrigger compare <a.json> [<b.json>] [--json]
  skilltrigger check [--skill <dir>]... [--eval <file>]...
  skilltrigger init --skill <dir> [--out <file>] [--count 20] [--model M]
  skilltrigger improve --skill <dir> --eval <file> [--iterations 5] [--runs auto] [--write]

Other options for run: --max-retries N (API retries inside claude, default 2), --threshold 0.5,
--claude <path> (default: claude on PATH, or $SKILLTRIGGER_CLAUDE), --debug (show claude's stderr).
Exit codes: 0 a verdict, 1 usage or input error, 2 a failed gate, 3 no verdict.`;

const DEFAULT_OUT = './skilltrigger-results';

function parse(argv: string[], options: NonNullable<ParseArgsConfig['options']>) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(`${message.replace(/\. To specify a positional argument.*$/s, '')}\n\n${USAGE}`);
  }
}

function integer(
  name: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}; got "${value}"`);
  }
  return n;
}

function number(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= min || n > max) {
    throw new UsageError(`--${name} must be a number above ${min} and at most ${max}; got "${value}"`);
  }
  return n;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function strs(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return typeof value === 'string' ? [value] : [];
}

function noPositionals(command: string, positionals: string[]): void {
  if (positionals.length > 0)
    throw new UsageError(`${command} takes no arguments; got "${positionals[0]}"\n\n${USAGE}`);
}

/** `--runs N`, `--runs auto` (at most 6 per query) or `--runs auto:N`. */
function runsOption(value: string | undefined): { runs: number; runsAuto: boolean } {
  const auto = value?.trim().match(/^auto(?::(.*))?$/);
  if (!auto) return { runs: integer('runs', value, 2, 1, 100), runsAuto: false };
  const max =
    auto[1] === undefined ? DEFAULT_AUTO_MAX : integer('runs auto:', auto[1], DEFAULT_AUTO_MAX, 2, 100);
  return { runs: max, runsAuto: true };
}

export function parseCli(argv: string[], env: NodeJS.ProcessEnv = process.env): CliArgs {
  const [command, ...rest] = argv;
  const claudeDefault = env.SKILLTRIGGER_CLAUDE || 'claude';
  switch (command) {
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      return { command: 'help' };
    case '--version':
    case '-v':
      return { command: 'version' };
    case 'run': {
      const { values, positionals } = parse(rest, {
        skill: { type: 'string' },
        eval: { type: 'string' },
        runs: { type: 'string' },
        model: { type: 'string' },
        timeout: { type: 'string' },
        description: { type: 'string' },
        'baseline-description': { type: 'string' },
        stub: { type: 'string' },
        out: { type: 'string' },
        'allow-conflict': { type: 'boolean' },
        'max-retries': { type: 'string' },
        threshold: { type: 'string' },
        claude: { type: 'string' },
        debug: { type: 'boolean' },
      });
      noPositionals('run', positionals);
      const skill = str(values.skill);
      const evalFile = str(values.eval);
      if (!skill) throw new UsageError(`run needs --skill <dir> (the folder holding SKILL.md)\n\n${USAGE}`);
      if (!evalFile)
        throw new UsageError(`run needs --eval <file> (a JSON, EVAL.yaml or CSV eval set)\n\n${USAGE}`);
      const stub = str(values.stub) ?? 'command';
      if (stub !== 'command' && stub !== 'skill')
        throw new UsageError(`--stub must be command or skill; got "${stub}"`);
      const model = str(values.model);
      const description = str(values.description);
      const baselineDescription = str(values['baseline-description']);
      if (model !== undefined && model.trim() === '') throw new UsageError('--model must not be empty');
      return {
        command: 'run',
        skill,
        eval: evalFile,
        ...runsOption(str(values.runs)),
        ...(model === undefined ? {} : { model }),
        timeoutSeconds: number('timeout', str(values.timeout), 30, 0, 3600),
        ...(description === undefined ? {} : { description }),
        ...(baselineDescription === undefined ? {} : { baselineDescription }),
        stub,
        out: str(values.out) ?? DEFAULT_OUT,
        allowConflict: values['allow-conflict'] === true,
        maxRetries: integer('max-retries', str(values['max-retries']), 2, 0, 10),
        threshold: number('threshold', str(values.threshold), 0.5, 0, 0.999),
        claude: str(values.claude) ?? claudeDefault,
        debug: values.debug === true,
      };
    }
    case 'preflight': {
      const { values, positionals } = parse(rest, {
        model: { type: 'string' },
        skill: { type: 'string' },
        out: { type: 'string' },
        'allow-conflict': { type: 'boolean' },
        claude: { type: 'string' },
      });
      noPositionals('preflight', positionals);
      const model = str(values.model);
      const skill = str(values.skill);
      return {
        command: 'preflight',
        ...(model === undefined ? {} : { model }),
        ...(skill === undefined ? {} : { skill }),
        out: str(values.out) ?? DEFAULT_OUT,
        allowConflict: values['allow-conflict'] === true,
        claude: str(values.claude) ?? claudeDefault,
      };
    }
    case 'compare': {
      const { values, positionals } = parse(rest, { json: { type: 'boolean' } });
      const [a, b, extra] = positionals;
      if (!a) throw new UsageError(`compare needs two reports (or one paired report)\n\n${USAGE}`);
      if (extra) throw new UsageError(`compare takes at most two reports; got a third: "${extra}"`);
      return { command: 'compare', a, ...(b === undefined ? {} : { b }), json: values.json === true };
    }
    case 'check': {
      const { values, positionals } = parse(rest, {
        skill: { type: 'string', multiple: true },
        eval: { type: 'string', multiple: true },
      });
      noPositionals('check', positionals);
      const skills = strs(values.skill);
      const evals = strs(values.eval);
      if (skills.length === 0 && evals.length === 0) {
        throw new UsageError(`check needs at least one --skill <dir> or --eval <file>\n\n${USAGE}`);
      }
      return { command: 'check', skills, evals };
    }
    case 'init':
      return parseInitArgs(rest, claudeDefault);
    case 'improve':
      return parseImproveArgs(rest, claudeDefault);
    default:
      throw new UsageError(`unknown command "${command}"\n\n${USAGE}`);
  }
}
