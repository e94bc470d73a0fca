import { UsageError } from '../errors.js';
import { DEFAULT_AUTO_MAX } from '../verdict/sequential.js';
import { maxCostOption } from './cost-args.js';

/**
 * The flags of the author's commands, `init` and `improve`, as typed settings. Kept
 * apart from args.ts, which only dispatches here.
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
export interface ImproveArgs {
  command: 'improve';
  skill: string;
  eval: string;
  /** Rewrites to try at most. */
  iterations: number;
  runs: number;
  runsAuto: boolean;
  model?: string;
  /** Per measured run. */
  timeoutSeconds: number;
  /** Per rewrite call. */
  askTimeoutSeconds: number;
  stub: 'command' | 'skill';
  out: string;
  /** Replace the description in SKILL.md with a winner that held on the holdout. */
  write: boolean;
  allowConflict: boolean;
  maxRetries: number;
  threshold: number;
  claude: string;
  debug: boolean;
  /** `--max-cost-usd X`: refuse before anything is measured when the session's estimate passes X. */
  maxCostUsd?: number;
  /** `--prices <file>`: the price table for the estimate. */
  prices?: string;
}

export const INIT_USAGE = `skilltrigger init --skill <dir> [--out <file>] [--count 20] [--model M] [--timeout 180]
  Drafts an eval set (about half should-trigger prompts, half near-misses, ~40% held out per class)
  through your own claude -p. Writes <dir>/evals/evals.json unless --out says otherwise; never overwrites.`;

export const IMPROVE_USAGE = `skilltrigger improve --skill <dir> --eval <file> [--iterations 5] [--runs auto[:max]|N] [--write]
                    [--model M] [--timeout 30] [--out ./skilltrigger-results] [--stub command|skill]
  Asks claude -p for rewrites from the train failures, measures each paired against the incumbent,
  accepts only a significant improvement with no regression, checks the winner on the holdout.
  Without --write, SKILL.md is never touched.`;

const DEFAULT_OUT = './skilltrigger-results';

/** What the command table parsed (src/cli/args.ts), as these builders read it. */
export interface AuthorOptions {
  values: Record<string, string | true | undefined>;
  positionals: readonly string[];
}

function wholeNumber(name: string, value: unknown, fallback: number, min: number, max: number): number {
  if (typeof value !== 'string') return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < min || n > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}; got "${value}"`);
  }
  return n;
}

function positive(name: string, value: unknown, fallback: number, max: number): number {
  if (typeof value !== 'string') return fallback;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0 || n > max) {
    throw new UsageError(`--${name} must be a number above 0 and at most ${max}; got "${value}"`);
  }
  return n;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function modelOption(value: unknown): { model?: string } {
  const model = text(value);
  if (model === undefined) return {};
  if (model.trim() === '') throw new UsageError('--model must not be empty');
  return { model };
}

function noPositionals(command: string, positionals: readonly string[], usage: string): void {
  if (positionals.length > 0)
    throw new UsageError(`${command} takes no arguments; got "${positionals[0]}"\n\n${usage}`);
}

export function initArgs({ values, positionals }: AuthorOptions, claudeDefault: string): InitArgs {
  noPositionals('init', positionals, INIT_USAGE);
  const skill = text(values.skill);
  if (!skill) throw new UsageError(`init needs --skill <dir> (the folder holding SKILL.md)\n\n${INIT_USAGE}`);
  const out = text(values.out);
  return {
    command: 'init',
    skill,
    ...(out === undefined ? {} : { out }),
    count: wholeNumber('count', values.count, 20, 4, 100),
    ...modelOption(values.model),
    timeoutSeconds: positive('timeout', values.timeout, 180, 3600),
    maxRetries: wholeNumber('max-retries', values['max-retries'], 2, 0, 10),
    claude: text(values.claude) ?? claudeDefault,
  };
}

/** `--runs auto` (the default here: a rewrite is judged on as many runs as it takes), `auto:N` or `N`. */
function runsOption(value: unknown): { runs: number; runsAuto: boolean } {
  const raw = text(value) ?? 'auto';
  const auto = raw.trim().match(/^auto(?::(.*))?$/);
  if (!auto) return { runs: wholeNumber('runs', raw, 2, 1, 100), runsAuto: false };
  return { runs: wholeNumber('runs auto:', auto[1], DEFAULT_AUTO_MAX, 2, 100), runsAuto: true };
}

export function improveArgs({ values, positionals }: AuthorOptions, claudeDefault: string): ImproveArgs {
  noPositionals('improve', positionals, IMPROVE_USAGE);
  const skill = text(values.skill);
  const evalFile = text(values.eval);
  if (!skill)
    throw new UsageError(`improve needs --skill <dir> (the folder holding SKILL.md)\n\n${IMPROVE_USAGE}`);
  if (!evalFile)
    throw new UsageError(`improve needs --eval <file> (an eval set with a holdout)\n\n${IMPROVE_USAGE}`);
  const stub = text(values.stub) ?? 'command';
  if (stub !== 'command' && stub !== 'skill')
    throw new UsageError(`--stub must be command or skill; got "${stub}"`);
  const threshold = positive('threshold', values.threshold, 0.5, 0.999);
  return {
    command: 'improve',
    skill,
    eval: evalFile,
    iterations: wholeNumber('iterations', values.iterations, 5, 1, 20),
    ...runsOption(values.runs),
    ...modelOption(values.model),
    timeoutSeconds: positive('timeout', values.timeout, 30, 3600),
    askTimeoutSeconds: positive('ask-timeout', values['ask-timeout'], 180, 3600),
    stub,
    out: text(values.out) ?? DEFAULT_OUT,
    write: values.write === true,
    allowConflict: values['allow-conflict'] === true,
    maxRetries: wholeNumber('max-retries', values['max-retries'], 2, 0, 10),
    threshold,
    claude: text(values.claude) ?? claudeDefault,
    debug: values.debug === true,
    ...maxCostOption(text(values['max-cost-usd'])),
    ...(text(values.prices) === undefined ? {} : { prices: text(values.prices) as string }),
  };
}
