/**
 * The checks of single option values that the commands' builders (args.ts) share; each message
 * names the flag and what it accepts.
 */
import { UsageError } from '../errors.js';
import { MAX_STANDBY } from '../measure/standby.js';
import { DEFAULT_AUTO_MAX } from '../verdict/sequential.js';
import { type CommandName, USAGE } from './help.js';
import type { ParsedOptions } from './parse-options.js';

export function integer(
  name: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
  also = '',
): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}${also}; got "${value}"`);
  }
  return n;
}

export function number(
  name: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= min || n > max) {
    throw new UsageError(`--${name} must be a number above ${min} and at most ${max}; got "${value}"`);
  }
  return n;
}

/** `--standby N`: absent leaves the default to the machine (src/measure/standby.ts). */
export function standbyOption(value: string | undefined): { standby?: number } {
  if (value === undefined) return {};
  return { standby: integer('standby', value, 0, 0, MAX_STANDBY, ' (0: every run starts cold)') };
}

/** `--runs N`, `--runs auto` (at most DEFAULT_AUTO_MAX per query) or `--runs auto:N`. */
export function runsOption(value: string | undefined): { runs: number; runsAuto: boolean } {
  const auto = value?.trim().match(/^auto(?::(.*))?$/);
  if (!auto) {
    const also = `, or auto (stop each query once it is settled, at most ${DEFAULT_AUTO_MAX} runs) or auto:<max>`;
    return { runs: integer('runs', value, 2, 1, 100, also), runsAuto: false };
  }
  const max =
    auto[1] === undefined ? DEFAULT_AUTO_MAX : integer('runs auto:', auto[1], DEFAULT_AUTO_MAX, 2, 100);
  return { runs: max, runsAuto: true };
}

export function noPositionals(command: CommandName, positionals: readonly string[]): void {
  if (positionals.length > 0)
    throw new UsageError(`${command} takes no arguments; got "${positionals[0]}"\n\n${USAGE}`);
}

export function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}

export function nonEmptyModel(parsed: ParsedOptions): string | undefined {
  const model = parsed.values.get('model');
  if (model !== undefined && model.trim() === '') throw new UsageError('--model must not be empty');
  return model;
}

export const claudeOf = (parsed: ParsedOptions, env: NodeJS.ProcessEnv) =>
  parsed.values.get('claude') ?? (env.SKILLTRIGGER_CLAUDE || 'claude');

/** `--cross-negatives` only means something beside `--siblings`. */
export function crossNegativesOf(parsed: ParsedOptions): boolean {
  const on = parsed.switches.has('cross-negatives');
  if (on && (parsed.lists.get('siblings') ?? []).length === 0)
    throw new UsageError(
      "--cross-negatives needs --siblings <dir>: the negatives come from the siblings' eval sets",
    );
  return on;
}
