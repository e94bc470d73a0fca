import type { AgentId } from '../agents/ids.js';
import { DEFAULT_AGENT } from '../agents/registry.js';
import type { EarlyStart } from '../agents/runs.js';
import type { LoopSettings, OtherAgent } from '../measure/measure-settings.js';
import { NO_EARLY_START, type RuntimeLookup, startEarly } from '../measure/measurement-loop.js';
import { type FetchedBaseline, judgeFetched } from './baseline.js';
import { type Installs, installedBin } from './install.js';
import { agentsEnv, loopSettingsOf } from './measure-one.js';
import type { MeasureTarget } from './plan.js';
import type { Settings } from './settings.js';
import { currentEnvironment, isPaired } from './skill-baseline.js';

/**
 * The job's first measured run, started before the gates so that its start-up overlaps theirs, as
 * the CLI's `run` does (docs/speed.md, "The first standby, beside the gates"): the first agent's
 * run of the first skill's first side, with the siblings it installs (their emulated texts) and the
 * first run's model, its prompt unwritten. That side is the base one when the skill's baseline, fetched
 * from the cache before the gates, foresees it paired (a paired skill's base side runs first), else
 * the candidate. The gates judge the baseline, and the probe reads the listing, only after: when the
 * loop's first run needs another start (drift only the gates see; the probe read another text), the
 * loop discards it and starts its own. None is started when the first agent is not installed, when
 * it has no early start (its runtime's `startEarly`), among a roster, or with nothing to measure.
 * The caller releases it on every way out; a gate failure or a cancel releases it before anything
 * is measured.
 */
export function startActionStandby(
  targets: readonly MeasureTarget[],
  settings: Settings,
  /** The agents as installed: the early start is the first agent's first run's. */
  installs: Installs,
  foresee: {
    firstBaseline?: FetchedBaseline | undefined;
    /** The loop's standby count (absent: the machine's default, as `measureOne`'s loop takes it; 0: runs go cold). */
    standby?: number;
    /** Tests only: the runtimes the early start is asked of. */
    runtimes?: RuntimeLookup;
  } = {},
): EarlyStart {
  const first = firstLoopSettings(targets, settings, installs, {
    firstBaseline: foresee.firstBaseline,
    cliVersion: installs[DEFAULT_AGENT]?.version,
    ...(foresee.standby === undefined ? {} : { standby: foresee.standby }),
  });
  return first === undefined ? NO_EARLY_START : startEarly(first, foresee.runtimes);
}

/**
 * What the first skill's loop is expected to be made with, before the gates; undefined when no
 * early start is wanted. `firstBaseline` the first skill's baseline as fetched, and `cliVersion`
 * the installed CLI's.
 */
function firstLoopSettings(
  targets: readonly MeasureTarget[],
  settings: Settings,
  installs: Installs,
  foresee: {
    standby?: number;
    firstBaseline?: FetchedBaseline | undefined;
    cliVersion?: string | undefined;
  },
): LoopSettings | undefined {
  const first = targets[0];
  const firstAgent = settings.agents?.[0]?.agent ?? DEFAULT_AGENT;
  if (
    first === undefined ||
    installs[firstAgent] === undefined ||
    // Among a roster each run places a HOME of its own, which a standby's spec does not.
    settings.rosterCrowd !== undefined
  )
    return undefined;
  const { standby, firstBaseline, cliVersion } = foresee;
  const plan =
    firstBaseline === undefined
      ? undefined
      : judgeFetched(
          firstBaseline,
          currentEnvironment(first, settings, cliVersion === undefined ? {} : { cliVersion }),
        );
  const base = isPaired(first, plan) ? first.plan.base : undefined;
  const others = earlyOthers(installs, first);
  return {
    ...loopSettingsOf(first, settings, installedBin(installs, DEFAULT_AGENT), agentsEnv(settings)),
    ...(base === undefined ? {} : { baselineDescription: base.description }),
    ...(standby === undefined ? {} : { standby }),
    ...(Object.keys(others).length === 0 ? {} : { others }),
  };
}

/**
 * Each other installed agent as the early start needs it: its executable and the siblings it lists,
 * as `measureOne` hands them after the gates (its version is the gates' to read, and no part of a start).
 */
function earlyOthers(installs: Installs, target: MeasureTarget): Partial<Record<AgentId, OtherAgent>> {
  const others: Partial<Record<AgentId, OtherAgent>> = {};
  for (const [id, got] of Object.entries(installs) as [AgentId, Installs[AgentId]][]) {
    if (id === DEFAULT_AGENT || got === undefined) continue;
    others[id] = { bin: got.bin, siblings: target.agentSiblings?.[id] ?? [] };
  }
  return others;
}
