/**
 * The gates of an agent that runs its own (every agent but Claude Code, whose gates are the
 * preflight's), as they are recorded: each marked with the agent and told as soon as it is known,
 * and the gates not reached skipped with the reason. Pure.
 */
import { type GateResult, gateResult } from '../agent.js';

/** The five gates of an agent, in order. */
const GATE_ORDER = ['cli', 'auth', 'round-trip', 'conflict', 'roster'] as const;

export interface GateBook {
  /** The gates recorded so far, in order. */
  gates: GateResult[];
  /** Records one gate's result, marked with the agent, and tells it (`onGate`). */
  record(result: GateResult): void;
  /** Whether the gates were interrupted (the signal aborted). */
  interrupted(): boolean;
  /**
   * Skips every gate not recorded yet, as interrupted or with `why` (default "not run"); says
   * whether the gates were interrupted.
   */
  skipRest(why?: string): boolean;
}

export function gateBook(
  agent: string,
  settings: { signal?: AbortSignal; onGate?: (result: GateResult) => void },
): GateBook {
  const gates: GateResult[] = [];
  const interrupted = (): boolean => settings.signal?.aborted === true;
  const record = (result: GateResult): void => {
    const marked: GateResult = { ...result, agent };
    gates.push(marked);
    settings.onGate?.(marked);
  };
  return {
    gates,
    record,
    interrupted,
    skipRest(why) {
      const stopped = interrupted();
      for (const gate of GATE_ORDER)
        if (!gates.some((g) => g.gate === gate))
          record(gateResult(gate, 'skip', stopped ? 'interrupted' : (why ?? 'not run')));
      return stopped;
    },
  };
}

/** The conflict gate's result for several names: the first failure, else the first warning, else the first. */
export function worstGate(results: readonly GateResult[]): GateResult | undefined {
  return results.find((c) => c.status === 'fail') ?? results.find((c) => c.status === 'warn') ?? results[0];
}
