import path from 'node:path';
import * as core from '@actions/core';
import type { GateResult } from '../agents/gates.js';
import { AGENT_IDS, type AgentId, measures } from '../agents/ids.js';
import { agentFacts, DEFAULT_AGENT } from '../agents/registry.js';
import type { EarlyStart } from '../agents/runs.js';
import type { Prices } from '../cost/prices-file.js';
import { ExitCode } from '../errors.js';
import type { FetchedBaseline } from './baseline.js';
import type { SkillScope } from './changed-skills.js';
import type { RunnerContext } from './context.js';
import { refreshBaselines } from './drift.js';
import { startActionStandby } from './first-standby.js';
import { type Installs, installAgent, installedBin, type RunnerPlatform } from './install.js';
import { CompetitionListing, listSiblings } from './listed.js';
import { measureTargets } from './measure-job.js';
import { agentsEnv, MAX_RETRIES } from './measure-one.js';
import { forkWithoutSecrets, type MeasureTarget, notRun } from './plan.js';
import { type ActionGateOptions, type ActionGates, runActionGates } from './preflight.js';
import { annotateRegressions, publish } from './publish.js';
import type { Conclusion } from './results/conclusion.js';
import type { ActionRun } from './results/results.js';
import {
  concludeWithMatrix,
  matrixNotRun,
  measureRoutingMatrix,
  type RoutingMatrixPlan,
} from './routing-matrix.js';
import { agentsOf, type Settings } from './settings.js';
import { fetchBaselineFor } from './skill-baseline.js';

/*
 * The Action's flow once the plan has something to measure (main.ts): install the agents, run the
 * gates beside the first run's early start, measure every skill, then the routing matrix, publish.
 */

export type { Installs } from './install.js';

/**
 * The agents' CLIs (install.ts), in the order the agents are named; the first that cannot be had is
 * the cli gate's failure.
 */
export async function installAgents(
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

/** What the measuring part of the job works on: the plan, the installs, the prices and the cancel. */
export interface GatedJob {
  ctx: RunnerContext;
  settings: Settings;
  scope: SkillScope;
  targets: MeasureTarget[];
  matrix: RoutingMatrixPlan | undefined;
  installs: Installs;
  prices: Prices;
  signal: AbortSignal;
}

/** Each measured agent by its executable, for its gates (src/agents/runtime.ts). */
function installedBins(installs: Installs): Partial<Record<AgentId, string>> {
  return Object.fromEntries(Object.entries(installs).flatMap(([id, got]) => (got ? [[id, got.bin]] : [])));
}

/** The gates' options: the models, every skill name the conflict gate checks, the expected version. */
function gateOptions(job: GatedJob): ActionGateOptions {
  const { settings, targets, matrix, installs } = job;
  const expected = installs[DEFAULT_AGENT]?.version;
  return {
    ...(settings.agents ? { agents: settings.agents } : {}),
    bins: installedBins(installs),
    env: agentsEnv(settings),
    maxRetries: MAX_RETRIES,
    ...(settings.model === undefined ? {} : { model: settings.model }),
    ...(settings.models === undefined ? {} : { models: settings.models }),
    skillNames: [
      ...new Set([
        ...targets.map((t) => t.plan.head.name),
        ...(matrix?.kind === 'ready' ? matrix.entrants.map((e) => e.skill.name) : []),
      ]),
    ],
    out: path.resolve(job.ctx.workspace, settings.out),
    allowConflict: settings.allowConflict,
    timeoutSeconds: settings.timeoutSeconds,
    ...(expected === undefined ? {} : { expectedVersion: expected }),
    forkWithoutSecrets: forkWithoutSecrets(job.ctx.event),
    signal: job.signal,
  };
}

/**
 * Gates, then every skill measured, then the routing matrix. The first skill's cached baseline is
 * read first, to foresee whether its base side runs first; that run's claude starts before the
 * gates, its prompt unwritten, so its start-up overlaps them; every way out releases it (its group
 * killed, its project removed).
 */
export async function gateAndMeasure(job: GatedJob, run: ActionRun): Promise<Conclusion> {
  const { ctx, settings, scope, targets, signal } = job;
  const { installs } = job;
  const first = targets[0];
  const firstBaseline =
    first === undefined ? undefined : await fetchBaselineFor(first, { ctx, settings, scope });
  const early = startActionStandby(targets, settings, installs, { firstBaseline });
  const gates = await runActionGates(gateOptions(job)).catch(async (error: unknown) => {
    await early.release();
    throw error;
  });
  try {
    run.gates = gates.findings;
    if (gates.cliVersion !== undefined) run.cliVersion = gates.cliVersion;
    if (!gates.passed) {
      // Nothing is measured: the waiting claude goes before the comment is posted.
      await early.release();
      // Awaited here, so the comment is posted before the finally releases the gates.
      return await gatesFailed(job, run, gates);
    }
    await measurePassed(job, run, gates, { early, firstBaseline });
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
 * What follows gates that passed: every skill's baseline, the job's estimate (max-cost-usd refuses
 * here), the runs, then the routing matrix, which does not wait beside a standby left over.
 */
async function measurePassed(
  job: GatedJob,
  run: ActionRun,
  gates: ActionGates,
  first: { early: EarlyStart; firstBaseline: FetchedBaseline | undefined },
): Promise<void> {
  const { ctx, settings, scope, targets, signal, installs } = job;
  const { early, firstBaseline } = first;
  const listing = await jobListing(job);
  const ended = await measureTargets(
    targets,
    {
      ctx,
      settings,
      scope,
      installs,
      gates,
      signal,
      prices: job.prices,
      early,
      ...(firstBaseline === undefined ? {} : { firstBaseline }),
    },
    run,
  );
  // Taken by the first run, or left over (a refusal, a cancel): the matrix does not wait beside it.
  await early.release();
  const matrix = job.matrix;
  if (matrix?.kind === 'ready') {
    run.matrix = await matrixAfterSkills(matrix, ended, signal, () =>
      measureRoutingMatrix(matrix, { ctx, settings, installs, gates, listing, signal }),
    );
  }
}

/**
 * One listing reader for the job: siblings shared by several skills, and the matrix, are probed
 * once. Codex's siblings were read with the plan; the probe lists claude's where claude runs.
 */
async function jobListing(job: GatedJob): Promise<CompetitionListing> {
  const { settings, targets, installs } = job;
  const model = settings.model ?? settings.models?.[0];
  const listing = new CompetitionListing('command', {
    bin: installedBin(installs, DEFAULT_AGENT),
    env: agentsEnv(settings),
    signal: job.signal,
    ...(model === undefined ? {} : { model }),
  });
  if (installs[DEFAULT_AGENT] && targets.some((t) => t.siblings.length > 0))
    await core.group('List the siblings as Claude Code lists them', () => listSiblings(targets, listing));
  return listing;
}

/** A gate failed: nothing is measured, and a cancel during the gates has no verdict. */
async function gatesFailed(job: GatedJob, run: ActionRun, gates: ActionGates): Promise<Conclusion> {
  run.stage = 'gate-failed';
  run.skills.push(...notRun(job.targets));
  run.matrix = matrixNotRun(job.matrix, 'a gate failed');
  const conclusion = await publish(run, job.ctx, job.settings);
  return gates.interrupted
    ? { code: ExitCode.noVerdict, message: 'interrupted during the gates; nothing was measured' }
    : conclusion;
}

/** The routing matrix after the skills: measured, unless the budget or a cancel stopped the job first. */
async function matrixAfterSkills(
  matrix: RoutingMatrixPlan & { kind: 'ready' },
  ended: Awaited<ReturnType<typeof measureTargets>>,
  signal: AbortSignal,
  measure: () => ReturnType<typeof measureRoutingMatrix>,
): Promise<ActionRun['matrix']> {
  if (ended !== 'measured')
    return matrixNotRun(
      matrix,
      ended === 'refused' ? 'max-cost-usd refused the estimate' : 'the job stopped at max-cost-usd',
    );
  if (signal.aborted) return matrixNotRun(matrix, 'the job was cancelled first');
  return core.group('Measure the routing matrix', measure);
}
