import { UsageError } from '../errors.js';
import { closest } from './closest.js';
import { COMMAND_HELP, type CommandName, WORKERS_REFUSAL } from './help/commands.js';
import type { OptionHelp } from './help/options.js';

/**
 * The command line split by a command's options (their help entries, src/cli/help/commands.ts), before any
 * value is checked (option-values.ts) or becomes settings (args.ts).
 *
 * The parser is our own rather than node:util's parseArgs so that every message is the project's:
 * unknown options are errors (`--workers` says why it does not exist), a repeated single-value
 * option is an error rather than "the last one wins", and `--timeout -1` reaches the number check
 * instead of Node's "argument is ambiguous".
 */

/** What the parser found on one command line. */
export interface ParsedOptions {
  /** Single-value options, by name without dashes. */
  values: ReadonlyMap<string, string>;
  /** Repeatable options, every value in order. */
  lists: ReadonlyMap<string, readonly string[]>;
  /** Switches that were given. */
  switches: ReadonlySet<string>;
  positionals: readonly string[];
}

const usageHint = (command: CommandName) => `skilltrigger ${command} --help explains every option`;

function label(o: OptionHelp): string {
  return `--${o.name}${o.value ? ` ${o.value}` : ''}`;
}

/** The placeholders of options whose value names a file, a folder or a program. */
const PATH_VALUES = new Set(['<path>', '<dir>', '<file>', '<leg.json>']);

/**
 * `--claude ''` (an unset shell variable, say) names no path: refused here as a usage error, before
 * it could become a failed gate (an empty command) or the working folder (an empty `--out`).
 */
function refuseEmptyPath(command: CommandName, option: OptionHelp, value: string): void {
  if (option.value === undefined || !PATH_VALUES.has(option.value) || value.trim() !== '') return;
  throw new UsageError(
    `--${option.name}: is empty (an empty string names no ${option.value.replace(/[<>]/g, '')}). Fix: give --${option.name} a ${option.value}, or leave it out where it has a default (${usageHint(command)})`,
  );
}

/** An option the command does not take: the one it most likely meant, else every one it takes. */
function unknownOption(command: CommandName, typed: string, options: readonly OptionHelp[]): UsageError {
  const meant = closest(
    typed.replace(/^-+/, ''),
    options.map((o) => o.name),
  );
  if (meant !== undefined)
    return new UsageError(
      `unknown option ${typed} for ${command}: did you mean --${meant}? (${usageHint(command)})`,
    );
  return new UsageError(
    `unknown option ${typed} for ${command}; it takes ${options.map((o) => `--${o.name}`).join(', ')} (${usageHint(command)})`,
  );
}

/**
 * Splits `argv` by the command's options. `--name value` and `--name=value` both work; a value may
 * start with `-` (`--timeout -1`) unless it is one of the command's own options, which means the
 * value was forgotten.
 */
export function parseOptions(command: CommandName, argv: readonly string[]): ParsedOptions {
  const options = COMMAND_HELP[command].options as readonly OptionHelp[];
  const byName = new Map(options.map((o) => [o.name, o]));
  const values = new Map<string, string>();
  const lists = new Map<string, string[]>();
  const switches = new Set<string>();
  const positionals: string[] = [];
  const isOwnOption = (token: string) => byName.has(token.replace(/^--/, '').split('=')[0] ?? '');
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] ?? '';
    if (token === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!token.startsWith('-') || token === '-') {
      positionals.push(token);
      continue;
    }
    const eq = token.indexOf('=');
    const name = token.startsWith('--') ? token.slice(2, eq === -1 ? undefined : eq) : token;
    const inline = eq === -1 || !token.startsWith('--') ? undefined : token.slice(eq + 1);
    if (name === 'workers') throw new UsageError(WORKERS_REFUSAL);
    const option = byName.get(name);
    if (!option) throw unknownOption(command, token.startsWith('--') ? `--${name}` : token, options);
    if (option.value === undefined) {
      if (inline !== undefined)
        throw new UsageError(`--${name} is a switch and takes no value; got "${token}"`);
      switches.add(name);
      continue;
    }
    let value = inline;
    if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('--') && isOwnOption(next))) {
        throw new UsageError(`--${name} needs a value: ${label(option)}`);
      }
      value = next;
      i++;
    }
    refuseEmptyPath(command, option, value);
    if (option.repeatable) {
      lists.set(name, [...(lists.get(name) ?? []), value]);
      continue;
    }
    const earlier = values.get(name);
    if (earlier !== undefined) {
      throw new UsageError(
        `--${name} was given twice ("${earlier}", then "${value}"); ${command} takes one. Fix: keep one ${label(option)}`,
      );
    }
    values.set(name, value);
  }
  return { values, lists, switches, positionals };
}
