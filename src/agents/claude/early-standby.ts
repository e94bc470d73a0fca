/**
 * The first run's claude, started before the gates so that its start-up overlaps them
 * (docs/speed.md, "The first standby, beside the gates"). It is started with what the first run is
 * expected to need; the loop takes it only when its first claude run needs exactly that (the same
 * stub, model, executable and environment), and otherwise it is discarded and the loop starts its
 * own. The hand-over rule is every agent's (src/agents/process/early-start.ts).
 */
import { isDeepStrictEqual } from 'node:util';
import { type EarlyWaiting, startEarlyWaiting } from '../process/early-start.js';
import {
  discardWaiting,
  startWaiting,
  type WaitingDeps,
  type WaitingRun,
  type WaitingSpec,
} from './waiting-run.js';

/** The waiting claude, handed to the loop's first run (`claim`) or discarded (`release`). */
export type EarlyStandby = EarlyWaiting<WaitingSpec, WaitingRun>;

/** What fixes a standby at its spawn; anything else of a run's spec (its timeout) does not. */
function startOf(spec: WaitingSpec): WaitingSpec {
  return {
    stub: spec.stub,
    ...(spec.model === undefined ? {} : { model: spec.model }),
    claudeBin: spec.claudeBin,
    env: spec.env,
    ...(spec.debug ? { debug: true } : {}),
    ...(spec.context === undefined ? {} : { context: spec.context }),
  };
}

/** Starts the waiting claude now, when there is a first run to start it for. */
export function startEarlyStandby(spec: WaitingSpec | undefined, deps: WaitingDeps): EarlyStandby {
  return startEarlyWaiting(spec, {
    start: (s) => startWaiting(s, deps),
    discard: discardWaiting,
    same: (a, b) => isDeepStrictEqual(startOf(a), startOf(b)),
  });
}
