/**
 * Claude Code on the agent seam (src/agents/agent.ts): a run is `runOnce`, sped up without
 * being changed (docs/speed.md). Cold, the next run's project is made while this one runs; with
 * standbys, the next runs' claudes are started ahead, each in its own project, waiting for its
 * prompt. The first run's standby may have been started before the gates (`LoopSpec.early`).
 * Made once per loop (run's, or the matrix's); `settle` discards whatever was prepared and not run.
 */

import type { ContextTurn } from '../../inputs/context.js';
import { contextNumbers, type StandbyPool, standbyPool } from '../process/standby-pool.js';
import type { StubSpec } from '../process/stub-project.js';
import type { Agent, AgentRunRequest, AgentRunResult, RunPhases, UpcomingRun } from '../runs.js';
import type { EarlyStandby } from './early-standby.js';
import { projectPrefetch } from './prefetch.js';
import { type RunDeps, type RunSpec, runOnce } from './run-once.js';
import { REQUEST_OUT_MS, standbyStartsAt } from './standby.js';
import { discardWaiting, startWaiting, type WaitingRun, type WaitingSpec } from './waiting-run.js';

/** A run as a standby is fixed to it at its spawn: its side's stub, its model, its context. */
interface StandbyShape {
  side: number;
  model?: string;
  context?: readonly ContextTurn[];
}

/** What claude needs of a loop, whichever loop it is: the stubs by side, the run settings, the standbys. */
export interface ClaudeLoop {
  /** Each side's stub (run: candidate and baseline; the matrix: one per owner of queries). */
  stubs: readonly StubSpec[];
  run: Omit<RunSpec, 'query' | 'stub' | 'timeoutMs'>;
  /** How many standbys to keep (0: every run cold). */
  standby: number;
  /** The first claude run of the plan, which the early standby serves (with standbys). */
  first?: StandbyShape;
  early?: EarlyStandby;
}

/** What the standby of a claude run on `side` with `model` is started with. */
export function waitingSpecOf(
  loop: Pick<ClaudeLoop, 'stubs' | 'run'>,
  run: StandbyShape,
): WaitingSpec | undefined {
  const stub = loop.stubs[run.side];
  if (!stub) return undefined;
  return {
    ...loop.run,
    stub,
    ...(run.model === undefined ? {} : { model: run.model }),
    ...(run.context === undefined ? {} : { context: run.context }),
  };
}

/** Claude for one loop, told its stubs by side (src/matrix/agent.ts builds the matrix's). */
export function claudeLoopAgent(loop: ClaudeLoop, deps: RunDeps): Agent {
  const { stubs, run: runSpec, standby: standbys } = loop;
  const launch = standbys > 0 ? ('standby' as const) : ('cold' as const);
  const projects = projectPrefetch<number>(deps.createProject);
  const { pool, keyOf } = claudeStandbys(loop, deps);
  // The early standby serves the first claude run when it was started as the loop would start it.
  const firstRun = launch === 'standby' ? loop.first : undefined;
  const firstSpec = firstRun && waitingSpecOf(loop, firstRun);
  const early = loop.early?.claim(firstSpec);
  if (early && firstRun && firstSpec) pool.adopt(keyOf({ side: firstRun.side, ...firstSpec }), early);
  const timing = new AheadTiming();

  return {
    id: 'claude',
    run(request) {
      const stub = stubs[request.side];
      if (!stub) return Promise.reject(new Error(`no stub was given for side ${request.side}`));
      const standby = pool.take(keyOf(request));
      timing.begin();
      const spec = runSpecOf(runSpec, stub, request, launch);
      const options = { ...projects.optionsFor(request.side), ...(standby ? { standby } : {}) };
      return timing.track(runOnce(spec, request.signal, deps, { ...options, onAsked: timing.onAsked }));
    },
    ahead(upcoming: readonly UpcomingRun[]) {
      timing.prepare(() => prepareAhead(upcoming));
    },
    async settle() {
      await Promise.all([pool.settle(), projects.settle(), loop.early?.release()]);
    },
  };

  /** Starts the next runs' standbys, or (cold) makes the very next run's project. */
  function prepareAhead(upcoming: readonly UpcomingRun[]): void {
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
    const stub = next && stubs[next.side];
    if (next?.agent === 'claude' && stub) projects.prefetch(next.side, stub);
  }
}

/** One run's spec: the loop's settings with the request's query, stub, model, context and timeout. */
function runSpecOf(
  runSpec: ClaudeLoop['run'],
  stub: StubSpec,
  request: AgentRunRequest,
  launch: 'standby' | 'cold',
): RunSpec {
  return {
    ...runSpec,
    query: request.query,
    stub,
    ...(request.model === undefined ? {} : { model: request.model }),
    ...(request.context === undefined ? {} : { context: request.context }),
    timeoutMs: request.timeoutMs,
    launch,
  };
}

/** The loop's pool of standbys, keyed by the shape a standby is fixed to. */
function claudeStandbys(
  loop: ClaudeLoop,
  deps: RunDeps,
): { pool: StandbyPool<WaitingRun>; keyOf: (run: StandbyShape) => string } {
  const contexts = contextNumbers();
  /** `side/context/model`: a model name may hold a slash itself (a gateway's `vendor/model`), so it comes last. */
  const keyOf = (run: StandbyShape): string =>
    `${run.side}/${contexts.numberOf(run.context)}/${run.model ?? ''}`;
  const pool = standbyPool<WaitingRun>(loop.standby, {
    start: (key) => {
      const [side = '', number = ''] = key.split('/', 2);
      const model = key.slice(side.length + number.length + 2);
      const stub = loop.stubs[Number(side)];
      if (!stub) return Promise.reject(new Error(`no run planned for ${key}`));
      const context = contexts.contextOf(number);
      return startWaiting(
        {
          ...loop.run,
          stub,
          ...(model === '' ? {} : { model }),
          ...(context === undefined ? {} : { context }),
        },
        deps,
      );
    },
    discard: discardWaiting,
  });
  return { pool, keyOf };
}

/**
 * When the next runs are prepared during one of claude's runs (docs/speed.md, "When a standby
 * starts"): how long the model took over the last run, and, while a run's request is not yet
 * out, the preparation held back until it is (the `requesting` status, and REQUEST_OUT_MS more).
 */
class AheadTiming {
  private lastWaitMs: number | undefined;
  private running = false;
  private asked = false;
  private held: (() => void) | undefined;
  private out: NodeJS.Timeout | undefined;

  /** A run begins: nothing is held for it yet. */
  begin(): void {
    this.running = true;
    this.asked = false;
    this.held = undefined;
  }

  /** The run's `requesting` status: its request is out REQUEST_OUT_MS later. */
  readonly onAsked = (): void => {
    this.out = setTimeout(this.requestOut, REQUEST_OUT_MS);
  };

  private readonly requestOut = (): void => {
    this.out = undefined;
    this.asked = true;
    const prepare = this.held;
    this.held = undefined;
    prepare?.();
  };

  /** The run ended; with its phases, how long the model took is kept for the next run's timing. */
  ended(phases?: RunPhases): void {
    if (phases?.asked !== undefined) this.lastWaitMs = phases.decided - phases.asked;
    this.running = false;
    clearTimeout(this.out);
    this.out = undefined;
    this.held = undefined; // a run that ended first: the next run starts its own claude
  }

  /** Notes the run's end, whether it settles or fails. */
  track(run: Promise<AgentRunResult>): Promise<AgentRunResult> {
    return run.then(
      (result) => {
        this.ended(result.phases);
        return result;
      },
      (error: unknown) => {
        this.ended();
        throw error;
      },
    );
  }

  /** Prepares now, or holds the preparation until the running run's request is out. */
  prepare(prepare: () => void): void {
    if (this.running && !this.asked && standbyStartsAt(this.lastWaitMs) === 'asked') this.held = prepare;
    else prepare();
  }
}
