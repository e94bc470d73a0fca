/**
 * The gates of an agent that runs its own (every agent but Claude Code, whose gates are the
 * preflight's), as they are recorded: each marked with the agent and told as soon as it is known,
 * and the gates not reached skipped with the reason; the round-trip gate's steps, around the run
 * the agent hands in; and the names every agent's conflict gate checks. Pure: the run is a value.
 */
import type { Outcome, Usage } from '../../outcome.js';
import { type GateResult, gateResult } from '../gates.js';

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

/** The names the conflict gate checks: the skill's own and the others measured with it, once each. */
export function gateNames(settings: { skillName?: string; skillNames?: readonly string[] }): string[] {
  return [
    ...new Set([
      ...(settings.skillName === undefined ? [] : [settings.skillName]),
      ...(settings.skillNames ?? []),
    ]),
  ];
}

/** The stub the round trip measures: named for the skill, with a description that stands in. */
export interface RoundTripStub {
  skillName: string;
  description: string;
  root: string;
}

/** One agent's round trip: its run (its measuring adapter with its query), its judge and its interruption. */
export interface RoundTrip {
  /** Runs once against the stub, within the bound; throws an `Aborted` when interrupted. */
  run(stub: RoundTripStub, timeoutMs: number): Promise<{ outcome: Outcome; usage: Usage }>;
  judge(outcome: Outcome, timeoutMs: number): GateResult;
  /** The error the run throws when the signal aborts it. */
  Aborted: abstract new (
    ...args: never[]
  ) => Error;
}

const ROUND_TRIP_TIMEOUT_MS = 60_000;

/**
 * The round-trip gate: skipped without a key (`trip` undefined), else one real run whose usage is
 * kept as the estimate's start; 'aborted' when the run was interrupted.
 */
export async function roundTripGate(
  book: GateBook,
  settings: { skillName?: string; roundTripTimeoutMs?: number; root: string },
  trip: RoundTrip | undefined,
  result: { roundTripUsage?: Usage },
): Promise<'aborted' | undefined> {
  if (trip === undefined) {
    book.record(gateResult('round-trip', 'skip', 'needs a key (see the auth gate)'));
    return undefined;
  }
  const timeoutMs = settings.roundTripTimeoutMs ?? ROUND_TRIP_TIMEOUT_MS;
  try {
    const stub = {
      skillName: settings.skillName ?? 'round-trip',
      description: 'Stands in for the skill under test.',
      root: settings.root,
    };
    const ran = await trip.run(stub, timeoutMs);
    result.roundTripUsage = ran.usage;
    book.record(trip.judge(ran.outcome, timeoutMs));
    return undefined;
  } catch (error) {
    if (error instanceof trip.Aborted) return 'aborted';
    throw error;
  }
}
