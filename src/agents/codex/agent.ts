import { noTokens } from '../../outcome.js';
import type { EarlyWaiting } from '../process/early-start.js';
import { contextNumbers, type StandbyPool, standbyPool } from '../process/standby-pool.js';
import type { Agent, AgentRunResult, RunShape, UpcomingRun } from '../runs.js';
import type { CodexProvider } from './launch.js';
import { runCodexMeasurement } from './run.js';
import {
  type CodexStandby,
  type CodexStandbySpec,
  discardCodexStandby,
  startCodexStandby,
} from './standby.js';
import type { CodexStubSpec } from './stub.js';

/** Where every run of a Codex loop starts: its executable, the environment it was handed, its provider. */
export interface CodexLaunchSettings {
  bin: string;
  /** The environment the loop was handed (the CLI's, the Action's): every run's starts from it. */
  env: NodeJS.ProcessEnv;
  provider: CodexProvider;
}

/** What Codex's loop agent is made with beyond where its runs start. */
export interface CodexLoopOptions {
  /** What its version sends without `-m` (`codexDefaultModel`), when known. */
  defaultModel?: string;
  /** How many of the next runs get a Codex started ahead, waiting for its prompt (0: every run cold). */
  standby?: number;
  /** The plan's first Codex run (with standbys), which `early` serves. */
  first?: RunShape;
  /** Its Codex, started before the gates (`startEarly`, runtime.ts): taken when started as `first` needs. */
  early?: EarlyWaiting<CodexStandbySpec, CodexStandby>;
}

/**
 * Codex on the seam: its provider (the user's gateway, or the simulated model) comes from the
 * settings; `stubs` holds each side's skill as its SKILL.md holds it (the stub writer lists it as
 * Codex does). A request's `context` is resumed from a rollout (docs/context.md). A run may be
 * handed a standby started ahead for its side, context and model (docs/codex.md, "A warm standby"),
 * prompted only once the previous run's process group is gone (the loop awaits each run).
 */
export function codexAgent(
  launch: CodexLaunchSettings,
  stubs: readonly CodexStubSpec[],
  options: CodexLoopOptions = {},
): Agent {
  const { bin, env, provider } = launch;
  const standbys = options.standby ?? 0;
  const { pool, keyOf } = codexStandbys(launch, stubs, standbys);
  // The early start serves the first Codex run when it was started as the pool would start it.
  const first = standbys > 0 ? options.first : undefined;
  const early = options.early?.claim(first && codexStandbySpec(launch, stubs, first));
  if (early && first) pool.adopt(keyOf(first), early);
  return {
    id: 'codex',
    run: async (request) => {
      const stub = stubs[request.side];
      if (!stub) throw new Error(`no Codex stub was given for side ${request.side}`);
      const model = request.model ?? provider.model ?? options.defaultModel;
      const standby = pool.take(keyOf(request));
      const result = await runCodexMeasurement({
        bin,
        query: request.query,
        stub,
        provider: providerFor(provider, request.model),
        timeoutMs: request.timeoutMs,
        baseEnv: env,
        ...(request.signal ? { signal: request.signal } : {}),
        ...(request.context ? { context: request.context } : {}),
        ...(standby ? { standby } : {}),
      });
      return agentResult(result, model);
    },
    ...(standbys > 0
      ? {
          ahead(upcoming: readonly UpcomingRun[]) {
            pool.fill(
              upcoming
                .filter((run) => run.agent === 'codex')
                .slice(0, standbys)
                .map(keyOf),
            );
          },
        }
      : {}),
    settle: async () => {
      await Promise.all([pool.settle(), options.early?.release()]);
    },
  };
}

function providerFor(provider: CodexProvider, model: string | undefined): CodexProvider {
  return { ...provider, ...(model ? { model } : {}) };
}

/**
 * What the standby of a Codex run shaped `run` is started with; undefined for a side with no stub.
 * The environment is copied as it is now: two specs compare equal only when their processes start
 * from the same variables (an early start made before the gates, the loop's first run after them).
 */
export function codexStandbySpec(
  launch: CodexLaunchSettings,
  stubs: readonly CodexStubSpec[],
  run: RunShape,
): CodexStandbySpec | undefined {
  const stub = stubs[run.side];
  if (!stub) return undefined;
  return {
    bin: launch.bin,
    stub,
    provider: providerFor(launch.provider, run.model),
    baseEnv: { ...launch.env },
    ...(run.context === undefined ? {} : { context: run.context }),
  };
}

/** The loop's pool of standbys, keyed by the side, context and model a standby is fixed to. */
function codexStandbys(
  launch: CodexLaunchSettings,
  stubs: readonly CodexStubSpec[],
  standbys: number,
): { pool: StandbyPool<CodexStandby>; keyOf: (run: RunShape) => string } {
  const contexts = contextNumbers();
  /** `side/context/model`: a model name may hold a slash itself (a gateway's `vendor/model`), so it comes last. */
  const keyOf = (run: RunShape): string => `${run.side}/${contexts.numberOf(run.context)}/${run.model ?? ''}`;
  const pool = standbyPool<CodexStandby>(standbys, {
    start: (key) => {
      const [side = '', number = ''] = key.split('/', 2);
      const model = key.slice(side.length + number.length + 2);
      const context = contexts.contextOf(number);
      const spec = codexStandbySpec(launch, stubs, {
        side: Number(side),
        ...(model === '' ? {} : { model }),
        ...(context === undefined ? {} : { context }),
      });
      if (!spec) return Promise.reject(new Error(`no Codex stub was given for side ${side}`));
      return startCodexStandby(spec);
    },
    discard: discardCodexStandby,
  });
  return { pool, keyOf };
}

/** A Codex run's result as the seam's, marked with the agent and the model it ran. */
function agentResult(
  result: Awaited<ReturnType<typeof runCodexMeasurement>>,
  model: string | undefined,
): AgentRunResult {
  const { usage } = result;
  const silent = noTokens(usage);
  return {
    outcome: result.outcome,
    ...(result.loaded === undefined ? {} : { loaded: result.loaded }),
    ...(result.listing === undefined ? {} : { listing: result.listing }),
    usage,
    durationMs: result.durationMs,
    agent: 'codex',
    ...(model === undefined ? {} : { model }),
    ...(silent ? { usageUnreported: true as const } : {}),
  };
}
