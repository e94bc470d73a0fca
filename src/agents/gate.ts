/**
 * A gate's verdict (docs/design.md). Rules produce these as data; `preflight/render.ts` turns them into lines,
 * so the Action can show the same results as annotated log groups.
 */
export const GATE_NAMES = ['cli', 'auth', 'round-trip', 'conflict', 'sleep', 'roster'] as const;
export type GateName = (typeof GATE_NAMES)[number];

/** `fail` refuses the run (exit 2); `warn` measures anyway; `skip` means the gate could not run. */
export type GateStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface GateResult {
  gate: GateName;
  status: GateStatus;
  /** What the gate found, in one sentence. */
  reason: string;
  /** For anything not ok: what to do about it (may span lines; commands stand on their own lines). */
  fix?: string;
  /** The agent a gate checked, when it is not Claude Code (`check --agent codex`; docs/codex.md). */
  agent?: 'codex' | 'gemini';
}

export function gateResult(gate: GateName, status: GateStatus, reason: string, fix?: string): GateResult {
  return { gate, status, reason, ...(fix === undefined ? {} : { fix }) };
}

/** A gate as a message names it: `roster` for Claude Code's, `codex roster` for another agent's. */
export function gateLabel(result: GateResult): string {
  return result.agent ? `${result.agent} ${result.gate}` : result.gate;
}
