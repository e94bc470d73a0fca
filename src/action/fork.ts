import { SECRET_VARIABLES } from '../agents/registry.js';
import { annotate } from './annotate.js';
import { Inputs } from './constants.js';
import type { ActionEvent } from './context.js';
import { forkWithoutSecrets, type MeasureTarget, notRun } from './plan.js';
import type { ActionRun, RoutingMatrix } from './results/results.js';
import type { RoutingMatrixPlan } from './routing-matrix.js';
import { matrixNotRun } from './routing-matrix.js';
import type { Settings } from './settings.js';

/**
 * A fork's pull request without secrets (docs/action.md, "Fork pull requests"): GitHub gives its
 * `pull_request` run no secrets, so no agent can be asked anything. With `on-fork: skip` (the
 * default) such a run is a neutral result rather than a red check: the changed skills are found and
 * their inputs checked as usual (a broken eval set still fails, that needs no secret), then nothing
 * is installed, no gate runs, nothing is spent, and the step passes with a notice.
 */

/** The summary's and the notice's first words, as the docs quote them. */
export const FORK_NOT_MEASURED = 'not measured: this pull request comes from a fork, which gets no secrets';

/** What a maintainer does to measure it all the same. */
export const FORK_HOW_TO_MEASURE =
  'To measure it, a maintainer pushes its head to a branch of this repository and opens a pull request from there (docs/action.md, "Fork pull requests").';

/**
 * Whether any credential reached the step: a key input, or a credential variable of any agent in
 * the step's environment. A private repository may send secrets to forks; such a run is measured.
 */
export function hasCredential(settings: Settings, env: NodeJS.ProcessEnv): boolean {
  if (Object.values(settings.install).some((inputs) => inputs.apiKey !== undefined)) return true;
  return SECRET_VARIABLES.some((name) => (env[name]?.trim() ?? '') !== '');
}

/** This run is a fork's pull request that no credential reached, and `on-fork: skip` ends it neutral. */
export function skipsFork(event: ActionEvent, settings: Settings, env: NodeJS.ProcessEnv): boolean {
  return settings.onFork === 'skip' && forkWithoutSecrets(event) && !hasCredential(settings, env);
}

/**
 * Records the skip in the run (the skills due to be measured as not measured, the matrix as not
 * run, the note the summary shows first) and annotates the notice. An input error found by the
 * plan still ends as one.
 */
export function recordForkSkip(
  run: ActionRun,
  targets: readonly MeasureTarget[],
  matrix: RoutingMatrixPlan | undefined,
): void {
  annotate('notice', `skilltrigger: ${FORK_NOT_MEASURED}. ${FORK_HOW_TO_MEASURE}`, {
    title: 'skilltrigger: fork pull request not measured',
  });
  run.skills.push(...notRun(targets));
  const notMeasured: RoutingMatrix | undefined = matrixNotRun(
    matrix,
    'this pull request comes from a fork, which gets no secrets',
  );
  if (notMeasured !== undefined) run.matrix = notMeasured;
  run.stage = run.skills.some((s) => s.kind === 'invalid') ? 'input-error' : 'ignored';
  run.notes.unshift(
    `${FORK_NOT_MEASURED[0]?.toUpperCase()}${FORK_NOT_MEASURED.slice(1)}. ${FORK_HOW_TO_MEASURE} With ${Inputs.OnFork}: fail such a run fails instead.`,
  );
}
