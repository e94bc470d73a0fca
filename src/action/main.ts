import path from 'node:path';
import * as core from '@actions/core';
import { AGENT_IDS, type AgentId, type GateResult, measures } from '../agents/agent.js';
import { agentFacts, DEFAULT_AGENT, SECRET_VARIABLES } from '../agents/registry.js';
import { killAllAgentGroups } from '../agents/runtime.js';
import { ExitCode, messageOf, SkilltriggerError } from '../errors.js';
import { registerSecrets } from '../mask.js';
import { annotate, failStep } from './annotate.js';
import { readRunnerContext } from './context.js';
import { beginDrift, refreshBaselines } from './drift.js';
import { startActionStandby } from './first-standby.js';
import { recordForkSkip, skipsFork } from './fork.js';
import { type AgentInstall, installAgent, type RunnerPlatform } from './install.js';
import { loadActionPrices } from './job-cost.js';
import { CompetitionListing, listSiblings } from './listed.js';
import { measureTargets } from './measure-job.js';
import { claudeEnv, fetchBaselineFor, MAX_RETRIES } from './measure-one.js';
import { runMerge } from './merge.js';
import { forkTargetRefusal, forkWithoutSecrets, newRun, notRun, planRun } from './plan.js';
import { runActionGates } from './preflight.js';
import { annotateRegressions, publish } from './publish.js';
import type { Conclusion } from './results/conclusion.js';
import {
  concludeWithMatrix,
  matrixNotRun,
  measureRoutingMatrix,
  planRoutingMatrix,
} from './routing-matrix.js';
import { agentsOf, readSettings, type Settings } from './settings.js';

/**
 * The Action's flow (docs/action.md), one phase per module: settings (settings.ts) → plan: which skills,
 * with which inputs (plan.ts) → install the CLI and run the gates (install.ts, preflight.ts) →
 * each skill measured against its baseline, or saved as one on a push (measure-one.ts) → publish:
 * comment, summary, outputs, annotations (publish.ts); `mode: merge` gathers a matrix's legs
 * (merge.ts). Every failure ends in the one `failStep` (annotate.ts: `core.setFailed`, masked) in `run`, with the exit code kept
 * (1 input, 2 gate, 3 no verdict).
 */
async function runAction(signal: AbortSignal): Promise<Conclusion> {
  const settings = readSettings();
  // Masked before anything can print them, and by skilltrigger's own mask (src/mask.ts), for the
  // comment, the summary and the report files.
  registerSecrets(process.env, SECRET_VARIABLES);
  for (const [id, inputs] of Object.entries(settings.install)) {
    if (inputs.apiKey === undefined) continue;
    core.setSecret(inputs.apiKey);
    const { keyVariable } = agentFacts(id as AgentId);
    registerSecrets({ [keyVariable]: inputs.apiKey }, [keyVariable]);
  }
  if (settings.githubToken !== undefined) core.setSecret(settings.githubToken);
  const ctx = await readRunnerContext();
  if (settings.mode === 'merge') return runMerge(ctx, settings);
  // The price table is an input: a broken `prices` file fails here, before anything is spent.
  const prices = await loadActionPrices(ctx.workspace, settings);
  const run = newRun(ctx, settings);
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
  if (skipsFork(event, settings, process.env)) {
    recordForkSkip(run, targets, matrix);
    return concludeWithMatrix(await publish(run, ctx, settings), run);
  }

  const installed = await installAgents(settings, ctx);
  if (!installed.ok) {
    run.stage = 'gate-failed';
    run.gates = [installed.finding];
    run.skills.push(...notRun(targets));
    run.matrix = matrixNotRun(matrix, `${installed.label} could not be installed`);
    return publish(run, ctx, settings);
  }
  const { installs } = installed;
  const claude = installs[DEFAULT_AGENT];
  // Every other agent's executable, for its gates and its runs (src/agents/runtime.ts).
  const bins: Partial<Record<AgentId, string>> = Object.fromEntries(
    Object.entries(installs).flatMap(([id, got]) => (id === DEFAULT_AGENT || !got ? [] : [[id, got.bin]])),
  );

  // The first skill's cached baseline is read now, to foresee whether its base side runs first.
  const first = targets[0];
  const firstBaseline =
    first === undefined ? undefined : await fetchBaselineFor(first, { ctx, settings, scope });
  // The first measured run's claude starts now, its prompt unwritten, so its start-up overlaps the
  // gates; every way out below releases it (its group killed, its project removed).
  const early = startActionStandby(targets, settings, claude, firstBaseline);
  const gates = await runActionGates({
    claudeBin: claude?.bin ?? 'claude',
    ...(settings.agents ? { agents: settings.agents } : {}),
    bins,
    env: claudeEnv(settings),
    maxRetries: MAX_RETRIES,
    ...(settings.model === undefined ? {} : { model: settings.model }),
    ...(settings.models === undefined ? {} : { models: settings.models }),
    skillNames: [
      ...new Set([
        ...targets.map((t) => t.plan.head.name),
        ...(matrix?.kind === 'ready' ? matrix.entrants.map((e) => e.skill.name) : []),
      ]),
    ],
    out: path.resolve(ctx.workspace, settings.out),
    allowConflict: settings.allowConflict,
    timeoutSeconds: settings.timeoutSeconds,
    ...(claude?.version === undefined ? {} : { expectedVersion: claude.version }),
    forkWithoutSecrets: forkWithoutSecrets(event),
    signal,
  }).catch(async (error: unknown) => {
    await early.release();
    throw error;
  });
  try {
    run.gates = gates.findings;
    if (gates.cliVersion !== undefined) run.cliVersion = gates.cliVersion;
    if (!gates.passed) {
      // Nothing is measured: the waiting claude goes before the comment is posted.
      await early.release();
      run.stage = 'gate-failed';
      run.skills.push(...notRun(targets));
      run.matrix = matrixNotRun(matrix, 'a gate failed');
      const conclusion = await publish(run, ctx, settings);
      return gates.interrupted
        ? { code: ExitCode.noVerdict, message: 'interrupted during the gates; nothing was measured' }
        : conclusion;
    }

    // One listing reader for the job: siblings shared by several skills, and the matrix, are probed once.
    const model = settings.model ?? settings.models?.[0];
    const listing = new CompetitionListing('command', {
      claudeBin: claude?.bin ?? 'claude',
      env: claudeEnv(settings),
      signal,
      ...(model === undefined ? {} : { model }),
    });
    // Codex's siblings were read with the plan; the probe lists claude's where claude runs.
    if (claude && targets.some((t) => t.siblings.length > 0))
      await core.group('List the siblings as Claude Code lists them', () => listSiblings(targets, listing));
    // Every skill's baseline, the job's estimate (max-cost-usd refuses here), then the runs.
    const ended = await measureTargets(
      targets,
      {
        ctx,
        settings,
        scope,
        ...(claude ? { claude } : {}),
        bins,
        gates,
        signal,
        prices,
        early,
        ...(firstBaseline === undefined ? {} : { firstBaseline }),
      },
      run,
    );
    // Taken by the first run, or left over (a refusal, a cancel): the matrix does not wait beside it.
    await early.release();
    if (matrix?.kind === 'ready') {
      run.matrix =
        ended !== 'measured'
          ? matrixNotRun(
              matrix,
              ended === 'refused' ? 'max-cost-usd refused the estimate' : 'the job stopped at max-cost-usd',
            )
          : signal.aborted
            ? matrixNotRun(matrix, 'the job was cancelled first')
            : await core.group('Measure the routing matrix', () =>
                measureRoutingMatrix(matrix, {
                  ctx,
                  settings,
                  ...(claude ? { claude } : {}),
                  bins,
                  gates,
                  listing,
                  signal,
                }),
              );
    }
  } finally {
    await early.release();
    gates.release();
  }
  if (signal.aborted) run.notes.push('The run was cancelled before every skill was measured.');
  // A drift run's baselines are saved only now, once every skill is judged (drift.ts).
  await refreshBaselines(run, ctx, scope.head, signal);
  annotateRegressions(run);
  return concludeWithMatrix(await publish(run, ctx, settings), run);
}

/**
 * The agents' CLIs (install.ts), in the order the agents are named; the first that cannot be had is
 * the cli gate's failure.
 */
/** Each measured agent's executable, by id. */
export type Installs = Partial<Record<AgentId, AgentInstall>>;

async function installAgents(
  settings: Settings,
  ctx: RunnerPlatform,
): Promise<{ ok: true; installs: Installs } | { ok: false; finding: GateResult; label: string }> {
  const installs: Installs = {};
  // Claude Code first, as the gates run: the registry's order, not the input's.
  for (const agent of AGENT_IDS.filter((id) => measures(agentsOf(settings), id))) {
    const facts = agentFacts(agent);
    const got = await core.group(`Install ${facts.label}`, () =>
      installAgent(facts, settings.install[agent], { runnerOs: ctx.runnerOs, arch: ctx.arch }),
    );
    if (!got.ok) {
      const finding = agent === DEFAULT_AGENT ? got.finding : { ...got.finding, agent };
      return { ok: false, finding, label: facts.label };
    }
    installs[agent] = got.install;
  }
  return { ok: true, installs };
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
