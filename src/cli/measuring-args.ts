/**
 * The flags the measuring commands (run, improve, matrix) read alike: how one run is bounded and
 * launched, where the reports go, and the gates' conflict switch. Each command's builder adds its
 * own flags beside these; every value is checked by option-values.ts.
 */
import type { AgentId } from '../agents/ids.js';
import type { CommandName } from './help/commands.js';
import {
  agentBins,
  DEFAULT_OUT,
  noPositionals,
  numberOption,
  requiredOption,
  standbyOption,
  stubOption,
} from './option-values.js';
import type { ParsedOptions } from './parse-options.js';

export interface MeasuringFlags {
  /** `--timeout`: the wall-clock limit of one measured run, in seconds. */
  timeoutSeconds: number;
  stub: 'command' | 'skill';
  out: string;
  allowConflict: boolean;
  maxRetries: number;
  /** Each agent's executable (`--codex <path>`, else $SKILLTRIGGER_CODEX, else codex on PATH). */
  bins: Record<AgentId, string>;
  debug: boolean;
  /** `--standby N`: runs started ahead (absent: the machine's default). */
  standby?: number;
}

/** The measuring flags from what `parseOptions` found and the environment (each agent's executable). */
export function measuringFlags(parsed: ParsedOptions, env: NodeJS.ProcessEnv): MeasuringFlags {
  const v = parsed.values;
  return {
    timeoutSeconds: numberOption('timeout', v.get('timeout'), 30),
    stub: stubOption(parsed),
    out: v.get('out') ?? DEFAULT_OUT,
    allowConflict: parsed.switches.has('allow-conflict'),
    maxRetries: numberOption('max-retries', v.get('max-retries'), 2),
    bins: agentBins(parsed, env),
    debug: parsed.switches.has('debug'),
    ...standbyOption(v.get('standby')),
  };
}

/** What a command that measures one skill cannot do without: no arguments, and `--skill <dir>`. */
export function skillOnly(parsed: ParsedOptions, command: CommandName): string {
  noPositionals(command, parsed.positionals);
  return requiredOption(parsed, command, 'skill', '<dir> (the folder holding SKILL.md)');
}

/**
 * `improve` needs `--eval <file>` as well (`run` finds the skill's own without it,
 * src/cli/eval-file.ts); `evalSet` says what the set must be.
 */
export function skillAndEvalSet(
  parsed: ParsedOptions,
  command: CommandName,
  evalSet: string,
): { skill: string; eval: string } {
  return {
    skill: skillOnly(parsed, command),
    eval: requiredOption(parsed, command, 'eval', `<file> (${evalSet})`),
  };
}
