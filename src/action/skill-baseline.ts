/**
 * The baseline a skill is compared with in the Action: the cached one fetched (or the last stored,
 * on a drift run), judged against this job's environment, or its base side measured here (paired).
 */

import { siblingSet } from '../report/build/sibling-counts.js';
import type { Report } from '../schemas/report.js';
import {
  type BaselinePlan,
  type CurrentEnvironment,
  type FetchedBaseline,
  fetchBaseline,
  fetchDriftBaseline,
  judgeFetched,
} from './baseline.js';
import type { SkillScope } from './changed-skills.js';
import type { RunnerContext } from './context.js';
import type { MeasureTarget } from './plan.js';
import type { ActionGates } from './preflight.js';
import type { Settings } from './settings.js';

/** What fetching a skill's baseline reads of the job. */
interface BaselineContext {
  ctx: RunnerContext;
  settings: Settings;
  scope: SkillScope;
}

/** The sibling set this run measures with, as the report records it; undefined: measured alone. */
function competitionOf(target: MeasureTarget, settings: Settings): Report['siblings'] {
  return target.siblings.length === 0 ? undefined : siblingSet(target.siblings, settings.crossNegatives);
}

/**
 * A PR skill's cached baseline, restored and read (undefined: not a PR). The job's first skill's is
 * fetched before the gates, so that the claude started beside them is the first run's side.
 */
export function fetchBaselineFor(
  target: MeasureTarget,
  m: BaselineContext,
): Promise<FetchedBaseline> | undefined {
  const { plan } = target;
  // A drift run compares every skill with the last baseline stored for it (src/action/drift.ts).
  if (m.settings.mode === 'drift') return fetchDriftBaseline(plan.head, m.ctx.runnerOs);
  if (m.ctx.event.kind !== 'pull_request') return undefined;
  return fetchBaseline({
    mode: m.settings.baseline,
    ...(plan.base ? { base: plan.base } : {}),
    ...(plan.baseProblem ? { baseProblem: plan.baseProblem } : {}),
    baseSha: m.scope.base ?? '',
    runnerOs: m.ctx.runnerOs,
  });
}

/** What this job's environment is, to judge a cached baseline against; the gates' part when they have run. */
export function currentEnvironment(
  target: MeasureTarget,
  settings: Settings,
  gates: Pick<ActionGates, 'cliVersion' | 'rosterInit'>,
): CurrentEnvironment {
  return {
    ...(settings.model === undefined ? {} : { requestedModel: settings.model }),
    ...(gates.cliVersion === undefined ? {} : { cliVersion: gates.cliVersion }),
    ...(gates.rosterInit === undefined ? {} : { rosterInit: gates.rosterInit }),
    siblings: competitionOf(target, settings),
    crowd: settings.rosterCrowd?.sha256 ?? null,
  };
}

/**
 * Which baseline a skill is compared with (undefined: not a PR); planned for every skill before the
 * estimate, from `fetched` when its cache was read already.
 */
export async function baselineFor(
  target: MeasureTarget,
  m: BaselineContext & { gates: Pick<ActionGates, 'cliVersion' | 'rosterInit'> },
  fetched?: FetchedBaseline,
): Promise<BaselinePlan | undefined> {
  const got = fetched ?? (await fetchBaselineFor(target, m));
  return got === undefined ? undefined : judgeFetched(got, currentEnvironment(target, m.settings, m.gates));
}

/** Whether the skill's base side is measured in this job, interleaved with its head (paired). */
export function isPaired(target: MeasureTarget, baseline: BaselinePlan | undefined): boolean {
  return baseline?.use === 'paired' && target.plan.base !== undefined;
}
