/**
 * The first run's claude, started before the gates so that its start-up overlaps them
 * (docs/speed.md, "The first standby, beside the gates"). It is started with what the first run is
 * expected to need; the loop takes it only when its first claude run needs exactly that (the same
 * stub, model, executable and environment), and otherwise it is discarded and the loop starts its
 * own. Like every standby it sends nothing before its prompt, and that is written by the loop,
 * which starts only after every gate's and listing probe's process group is gone.
 */
import { isDeepStrictEqual } from 'node:util';
import {
  discardWaiting,
  startWaiting,
  type WaitingDeps,
  type WaitingRun,
  type WaitingSpec,
} from './waiting-run.js';

export interface EarlyStandby {
  /**
   * Hands the waiting claude over when it was started as `wanted` would start it; otherwise (or
   * with nothing wanted) discards it. Only the first call can hand it over.
   */
  claim(wanted: WaitingSpec | undefined): Promise<WaitingRun> | undefined;
  /**
   * Discards it unless it was handed over (its process group killed, its project removed), and
   * waits for that; every exit of the command calls this. Never throws.
   */
  release(): Promise<void>;
}

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
  let waiting = spec === undefined ? undefined : startWaiting(spec, deps);
  waiting?.catch(() => undefined); // a failure surfaces when the loop takes it, as any standby's
  let discarded: Promise<void> = Promise.resolve();
  const drop = (): void => {
    if (waiting) discarded = waiting.then(discardWaiting, () => undefined);
    waiting = undefined;
  };
  return {
    claim(wanted) {
      if (!waiting || !spec || !wanted || !isDeepStrictEqual(startOf(spec), startOf(wanted))) {
        drop();
        return undefined;
      }
      const handed = waiting;
      waiting = undefined;
      return handed;
    },
    async release() {
      drop();
      await discarded;
    },
  };
}
