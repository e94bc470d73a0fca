/**
 * A gate's verdict (SPEC §2.4). Rules produce these as data; `render.ts` turns them into lines,
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
}

export function gateResult(gate: GateName, status: GateStatus, reason: string, fix?: string): GateResult {
  return { gate, status, reason, ...(fix === undefined ? {} : { fix }) };
}

/** First non-empty line of a program's output, trimmed and capped, for quoting in a reason. */
export function firstLine(text: string, max = 160): string {
  const line =
    text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find((l) => l !== '') ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Removes terminal colour codes, which a CLI may add to human-readable output. */
export function stripAnsi(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching the ESC of colour codes is the point
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
}
