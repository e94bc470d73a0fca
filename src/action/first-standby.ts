import type { EarlyStart } from '../agents/agent.js';
import { DEFAULT_AGENT } from '../agents/registry.js';
import type { LoopSettings } from '../measure/measure-settings.js';
import { NO_EARLY_START, type RuntimeLookup, startEarly } from '../measure/measurement-loop.js';
import { type FetchedBaseline, judgeFetched } from './baseline.js';
import type { AgentInstall } from './install.js';
import { agentsEnv, loopSettingsOf } from './measure-one.js';
import type { MeasureTarget } from './plan.js';
import type { Settings } from './settings.js';
import { currentEnvironment, isPaired } from './skill-baseline.js';

/**
 * The job's first measured claude run, started before the gates so that its start-up overlaps
 * theirs, as the CLI's `run` does (docs/speed.md, "The first standby, beside the gates"): the
 * first skill's first side, with the siblings it installs (their emulated texts) and the first
 * run's model, its prompt unwritten. That side is the base one when the skill's baseline, fetched
 * from the cache before the gates, foresees it paired (a paired skill's base side runs first), else
 * the candidate. The gates judge the baseline, and the probe reads the listing, only after: when the
 * loop's first claude run needs another start (drift only the gates see; the probe read another
 * text), the loop discards it and starts its own. None is started when Claude Code is not
 * installed, when the first agent is Codex (its first run is Codex's), among a roster, or with
 * nothing to measure.
 * The caller releases it on every way out; a gate failure or a cancel releases it before anything
 * is measured.
 */
export function startActionStandby(
  targets: readonly MeasureTarget[],
  settings: Settings,
  /** The default agent's install: the early start is its first run's. */
  installed: AgentInstall | undefined,
  foresee: {
    firstBaseline?: FetchedBaseline | undefined;
    /** The loop's standby count (absent: the machine's default, as `measureOne`'s loop takes it; 0: runs go cold). */
    standby?: number;
    /** Tests only: the runtimes the early start is asked of. */
    runtimes?: RuntimeLookup;
  } = {},
): EarlyStart {
  const first = firstLoopSettings(targets, settings, installed?.bin, {
    firstBaseline: foresee.firstBaseline,
    cliVersion: installed?.version,
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
  defaultBin: string | undefined,
  foresee: {
    standby?: number;
    firstBaseline?: FetchedBaseline | undefined;
    cliVersion?: string | undefined;
  },
): LoopSettings | undefined {
  const first = targets[0];
  if (
    first === undefined ||
    defaultBin === undefined ||
    // Among a roster each run places a HOME of its own, which a standby's spec does not.
    settings.rosterCrowd !== undefined ||
    (settings.agents?.[0]?.agent ?? DEFAULT_AGENT) !== DEFAULT_AGENT
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
  return {
    ...loopSettingsOf(first, settings, defaultBin, agentsEnv(settings)),
    ...(base === undefined ? {} : { baselineDescription: base.description }),
    ...(standby === undefined ? {} : { standby }),
  };
}
