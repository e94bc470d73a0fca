import type { GateResult } from '../agents/gates.js';
import { agentFacts, DEFAULT_AGENT } from '../agents/registry.js';
import type { RememberedToggle } from '../schemas/toggles.js';

const STATUS_WIDTH = 4;
const GATE_WIDTH = 10;
/** An agent's gates (`codex round-trip`) line up among themselves; claude's lines are as they were. */
const AGENT_GATE_WIDTH = 16;
/** Fix lines start under the reason. */
const INDENT = ' '.repeat(STATUS_WIDTH + 2);

/** `fail  conflict    <reason>` plus `      fix: …` lines; commands in a fix keep their own lines. */
export function renderGate(result: GateResult): string {
  const lines = [
    `${result.status.padEnd(STATUS_WIDTH)}  ${result.agent ? `${result.agent} ${result.gate}`.padEnd(AGENT_GATE_WIDTH) : result.gate.padEnd(GATE_WIDTH)}  ${result.reason}`,
  ];
  if (result.fix && result.status !== 'ok') {
    const [first, ...rest] = result.fix.split('\n');
    lines.push(`${INDENT}fix: ${first}`, ...rest.map((line) => `${INDENT}     ${line}`));
  }
  return lines.join('\n');
}

/** The re-enable reminders, printed after every preflight and at the end of every run. */
export function renderReminders(toggles: readonly RememberedToggle[]): string {
  if (toggles.length === 0) return '';
  const lines = [
    toggles.length === 1
      ? `reminder: ${toggles[0]?.id} is still disabled for measuring${toggles[0]?.skill ? ` "${toggles[0].skill}"` : ''}; turn it back on when you are done:`
      : `reminder: ${toggles.length} plugins are still disabled for measuring; turn them back on when you are done:`,
    ...toggles.map((t) => `  ${agentFacts(DEFAULT_AGENT).toggleCommands?.(t).enable}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** One line summing up a failed preflight, for the error that exits 2. */
export function failureSummary(gates: readonly GateResult[]): string {
  const failed = gates.filter((g) => g.status === 'fail').map((g) => g.gate);
  return `preflight failed (${failed.join(', ')}); nothing was measured`;
}
