/**
 * A plan's first warm run, started before the gates so that its start-up overlaps theirs
 * (docs/speed.md, "The first standby, beside the gates"), whichever agent runs it: each agent hands
 * in how to start one waiting process, how to discard it, and which of a spec's parts fix a start.
 * The loop takes it only when its first run needs that same start; otherwise it is discarded and
 * the loop starts its own. Like every standby it sends nothing before its prompt, which the loop
 * writes only after every gate's process group is gone.
 */

export interface EarlyWaiting<S, W> {
  /**
   * Hands the waiting process over when it was started as `wanted` would start it; otherwise (or
   * with nothing wanted) discards it. Only the first call can hand it over.
   */
  claim(wanted: S | undefined): Promise<W> | undefined;
  /**
   * Discards it unless it was handed over (its process group killed, its project removed), and
   * waits for that; every exit of the command calls this. Never throws.
   */
  release(): Promise<void>;
}

export interface EarlyStarter<S, W> {
  /** Starts the waiting process; a failure surfaces when the loop takes it, as any standby's. */
  start(spec: S): Promise<W>;
  /** Kills its process group and removes its project; must not throw. */
  discard(waiting: W): Promise<void>;
  /** Whether two specs fix the same start (a run's timeout, say, does not). */
  same(a: S, b: S): boolean;
}

/** Starts the waiting process now, when there is a first run to start it for. */
export function startEarlyWaiting<S, W>(
  spec: S | undefined,
  starter: EarlyStarter<S, W>,
): EarlyWaiting<S, W> {
  let waiting = spec === undefined ? undefined : starter.start(spec);
  waiting?.catch(() => undefined); // a failure surfaces when the loop takes it, as any standby's
  let discarded: Promise<void> = Promise.resolve();
  const drop = (): void => {
    if (waiting)
      discarded = waiting.then(
        (w) => starter.discard(w).catch(() => undefined),
        () => undefined,
      );
    waiting = undefined;
  };
  return {
    claim(wanted) {
      if (!waiting || spec === undefined || wanted === undefined || !starter.same(spec, wanted)) {
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
