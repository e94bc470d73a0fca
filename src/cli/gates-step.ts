import { ExitCode, GateError, SkilltriggerError } from '../errors.js';
import { type PreflightResult, type PreflightSettings, runPreflight } from '../preflight/preflight.js';
import { failureSummary, renderGate, renderReminders } from '../preflight/render.js';
import type { MeasuringFlags } from './measuring-args.js';
import type { CliIo } from './output.js';

/** What the measuring flags tell the gates. */
export type GateFlags = Pick<MeasuringFlags, 'bins' | 'maxRetries' | 'out' | 'allowConflict'>;

/** What only the command tells the gates: its model or models, its skill names, its agents. */
export type CommandGateSettings = Omit<
  PreflightSettings,
  'onGate' | 'bins' | 'env' | 'maxRetries' | 'out' | 'allowConflict' | 'signal'
>;

/**
 * The gates (docs/design.md) before a measuring command (run, improve, matrix) spends a run, while
 * its first run's claude waits (src/agents/claude/early-standby.ts): each gate printed as it is known, the
 * reminders of plugins left disabled, and a refusal when one failed (exit 2) or Ctrl-C came first
 * (exit 3, nothing measured); a refusal releases the waiting claude first. The caller releases the
 * result (the sleep holder) when measuring is over, and prints `reminders` again at its end: it is
 * the last thing the user should read.
 */
export async function passGates(
  flags: GateFlags,
  settings: CommandGateSettings,
  early: { release(): Promise<void> },
  io: CliIo,
  signal: AbortSignal,
): Promise<{ preflight: PreflightResult; reminders: string }> {
  try {
    return await gates(
      {
        ...settings,
        bins: flags.bins,
        env: io.env,
        maxRetries: flags.maxRetries,
        out: flags.out,
        allowConflict: flags.allowConflict,
        signal,
      },
      io,
    );
  } catch (error) {
    await early.release();
    throw error;
  }
}

async function gates(
  settings: Omit<PreflightSettings, 'onGate'>,
  io: CliIo,
): Promise<{ preflight: PreflightResult; reminders: string }> {
  const preflight = await runPreflight({
    ...settings,
    onGate: (gate) => io.stderr.write(`${renderGate(gate)}\n`),
  });
  const reminders = renderReminders(preflight.reminders);
  if (reminders) io.stderr.write(reminders);
  if (preflight.interrupted) {
    preflight.release();
    throw new SkilltriggerError('interrupted during the gates; nothing was measured', ExitCode.noVerdict);
  }
  if (!preflight.passed) {
    preflight.release();
    throw new GateError(failureSummary(preflight.gates));
  }
  return { preflight, reminders };
}
