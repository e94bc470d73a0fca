/**
 * Warm standbys (docs/speed.md, "A warm standby"): the agent processes of the next runs, started
 * ahead in their own prepared projects and waiting for their prompts, so an agent's start-up is
 * off the critical path. Nothing here knows which agent runs: the loop hands in how to start a
 * waiting process and how to discard one. Serial towards the model is the caller's part: a
 * standby's prompt is only written once the previous run's process group is gone.
 */

import os from 'node:os';

/** The waiting processes of one loop, keyed by what is fixed at their start (the stub, the model). */
export interface StandbyPool<W> {
  /** The oldest standby waiting for `key`, handed over (the caller discards or uses it), or undefined. */
  take(key: string): Promise<W> | undefined;
  /**
   * Makes sure each of the next runs (their keys, in plan order, nearest first) has a standby,
   * starting at most `size` in all. A standby no upcoming run needs is kept while there is room,
   * and discarded when the room is needed for one that is.
   */
  fill(upcoming: readonly string[]): void;
  /** Takes in a standby started elsewhere for `key` (the first run's, before the gates); it counts against `size`. */
  adopt(key: string, standby: Promise<W>): void;
  /** Discards every standby left (its process group killed, its project removed). Never throws. */
  settle(): Promise<void>;
}

export interface StandbyStarter<W> {
  /** Starts one waiting process for `key`. A failure surfaces when the standby is taken. */
  start(key: string): Promise<W>;
  /** Kills a standby's process group and removes its project; must not throw. */
  discard(standby: W): Promise<void>;
}

/** A pool of at most `size` standbys (0: none is ever started, every `take` is undefined). */
export function standbyPool<W>(size: number, starter: StandbyStarter<W>): StandbyPool<W> {
  const waiting: Array<{ key: string; standby: Promise<W> }> = [];
  const discards = new Set<Promise<void>>();
  const discard = (standby: Promise<W>): void => {
    const done: Promise<void> = standby
      .then(
        (w) => starter.discard(w),
        () => undefined,
      )
      .catch(() => undefined)
      .finally(() => discards.delete(done));
    discards.add(done);
  };
  return {
    take(key) {
      const at = waiting.findIndex((w) => w.key === key);
      if (at < 0) return undefined;
      const [entry] = waiting.splice(at, 1);
      return entry?.standby;
    },
    fill(upcoming) {
      const wanted = new Map<string, number>();
      for (const key of upcoming.slice(0, size)) wanted.set(key, (wanted.get(key) ?? 0) + 1);
      const held = (key: string) => waiting.filter((w) => w.key === key).length;
      for (const key of upcoming.slice(0, size)) {
        if (held(key) >= (wanted.get(key) ?? 0)) continue;
        if (waiting.length >= size) {
          // Room is made from the newest standby whose key has more than the next runs need.
          const spare = waiting.findLastIndex((w) => held(w.key) > (wanted.get(w.key) ?? 0));
          if (spare < 0) return;
          const [entry] = waiting.splice(spare, 1);
          if (entry) discard(entry.standby);
        }
        const standby = starter.start(key);
        standby.catch(() => undefined); // a failure surfaces when the standby is taken
        waiting.push({ key, standby });
      }
    },
    adopt(key, standby) {
      standby.catch(() => undefined); // a failure surfaces when the standby is taken
      waiting.push({ key, standby });
    },
    async settle() {
      for (const entry of waiting.splice(0)) discard(entry.standby);
      await Promise.all([...discards]);
    },
  };
}

/**
 * How long after its `requesting` status claude 2.1.328 sends its request: 35–45 ms measured alone
 * (docs/speed.md, "When a standby starts"). A standby started later than the status by this much
 * starts once the request is out, not while the prompted claude still builds it.
 */
export const REQUEST_OUT_MS = 50;

/**
 * How soon after its request a model must answer for the next standby to be started with the run's
 * prompt rather than once the request is out (docs/speed.md, "When a standby starts"). A claude
 * started beside one that was just prompted slows that run's way to its request (~30–40 ms
 * measured); started once the request is out, it has only the rest of the model's wait to start up
 * in (~300 ms needed here), which a quick answer does not give it. The two costs meet near 300 ms.
 */
export const QUICK_ANSWER_MS = 300;

/**
 * When the next runs' standbys are started during a run: with its prompt (`prompt`), or once its
 * request is out (`asked`), judged by how long the model took over the last run that asked it
 * (from the request going out to the decision). With no such run yet, with the prompt.
 */
export function standbyStartsAt(lastWaitMs: number | undefined): 'prompt' | 'asked' {
  return lastWaitMs !== undefined && lastWaitMs >= QUICK_ANSWER_MS ? 'asked' : 'prompt';
}

/** What one waiting claude holds resident (~210 MB measured with `/usr/bin/time`, docs/speed.md). */
export const STANDBY_MEMORY_BYTES = 210 * 1024 * 1024;

/**
 * The default number of standbys (docs/speed.md, "How many standbys"): one hides the start-up
 * whenever a run lasts longer than a start-up, which a real model's answer does; a second helps
 * only an instantly answering model, and only with cores to spare for two start-ups beside the
 * running claude. Bounded by the memory free for them beside the running claude.
 */
export function defaultStandbyCount(cores: number, freeBytes: number): number {
  const byCores = cores >= 4 ? 2 : 1;
  const byMemory = Math.floor(freeBytes / STANDBY_MEMORY_BYTES) - 1;
  return Math.max(0, Math.min(byCores, byMemory));
}

let machineDefault: number | undefined;

/**
 * This machine's default, decided once a process: the first standby is started before the gates
 * and the loop takes it only if it keeps standbys too, so both must read the same count even when
 * free memory moves in between.
 */
export function machineStandbyCount(): number {
  machineDefault ??= defaultStandbyCount(os.availableParallelism(), os.freemem());
  return machineDefault;
}
