import type { StubProject, StubSpec } from '../process/stub-project.js';
import type { RunDeps, RunOptions } from './run-once.js';

/**
 * Speed without overlap (docs/speed.md), shared by run's loop and the matrix loop: the next run's temp
 * project is made while the current run runs, and a finished run's folder is removed while the
 * next one starts. Only files overlap: `runOnce` awaits its claude's process group gone before it
 * hands the removal over, so the next claude is never spawned beside a live one.
 */
export interface ProjectPrefetch<K> {
  /** `runOnce`'s options for a run whose stub `key` names: the project made for it, if any, and the deferred removal. */
  optionsFor(key: K): RunOptions;
  /** Starts making the next run's project (`key` names its stub), unless one for `key` is waiting already. */
  prefetch(key: K, stub: StubSpec): void;
  /** Removes the prepared projects no run took, and waits for every deferred removal. Never throws. */
  settle(): Promise<void>;
}

/** One prefetch per loop; `createProject` is the loop's `RunDeps.createProject`. */
export function projectPrefetch<K>(createProject: RunDeps['createProject']): ProjectPrefetch<K> {
  const prefetched = new Map<K, Promise<StubProject>>();
  const removals = new Set<Promise<void>>();
  const deferRemoval = (removal: Promise<void>): void => {
    const tracked = removal.catch(() => undefined).finally(() => removals.delete(tracked));
    removals.add(tracked);
  };
  return {
    optionsFor(key) {
      const project = prefetched.get(key);
      prefetched.delete(key);
      return { ...(project ? { project } : {}), deferRemoval };
    },
    prefetch(key, stub) {
      if (prefetched.has(key)) return;
      const project = createProject(stub);
      project.catch(() => undefined); // a failure surfaces when the project is taken
      prefetched.set(key, project);
    },
    async settle() {
      const unused = [...prefetched.values()];
      prefetched.clear();
      await Promise.all(unused.map((p) => p.then((project) => project.remove()).catch(() => undefined)));
      await Promise.all([...removals]);
    },
  };
}
