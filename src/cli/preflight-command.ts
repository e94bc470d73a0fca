import { ExitCode } from '../errors.js';
import { loadSkill } from '../inputs/files.js';
import { runPreflight } from '../preflight/preflight.js';
import { renderGate, renderReminders } from '../preflight/render.js';
import type { PreflightArgs } from './args.js';
import type { CliIo } from './run-command.js';

/** The default of `run --max-retries`: the round-trip sees the API as the runs will. */
const DEFAULT_MAX_RETRIES = 2;

/**
 * `skilltrigger preflight`: the gates alone. The gate lines are this command's result, so they go
 * to stdout; exit 2 when any gate fails.
 */
export async function preflightCommand(
  args: PreflightArgs,
  io: CliIo,
  signal?: AbortSignal,
): Promise<ExitCode> {
  const skill = args.skill === undefined ? undefined : await loadSkill(args.skill);
  const result = await runPreflight({
    agents: args.agents,
    bins: args.bins,
    env: io.env,
    maxRetries: DEFAULT_MAX_RETRIES,
    ...(args.model ? { model: args.model } : {}),
    ...(skill ? { skillName: skill.name } : {}),
    out: args.out,
    allowConflict: args.allowConflict,
    ...(signal ? { signal } : {}),
    onGate: (gate) => io.stdout.write(`${renderGate(gate)}\n`),
  });
  result.release();
  if (result.interrupted) io.stderr.write('skilltrigger: preflight interrupted\n');
  else
    io.stdout.write(result.passed ? 'preflight passed\n' : 'preflight failed: a run would measure nothing\n');
  // Last, so it is what the user reads before doing anything else.
  const reminders = renderReminders(result.reminders);
  if (reminders) io.stdout.write(`\n${reminders}`);
  return result.passed ? ExitCode.verdict : ExitCode.gate;
}
