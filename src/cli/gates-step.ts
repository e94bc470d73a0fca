import { ExitCode, GateError, SkilltriggerError } from '../errors.js';
import { type PreflightResult, type PreflightSettings, runPreflight } from '../gates/preflight.js';
import { failureSummary, renderGate, renderReminders } from '../gates/render.js';
import type { CliIo } from './output.js';

/**
 * The gates (docs/design.md) before a command spends a run: each printed as it is known, the reminders
 * of plugins left disabled, and a refusal when one failed (exit 2) or Ctrl-C came first (exit 3,
 * nothing measured). The caller releases the result (the sleep holder) when measuring is over, and
 * prints `reminders` again at its end: it is the last thing the user should read.
 */
export async function passGates(
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
