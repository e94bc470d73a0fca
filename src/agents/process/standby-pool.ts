/**
 * Warm standbys (docs/speed.md, "A warm standby"): the agent processes of the next runs, started
 * ahead in their own prepared projects and waiting for their prompts, so an agent's start-up is
 * off the critical path. Nothing here knows which agent runs: each agent hands in how to start a
 * waiting process and how to discard one. Serial towards the model is the caller's part: a
 * standby's prompt is only written once the previous run's process group is gone.
 */

import type { ContextTurn } from '../transcript.js';

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
 * The contexts of one loop by a number each, so a standby's key names the one it placed: the loop
 * hands every run of a query the same array (src/agents/runs.ts), so identity is enough.
 */
export function contextNumbers() {
  const numbers = new Map<readonly ContextTurn[], number>();
  const byNumber: (readonly ContextTurn[])[] = [];
  return {
    numberOf(context: readonly ContextTurn[] | undefined): string {
      if (context === undefined) return '';
      let n = numbers.get(context);
      if (n === undefined) {
        n = byNumber.push(context) - 1;
        numbers.set(context, n);
      }
      return String(n);
    },
    contextOf(number: string): readonly ContextTurn[] | undefined {
      return number === '' ? undefined : byNumber[Number(number)];
    },
  };
}
