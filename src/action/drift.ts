import * as core from '@actions/core';
import { maskSecrets } from '../mask.js';
import { syncMarkedIssue } from '../system/github.js';
import { annotate } from './annotate.js';
import { saveAsBaseline } from './baseline.js';
import { DRIFT_MARKER } from './constants.js';
import type { RunnerContext } from './context.js';
import { cutShort, type DriftFindings, issueIntent, judgeDrift, savesBaseline } from './results/drift.js';
import type { ActionRun, BaselineSave, MeasuredSkill } from './results/results.js';
import type { Settings } from './settings.js';
import { driftClosingBody, driftIssueBody, driftIssueTitle } from './text/drift-issue.js';
import { type GitHubWrite, githubFailureText } from './write-failure.js';

/**
 * The drift watch's steps around the Action's measure flow (`mode: drift`, docs/action.md "Drift
 * watch"): which events it runs on; after every skill is measured against its stored baseline (the
 * newest, read by skill-baseline.ts), the baselines refreshed only when the run allows it; and the one
 * drift issue of the repository opened, updated or closed. What moved is judged in
 * results/drift.ts, the issue's text written in text/drift-issue.ts.
 */

/** The events a drift run measures on: the default branch's schedule, or a run by hand. */
const DRIFT_EVENTS: readonly string[] = ['schedule', 'workflow_dispatch'];

/** Why a `mode: drift` step has nothing to do for this event (undefined: it measures). */
export function driftOffEvent(ctx: RunnerContext): string | undefined {
  const event = ctx.event;
  if (event.kind === 'other' && DRIFT_EVENTS.includes(event.name) && event.onDefaultBranch) return undefined;
  const name = event.kind === 'other' ? event.name : event.kind === 'pull_request' ? event.name : 'push';
  const branch = event.kind === 'pull_request' ? undefined : (event.defaultBranch ?? 'the default branch');
  const where =
    event.kind === 'other' && DRIFT_EVENTS.includes(event.name)
      ? ` on ${ctx.ref ?? 'an unknown ref'}, not ${branch}`
      : '';
  return `mode: drift measures the default branch on a schedule or workflow_dispatch run; nothing to do for this ${name} run${where}`;
}

/**
 * Starts a drift run's record, or ends the run when its event is not one a drift run measures on
 * (a notice, exit 0: a drift step in a workflow that also runs on pull requests skips them).
 * Returns whether the run ends here.
 */
export function beginDrift(run: ActionRun, ctx: RunnerContext, settings: Settings): boolean {
  const off = driftOffEvent(ctx);
  if (off !== undefined) {
    annotate('notice', off);
    run.stage = 'ignored';
    run.notes.push(`Nothing to do: ${off}.`);
    return true;
  }
  run.drift = { accept: settings.acceptDrift };
  return false;
}

/** The tag a drift run's baselines are saved under: its workflow run, so a re-run of it saves none twice. */
function refreshTag(ctx: RunnerContext): string {
  return ctx.runId === undefined ? `drift-${Date.now()}` : `drift-${ctx.runId}-${ctx.runAttempt ?? '1'}`;
}

function withheldWhy(findings: DriftFindings, s: MeasuredSkill): string {
  if (s.report.verdict !== 'ok')
    return 'it has no verdict, and a report that is not a measurement is never a baseline';
  if (cutShort(s)) return 'max-cost-usd stopped its measurement, and a cut-short run is never a baseline';
  return findings.outcome === 'drift'
    ? 'a skill moved in this drift run, and a drift is never adopted silently (accept-drift: true adopts it)'
    : 'a skill could not be judged in this drift run, so the baselines stay as they were';
}

/**
 * After a drift run's measurements: each skill's report saved as its stored baseline where the run
 * allows it (results/drift.ts, `savesBaseline`), under a refresh key of the measured commit; every
 * other skill says why not. A cancelled run saves nothing.
 */
export async function refreshBaselines(
  run: ActionRun,
  ctx: RunnerContext,
  headSha: string,
  signal: AbortSignal,
): Promise<void> {
  if (run.drift === undefined || run.stage !== 'measured') return;
  const findings = judgeDrift(run, run.drift.accept);
  const tag = refreshTag(ctx);
  for (const s of run.skills) {
    if (s.kind !== 'measured') continue;
    let saved: BaselineSave;
    if (signal.aborted)
      saved = { saved: false, why: 'the job was cancelled, and a cut-short run is never a baseline' };
    else if (!savesBaseline(findings, s)) saved = { saved: false, why: withheldWhy(findings, s) };
    else
      saved = await saveAsBaseline({
        report: s.report,
        reportPath: s.reportPath,
        sha: headSha,
        runnerOs: ctx.runnerOs,
        tag,
      });
    s.saved = saved;
    core.info(
      `${s.skill}: ${saved.saved ? `baseline saved: ${saved.key}` : `baseline not saved: ${saved.why}`}`,
    );
  }
}

/** The drift issue, for the words of a failure to keep it. */
const ISSUE_WRITE: GitHubWrite = {
  what: 'issue',
  act: 'write issues',
  needs: 'the drift job needs permissions: issues: write',
};

/**
 * The repository's one drift issue, found by its hidden marker: opened or updated in place while a
 * skill has moved, closed when every skill is back to noise or the drift was accepted. Only a run
 * that measured touches it; a failure to keep it is a warning, never the job's failure.
 */
export async function keepDriftIssue(run: ActionRun, ctx: RunnerContext, settings: Settings): Promise<void> {
  const drift = run.drift;
  if (drift === undefined || run.stage !== 'measured') return;
  if (settings.githubToken === undefined) {
    run.notes.push('No github-token was given, so the drift issue was not kept. The results are here.');
    return;
  }
  const findings = judgeDrift(run, drift.accept);
  const intent = issueIntent(findings);
  // The issue quotes skill names and warnings, text from outside: masked as every output is.
  const kept = await syncMarkedIssue({
    token: settings.githubToken,
    owner: ctx.owner,
    repo: ctx.repo,
    marker: DRIFT_MARKER,
    want:
      intent === 'close'
        ? { state: 'closed', body: maskSecrets(driftClosingBody(run, findings)) }
        : {
            state: 'open',
            title: maskSecrets(driftIssueTitle(findings)),
            body: maskSecrets(driftIssueBody(run, findings)),
            ...(intent === 'update-if-open' ? { onlyIfOpen: true } : {}),
          },
  });
  if (kept.ok) {
    drift.issue = { kind: 'kept', ...kept.value };
    core.info(
      kept.value.action === 'none'
        ? 'drift issue: none open, none needed'
        : `drift issue ${kept.value.action}: ${kept.value.url ?? `#${kept.value.number}`}`,
    );
    return;
  }
  const why = githubFailureText(kept.error, ISSUE_WRITE);
  annotate('warning', `the drift issue could not be kept: ${why}. The results are in the job summary.`);
  drift.issue = { kind: 'failed', why };
}
