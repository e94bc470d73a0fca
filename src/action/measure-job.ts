import * as core from '@actions/core';
import { formatUsd } from '../cost/cost.js';
import type { Prices } from '../cost/prices-file.js';
import { contextCharsOf, loopItemsOf } from '../measure/measurement-loop.js';
import type { BaselinePlan, FetchedBaseline } from './baseline.js';
import { runTurns } from './context-input.js';
import {
  budgetRefusal,
  estimateJob,
  estimateText,
  JobBudget,
  jobShapes,
  stoppedAtBudget,
} from './job-cost.js';
import { type MeasureContext, measureOne } from './measure-one.js';
import { type MeasureTarget, notRun } from './plan.js';
import type { ActionRun } from './results/results.js';
import { baselineFor, isPaired } from './skill-baseline.js';

/**
 * The measure phase of the whole job, after the gates: every skill's baseline planned, the job's
 * cost estimated from the round trips (`max-cost-usd` refuses here, before any measured run), then
 * each skill measured in turn under the budget they share. A budget stop ends the job: the skill it
 * stopped is reported as no verdict (reason `budget`), the ones after it as not measured.
 * Says how the phase ended, so that the routing matrix is not measured past a refusal or a stop.
 */
export async function measureTargets(
  targets: readonly MeasureTarget[],
  m: Omit<MeasureContext, 'budget'> & { prices: Prices; firstBaseline?: FetchedBaseline },
  run: ActionRun,
): Promise<'measured' | 'refused' | 'budget-stopped'> {
  const { firstBaseline, ...context } = m;
  const { signal } = context;
  const baselines: (BaselinePlan | undefined)[] = [];
  for (const [i, target] of targets.entries())
    baselines.push(await baselineFor(target, context, i === 0 ? firstBaseline : undefined));
  const budget = jobBudget(targets, baselines, m, run);
  if (budget === 'refused') return 'refused';

  run.stage = 'measured';
  // The standby started before the gates can serve only the job's first run: the first skill's.
  const { early, ...shared } = context;
  const first = early ? { early } : {};
  let stopped = false;
  let left = 0;
  for (const [i, target] of targets.entries()) {
    if (signal.aborted || stopped) {
      if (stopped) left++;
      run.skills.push(...notRun([target]));
      continue;
    }
    const measured = await core.group(`Measure ${target.plan.head.name} (${target.plan.path})`, () =>
      measureOne(
        target,
        { ...shared, ...(budget ? { budget } : {}), ...(i === 0 ? first : {}) },
        baselines[i],
      ),
    );
    run.skills.push(measured);
    stopped = stoppedAtBudget(measured.report);
  }
  if (stopped && budget) {
    run.notes.push(
      `The job stopped at max-cost-usd ${formatUsd(budget.maxUsd)} with ${formatUsd(budget.spent)} spent, before a run that could pass it${left > 0 ? `; ${left} skill${left === 1 ? ' was' : 's were'} not measured` : ''}.`,
    );
  }
  return stopped ? 'budget-stopped' : 'measured';
}

/**
 * The job's cost estimated from the round trips, each run's context priced with it as the loop
 * will run the queries (docs/cost.md), and said; with `max-cost-usd`, the budget the skills share,
 * or 'refused' (every skill recorded as not measured) when the estimate passes it.
 */
function jobBudget(
  targets: readonly MeasureTarget[],
  baselines: readonly (BaselinePlan | undefined)[],
  m: Pick<MeasureContext, 'settings' | 'gates'> & { prices: Prices },
  run: ActionRun,
): JobBudget | undefined | 'refused' {
  const { settings } = m;
  const turns = runTurns(settings);
  const parts = targets.map((t, i) => {
    const contextChars = contextCharsOf(loopItemsOf(t.evalSet.items, turns, settings.versusFresh).items);
    return { queries: contextChars.length, paired: isPaired(t, baselines[i]), contextChars };
  });
  const estimate = estimateJob(jobShapes(parts, settings), m.gates, m.prices);
  core.info(estimateText(estimate, targets.length));
  if (settings.maxCostUsd === undefined) return undefined;
  run.budget = { maxUsd: settings.maxCostUsd };
  const refused = budgetRefusal(estimate, settings.maxCostUsd);
  if (refused === undefined) return JobBudget.fromEstimate(estimate, settings.maxCostUsd);
  run.budget.refused = refused;
  run.stage = 'input-error';
  run.skills.push(...notRun(targets));
  return 'refused';
}
