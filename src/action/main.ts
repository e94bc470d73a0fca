import * as core from '@actions/core';
import type { AgentId } from '../agents/ids.js';
import { agentFacts, SECRET_VARIABLES } from '../agents/registry.js';
import { killAllAgentGroups } from '../agents/runtime.js';
import { ExitCode, messageOf, SkilltriggerError } from '../errors.js';
import { registerSecrets } from '../mask.js';
import { annotate, failStep } from './annotate.js';
import { type RunnerContext, readRunnerContext } from './context.js';
import { versusFreshRefusal, withActionContext } from './context-input.js';
import { beginDrift } from './drift.js';
import { recordForkSkip, skipsFork } from './fork.js';
import { gateAndMeasure, installAgents } from './gated-run.js';
import { loadActionPrices } from './job-cost.js';
import { agentsEnv } from './measure-one.js';
import { withActionMemory } from './memory-input.js';
import { runMerge } from './merge.js';
import { forkTargetRefusal, newRun, notRun, planRun } from './plan.js';
import { publish } from './publish.js';
import type { Conclusion } from './results/conclusion.js';
import type { ActionRun } from './results/results.js';
import { rosterKeyRefusal, withActionRoster } from './roster-input.js';
import { concludeWithMatrix, matrixNotRun, planRoutingMatrix } from './routing-matrix.js';
import { readSettings, type Settings } from './settings.js';

export type { Installs } from './gated-run.js';

/**
 * The Action's flow (docs/action.md), one phase per module: settings (settings.ts) → plan: which skills,
 * with which inputs (plan.ts) → install the CLI and run the gates (install.ts, preflight.ts) →
 * each skill measured against its baseline, or saved as one on a push (measure-one.ts) → publish:
 * comment, summary, outputs, annotations (publish.ts); `mode: merge` gathers a matrix's legs
 * (merge.ts). Every failure ends in the one `failStep` (annotate.ts: `core.setFailed`, masked) in `run`, with the exit code kept
 * (1 input, 2 gate, 3 no verdict). The steps after the plan are gated-run.ts's.
 */
async function runAction(signal: AbortSignal): Promise<Conclusion> {
  const read = readSettings();
  maskSecrets(read);
  const ctx = await readRunnerContext();
  if (read.mode === 'merge') return runMerge(ctx, read);
  // The price table is an input: a broken `prices` file fails here, before anything is spent.
  const prices = await loadActionPrices(ctx.workspace, read);
  // So is the `context` file: read and checked here, its turns kept for every run.
  // And the `roster`: its crowd read from the pull request's checkout, every defect named now.
  const settings = await withActionMemory(
    ctx.workspace,
    await withActionRoster(ctx.workspace, await withActionContext(ctx.workspace, read)),
  );
  const run = newRun(ctx, settings);
  const ended = await endBeforePlan(run, ctx, settings);
  if (ended !== undefined) return ended;

  const { root, scope, targets } = await planRun(ctx, settings, run);
  // routing-matrix: the repository's whole matrix, validated now, measured after the changed skills.
  const matrix = await planRoutingMatrix(root, scope, settings);
  if (matrix?.kind === 'invalid') run.matrix = matrix;
  if (targets.length === 0 && matrix?.kind !== 'ready') {
    // Nothing left to measure: broken inputs alone are an input error, else there was nothing to do.
    run.stage = run.skills.some((s) => s.kind === 'invalid') ? 'input-error' : 'nothing';
    if (scope.plans.length === 0)
      run.notes.push('No SKILL.md matching the skills input changed: nothing to measure.');
    return concludeWithMatrix(await publish(run, ctx, settings), run);
  }
  // A fork's pull request that no secret reached: neutral, before anything is installed (fork.ts).
  if (skipsFork(ctx.event, settings, process.env)) {
    recordForkSkip(run, targets, matrix);
    return concludeWithMatrix(await publish(run, ctx, settings), run);
  }

  // versus-fresh with no context anywhere, and a roster with no key for Claude Code's own HOMEs,
  // are refused before anything is installed or spent.
  const noSession = versusFreshRefusal(targets, settings) ?? rosterKeyRefusal(settings, agentsEnv(settings));
  if (noSession !== undefined) {
    run.stage = 'input-error';
    run.notes.push(noSession.message);
    run.skills.push(...notRun(targets));
    await publish(run, ctx, settings);
    return { code: ExitCode.input, message: noSession.message };
  }

  const installed = await installAgents(settings, ctx);
  if (!installed.ok) {
    run.stage = 'gate-failed';
    run.gates = [installed.finding];
    run.skills.push(...notRun(targets));
    run.matrix = matrixNotRun(matrix, `${installed.label} could not be installed`);
    return publish(run, ctx, settings);
  }
  return gateAndMeasure(
    { ctx, settings, scope, targets, matrix, installs: installed.installs, prices, signal },
    run,
  );
}

/**
 * Masked before anything can print them, and by skilltrigger's own mask (src/mask.ts), for the
 * comment, the summary and the report files.
 */
function maskSecrets(settings: Settings): void {
  registerSecrets(process.env, SECRET_VARIABLES);
  for (const [id, inputs] of Object.entries(settings.install)) {
    if (inputs.apiKey === undefined) continue;
    core.setSecret(inputs.apiKey);
    const { keyVariable } = agentFacts(id as AgentId);
    registerSecrets({ [keyVariable]: inputs.apiKey }, [keyVariable]);
  }
  if (settings.githubToken !== undefined) core.setSecret(settings.githubToken);
}

/**
 * The runs that end before any skill is planned: a fork's pull_request_target not allowed (exit 1),
 * a drift run off its schedule, and an event other than a pull request or a push to the default
 * branch. Undefined: the job goes on.
 */
async function endBeforePlan(
  run: ActionRun,
  ctx: RunnerContext,
  settings: Settings,
): Promise<Conclusion | undefined> {
  const event = ctx.event;
  const message = forkTargetRefusal(event, settings.allowPullRequestTarget);
  if (message !== undefined) {
    run.stage = 'ignored';
    run.notes.push(message);
    await publish(run, ctx, settings);
    return { code: ExitCode.input, message };
  }

  // mode: drift measures on the default branch's schedule and dispatch runs only (drift.ts).
  if (settings.mode === 'drift' && beginDrift(run, ctx, settings)) return publish(run, ctx, settings);

  if ((event.kind === 'push' || event.kind === 'other') && !event.onDefaultBranch) {
    const branch = event.defaultBranch ?? 'the default branch';
    annotate(
      'notice',
      `skilltrigger measures pull requests, and pushes to ${branch} (which save the baselines); nothing to do for this ${run.eventName} run on ${ctx.ref ?? 'an unknown ref'}`,
    );
    run.stage = 'ignored';
    run.notes.push(`Nothing to do: this ${run.eventName} run is not a pull request or a push to ${branch}.`);
    return publish(run, ctx, settings);
  }
  return undefined;
}

/** The Action's entry: runs the flow and turns its conclusion (or a thrown error) into the exit. */
export async function run(): Promise<void> {
  const controller = new AbortController();
  // The runner cancels a job with SIGINT, then SIGTERM: stop the current run cleanly and report.
  // A second signal kills every agent's process group at once (a run or a gate's command that
  // ignores the first cannot outlive the job); each run still removes its own files.
  // `on`, not `once`: a once-listener is removed before it runs, and execa's signal-exit handler,
  // seeing no other listener left, then re-raises the signal and kills the process mid-cleanup.
  let cancels = 0;
  const cancel = () => {
    cancels++;
    controller.abort();
    if (cancels > 1) killAllAgentGroups();
  };
  process.on('SIGINT', cancel);
  process.on('SIGTERM', cancel);
  let conclusion: Conclusion;
  try {
    conclusion = await runAction(controller.signal);
  } catch (error) {
    const message = messageOf(error);
    const code = error instanceof SkilltriggerError ? error.exitCode : ExitCode.input;
    if (!(error instanceof SkilltriggerError) && error instanceof Error && error.stack)
      core.debug(error.stack);
    conclusion = { code, message };
  } finally {
    process.off('SIGINT', cancel);
    process.off('SIGTERM', cancel);
  }
  if (conclusion.message !== undefined) failStep(conclusion.message);
  // setFailed sets 1; the distinct codes (2 gate, 3 no verdict) are kept by assigning after it.
  process.exitCode = conclusion.code;
}
