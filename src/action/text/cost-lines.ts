import { formatUsd } from '../../cost/cost.js';
import { escapeInline } from '../../escape.js';
import { lateLine } from '../../report/models-text.js';
import type { Measurement } from '../../schemas/report.js';
import type { ActionRun } from '../results/results.js';

/**
 * What the comment and the summary say of `late` and `max-cost-usd` (pure): the late
 * loads beside a skill's totals (the CLI's own `lateLine`, as its Markdown shows it under the
 * headline), the budget in the footer, and the alert when the estimate refused the job.
 */

/** `This PR: 3 of 7 misses loaded the skill later (…)`, one line per side that watched for late loads. */
export function lateLines(sides: readonly { label: string; m: Measurement | undefined }[]): string[] {
  const watched = sides.filter((s) => s.m !== undefined && s.m.totals.late !== undefined);
  return watched.flatMap((s) =>
    lateLine(s.m as Measurement).map((line) => (watched.length > 1 ? `${s.label}: ${line}` : line)),
  );
}

/** ` · max-cost-usd $2.00` for the footer, after the job's cost; empty without a budget. */
export function budgetFooterText(run: ActionRun): string {
  return run.budget === undefined ? '' : ` · max-cost-usd ${formatUsd(run.budget.maxUsd)}`;
}

/** The alert when the estimate passed `max-cost-usd` and nothing was measured (empty otherwise). */
export function budgetRefusalBlock(run: ActionRun): string[] {
  const refused = run.budget?.refused;
  if (refused === undefined) return [];
  return [
    '> [!WARNING]',
    `> **Nothing was measured: the estimate passes max-cost-usd ${formatUsd(run.budget?.maxUsd ?? 0)}.**`,
    `> ${escapeInline(refused)}`,
  ];
}
