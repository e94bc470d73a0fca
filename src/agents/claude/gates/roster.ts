import type { Environment } from '../../../schemas/report.js';
import { type GateResult, gateResult } from '../../gates.js';
import type { InitInfo } from '../../runs.js';

/** What the roster gate found: the stub-less run's roster, for the report. */
export interface RosterFinding {
  init: InitInfo;
  /** What the user's setup adds, as counts (the adapters' `InheritedEnvironment`). */
  environment: Omit<Environment, 'mcpServers'>;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * The roster gate's rule: a stub-less run's init event was read. Everything the model will see
 * besides the stub is counted (names go into the report only hashed); never a failure by itself.
 */
export function judgeRoster(finding: RosterFinding | undefined, why?: string): GateResult {
  if (!finding) return gateResult('roster', 'skip', why ?? 'no init event from the stub-less run');
  const { init, environment } = finding;
  const distinct = new Set([...init.slashCommands, ...init.skills]).size;
  const memory = environment.memoryFiles.project + environment.memoryFiles.user;
  return gateResult(
    'roster',
    'ok',
    [
      `${plural(init.slashCommands.length, 'slash command')} and ${plural(init.skills.length, 'skill')} (${distinct} names) beside the stub`,
      `model ${init.model ?? 'unknown'}, claude ${init.cliVersion ?? 'unknown'}`,
      `inherited: ${plural(memory, 'memory file')}, ${plural(environment.hooks, 'hook')}, ${plural(init.mcpServers, 'MCP server')}`,
    ].join('; '),
  );
}
