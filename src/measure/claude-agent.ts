/**
 * Claude Code on the agent seam (src/adapters/agent.ts): a run is `runOnce`, sped up without
 * being changed (docs/speed.md). Cold, the next run's project is made while this one runs; with
 * standbys, the next runs' claudes are started ahead, each in its own project, waiting for its
 * prompt. The first run's standby may have been started before the gates (`LoopSpec.early`).
 * Made once per loop; `settle` discards whatever was prepared and not run.
 */
import type { Agent, UpcomingRun } from '../adapters/agent.js';
import type { LoopSpec } from './loop-spec.js';
import { firstClaudeRun, type LoopTargets, standbyCount, waitingSpecFor } from './loop-targets.js';
import { projectPrefetch } from './prefetch.js';
import { type RunDeps, runOnce } from './run-once.js';
import { standbyPool } from './standby.js';
import { discardWaiting, startWaiting, type WaitingRun } from './waiting-run.js';

/** What a standby is fixed to at its spawn: its side's stub and its model. */
const keyOf = (run: { side: number; model?: string }): string => `${run.side}/${run.model ?? ''}`;

/** Claude for one loop over `spec`, whose plan's slots are `shape`'s targets. */
export function claudeAgent(spec: LoopSpec, shape: LoopTargets, deps: RunDeps): Agent {
  const standbys = standbyCount(spec, shape);
  const launch = standbys > 0 ? ('standby' as const) : ('cold' as const);
  const projects = projectPrefetch<number>(deps.createProject);
  const pool = standbyPool<WaitingRun>(standbys, {
    start: (key) => {
      // A model name may hold a slash itself (a gateway's `vendor/model`): the side ends at the first.
      const slash = key.indexOf('/');
      const model = key.slice(slash + 1);
      const stub = spec.sides[Number(key.slice(0, slash))]?.stub;
      if (!stub) return Promise.reject(new Error(`no run planned for ${key}`));
      return startWaiting({ ...spec.run, stub, ...(model === '' ? {} : { model }) }, deps);
    },
    discard: discardWaiting,
  });
  // The early standby serves the first claude run when it was started as the loop would start it.
  const firstRun = launch === 'standby' ? firstClaudeRun(spec, shape) : undefined;
  const firstSpec = firstRun && waitingSpecFor(spec, shape, firstRun);
  const early = spec.early?.claim(firstSpec);
  if (early && firstRun && firstSpec) pool.adopt(keyOf({ side: firstRun.side, ...firstSpec }), early);

  return {
    id: 'claude',
    run(request) {
      const stub = spec.sides[request.side]?.stub;
      if (!stub) return Promise.reject(new Error(`no stub was given for side ${request.side}`));
      const standby = pool.take(keyOf(request));
      return runOnce(
        {
          ...spec.run,
          query: request.query,
          stub,
          ...(request.model === undefined ? {} : { model: request.model }),
          timeoutMs: request.timeoutMs,
          launch,
        },
        request.signal,
        deps,
        { ...projects.optionsFor(request.side), ...(standby ? { standby } : {}) },
      );
    },
    ahead(upcoming: readonly UpcomingRun[]) {
      if (launch === 'standby') {
        pool.fill(
          upcoming
            .filter((run) => run.agent === 'claude')
            .slice(0, standbys)
            .map(keyOf),
        );
        return;
      }
      // Cold: only the very next run's project, and only when that run is claude's.
      const next = upcoming[0];
      const stub = next && spec.sides[next.side]?.stub;
      if (next?.agent === 'claude' && stub) projects.prefetch(next.side, stub);
    },
    async settle() {
      await Promise.all([pool.settle(), projects.settle(), spec.early?.release()]);
    },
  };
}
