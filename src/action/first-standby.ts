import { type EarlyStandby, startEarlyStandby } from '../measure/early-standby.js';
import { firstStandbySpec } from '../measure/measurement-loop.js';
import { realRunDeps } from '../measure/run-once.js';
import type { WaitingSpec } from '../measure/waiting-run.js';
import type { ClaudeInstall } from './install.js';
import { claudeEnv, loopSettingsOf } from './measure-one.js';
import type { MeasureTarget } from './plan.js';
import type { Settings } from './settings.js';

/**
 * The job's first measured claude run, started before the gates so that its start-up overlaps
 * theirs, as the CLI's `run` does (docs/speed.md, "The first standby, beside the gates"): the
 * first skill's candidate side, with the siblings it installs (their emulated texts) and the first
 * run's model, its prompt unwritten. Whether that skill is paired, and what the listing probe
 * reads, is known only after the gates: when the loop's first claude run needs another start (a
 * paired skill's baseline side goes first; the probe read another text), the loop discards it and
 * starts its own. None is started when Claude Code is not installed, when the first agent is
 * Codex (its first run is Codex's), or with nothing to measure. The caller releases it on every
 * way out; a gate failure or a cancel releases it before anything is measured.
 */
export function startActionStandby(
  targets: readonly MeasureTarget[],
  settings: Settings,
  claude: ClaudeInstall | undefined,
): EarlyStandby {
  return startEarlyStandby(actionStandbySpec(targets, settings, claude?.bin), realRunDeps);
}

/**
 * What that claude is started with; undefined when none is started. `standby` is the loop's
 * standby count (absent: the machine's default, as `measureOne`'s loop takes it; 0: runs go cold).
 */
export function actionStandbySpec(
  targets: readonly MeasureTarget[],
  settings: Settings,
  claudeBin: string | undefined,
  standby?: number,
): WaitingSpec | undefined {
  const first = targets[0];
  if (first === undefined || claudeBin === undefined || settings.agents?.[0]?.agent === 'codex')
    return undefined;
  return firstStandbySpec({
    ...loopSettingsOf(first, settings, claudeBin, claudeEnv(settings)),
    ...(standby === undefined ? {} : { standby }),
  });
}
