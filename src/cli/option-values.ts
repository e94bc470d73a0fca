/**
 * The checks of single option values that the commands' builders (args.ts) share; each message
 * names the flag and what it accepts.
 */
import path from 'node:path';
import type { AgentId } from '../agents/ids.js';
import { AGENTS } from '../agents/registry.js';
import { UsageError } from '../errors.js';
import { accepted, NUMERIC_SETTINGS, type NumericSettingName, readNumber } from '../numeric-settings.js';
import { DEFAULT_AUTO_MAX } from '../verdict/sequential.js';
import type { CommandName } from './help/commands.js';
import { commandUsage } from './help/help.js';
import type { ParsedOptions } from './parse-options.js';

/** Where reports go without `--out`. */
export const DEFAULT_OUT = './skilltrigger-results';

/**
 * A numeric flag by its rule in numeric-settings.ts (one grammar and one range per setting, shared
 * with the Action's inputs); `fallback` when the flag was not given.
 */
export function numberOption(
  name: NumericSettingName,
  value: string | undefined,
  fallback: number,
  also = '',
): number {
  if (value === undefined) return fallback;
  const n = readNumber(NUMERIC_SETTINGS[name], value);
  if (n === undefined)
    throw new UsageError(`--${name} must be ${accepted(NUMERIC_SETTINGS[name])}${also}; got "${value}"`);
  return n;
}

/** `--standby N`: absent leaves the default to the machine (src/agents/claude/standby.ts). */
export function standbyOption(value: string | undefined): { standby?: number } {
  return value === undefined ? {} : { standby: numberOption('standby', value, 0) };
}

/**
 * `--runs N`, `--runs auto` (at most DEFAULT_AUTO_MAX per query) or `--runs auto:N`: the one reader
 * of `--runs` for every command. `fallback` is what no `--runs` means; `auto: false` for a command
 * that measures a fixed number of runs (matrix).
 */
export function runsOption(
  value: string | undefined,
  { fallback, auto: autoAllowed }: { fallback: number | 'auto'; auto: boolean },
): { runs: number; runsAuto: boolean } {
  const given = value ?? (fallback === 'auto' ? 'auto' : undefined);
  const auto = autoAllowed ? given?.trim().match(/^auto(?::(.*))?$/) : null;
  if (!auto) {
    const also = autoAllowed
      ? `, or auto (stop each query once it is settled, at most ${DEFAULT_AUTO_MAX} runs) or auto:<max>`
      : '';
    return { runs: numberOption('runs', given, fallback === 'auto' ? 2 : fallback, also), runsAuto: false };
  }
  if (auto[1] === undefined) return { runs: DEFAULT_AUTO_MAX, runsAuto: true };
  const max = readNumber(NUMERIC_SETTINGS.autoMax, auto[1]);
  if (max === undefined)
    throw new UsageError(
      `--runs auto:<max> must have a max that is ${accepted(NUMERIC_SETTINGS.autoMax)}; got "${value}"`,
    );
  return { runs: max, runsAuto: true };
}

/** A flag the command cannot do without; `what` follows `--<name>` in the refusal (`<dir> (the folder …)`). */
export function requiredOption(
  parsed: ParsedOptions,
  command: CommandName,
  name: string,
  what: string,
): string {
  const value = parsed.values.get(name);
  if (!value) throw new UsageError(`${command} needs --${name} ${what}\n\n${commandUsage(command)}`);
  return value;
}

export function noPositionals(command: CommandName, positionals: readonly string[]): void {
  if (positionals.length > 0)
    throw new UsageError(
      `${command} takes no arguments; got "${positionals[0]}"\n\n${commandUsage(command)}`,
    );
}

/** `--stub command|skill` (default command). */
export function stubOption(parsed: ParsedOptions): 'command' | 'skill' {
  const stub = parsed.values.get('stub') ?? 'command';
  if (stub !== 'command' && stub !== 'skill')
    throw new UsageError(`--stub must be command or skill; got "${stub}"`);
  return stub;
}

export function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}

export function nonEmptyModel(parsed: ParsedOptions): string | undefined {
  const model = parsed.values.get('model');
  if (model !== undefined && model.trim() === '') throw new UsageError('--model must not be empty');
  return model;
}

/**
 * Each agent's executable: its option (`--codex <path>`), else its variable ($SKILLTRIGGER_CODEX),
 * else its own name on PATH, as the registry names them (src/agents/registry.ts).
 */
export function agentBins(parsed: ParsedOptions, env: NodeJS.ProcessEnv): Record<AgentId, string> {
  const bins = Object.values(AGENTS).map(
    (a) => [a.id, parsed.values.get(a.binOption) ?? (env[a.binVariable] || a.bin)] as const,
  );
  return Object.fromEntries(bins) as Record<AgentId, string>;
}

/** `--cross-negatives` only means something beside `--siblings`. */
export function crossNegativesOf(parsed: ParsedOptions): boolean {
  const on = parsed.switches.has('cross-negatives');
  if (on && (parsed.lists.get('siblings') ?? []).length === 0)
    throw new UsageError(
      "--cross-negatives needs --siblings <dir>: the negatives come from the siblings' eval sets",
    );
  return on;
}

/**
 * `--out` that is the skill folder or inside it: the reports (and the remembered plugin toggles)
 * would sit beside SKILL.md and ship with the skill. A warning, not a refusal: Claude Code reads
 * only SKILL.md and what it points to, so nothing measured changes, and a repository may keep its
 * results beside each skill on purpose.
 */
export function outInSkillWarning(out: string, skillDir: string): string | undefined {
  const from = path.resolve(skillDir);
  const to = path.resolve(out);
  const inside = path.relative(from, to);
  if (inside !== '' && (inside.startsWith('..') || path.isAbsolute(inside))) return undefined;
  return `--out ${out} is ${inside === '' ? 'the skill folder itself' : 'inside the skill folder'} (${skillDir}): the reports will sit beside SKILL.md and ship with the skill. Fix: pass --out a folder outside the skill, such as ./skilltrigger-results (the default)`;
}
