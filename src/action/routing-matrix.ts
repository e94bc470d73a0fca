import path from 'node:path';
import * as core from '@actions/core';
import type { AgentChoice, AgentId } from '../agents/ids.js';
import { agentFacts, DEFAULT_AGENT } from '../agents/registry.js';
import { loopRuntimeOf } from '../agents/runtime.js';
import { ExitCode, InputError, InputErrors } from '../errors.js';
import { loadMatrixEntrants, type MatrixEntrantInput } from '../matrix/entrants.js';
import { writeMatrixReport } from '../matrix/files.js';
import { matrixProgressLine, matrixTextLines, renderMatrixMarkdown } from '../matrix/markdown.js';
import { type MatrixAgent, measureMatrix } from '../matrix/measure.js';
import { shardText } from '../matrix/shard.js';
import { DEFAULT_RULES } from '../verdict/rules.js';
import { TOOL_VERSION } from '../version.js';
import { annotate } from './annotate.js';
import type { SkillScope } from './changed-skills.js';
import type { RunnerContext } from './context.js';
import { type Installs, installedBin } from './install.js';
import type { CompetitionListing } from './listed.js';
import { agentsEnv, MAX_RETRIES } from './measure-one.js';
import { annotateInputErrors } from './plan.js';
import type { ActionGates } from './preflight.js';
import type { Conclusion } from './results/conclusion.js';
import type { ActionRun, RoutingMatrix } from './results/results.js';
import type { Settings } from './settings.js';

/**
 * `routing-matrix: true` (docs/matrix.md): the Action measures the repository's whole routing matrix as
 * `skilltrigger matrix` does — the same discovery (src/matrix/entrants.ts), the same loop
 * (src/matrix/measure.ts), the same report — with `shard: i/n` its deterministic slice of
 * the queries (src/matrix/plan.ts), every skill installed in every leg. The leg's matrix goes into
 * its results file, and `mode: merge` joins the legs (src/action/results/matrix-merge.ts).
 */

/** The matrix this run is to measure: its skills and eval sets, or the input errors that stop it. */
export type RoutingMatrixPlan =
  | { kind: 'ready'; entrants: MatrixEntrantInput[] }
  | { kind: 'invalid'; problems: string[] };

/** The fix for a repository whose skills have no eval set at all. */
const NO_EVAL_FIX =
  'add an eval set beside at least one SKILL.md (evals/evals.json, a JSON array of {"query", "should_trigger"}), point the evals input at them, or set routing-matrix: false';

/** The same defects, with files relative to the checkout (annotations land on files by those). */
function repositoryRelative(root: string, errors: readonly InputError[]): InputErrors {
  return new InputErrors(
    errors.map((e) => {
      const file = path.relative(root, e.location.file).split(path.sep).join('/') || '.';
      const strip = (text: string) => text.split(`${root}${path.sep}`).join('');
      return new InputError(
        { ...e.location, file },
        strip(e.problem),
        e.fix === undefined ? undefined : strip(e.fix),
      );
    }),
  );
}

/**
 * Whether this run measures the matrix, and with what: with the input on, when the run has a skill
 * to measure (decided on the whole scope, before sharding, so every leg of a workflow matrix agrees
 * and the merge finds a leg of the matrix in every results file). Its inputs are validated now,
 * before anything is spent; a defect is annotated and stops the matrix, not the changed skills.
 */
export async function planRoutingMatrix(
  root: string,
  scope: SkillScope,
  settings: Settings,
): Promise<RoutingMatrixPlan | undefined> {
  if (!settings.routingMatrix) return undefined;
  if (!scope.plans.some((p) => p.kind === 'measure')) {
    core.info('routing matrix: no skill to measure in this run, so the matrix is not measured either');
    return undefined;
  }
  return core.group('Read the routing matrix’s skills and eval sets', async () => {
    try {
      const entrants = await loadMatrixEntrants(root, {
        option: 'routing-matrix',
        templates: settings.evals,
        noEvalFix: NO_EVAL_FIX,
        warn: (warning) =>
          core.info(`routing matrix: warning: ${warning.split(`${root}${path.sep}`).join('')}`),
      });
      // On another agent a skill it leaves out of its listing is never chosen: refused like any other defect.
      const listing = loopRuntimeOf(matrixAgentOf(settings).agent).fileListing;
      const unlisted = listing ? entrants.flatMap((e) => listing.unlisted(e.skill) ?? []) : [];
      if (unlisted.length > 0) throw new InputErrors(unlisted);
      const sets = entrants.filter((e) => e.evalSet !== null);
      const queries = sets.reduce((n, e) => n + (e.evalSet?.items.length ?? 0), 0);
      core.info(
        `routing matrix: ${entrants.length} skills installed in every run, ${sets.length} with an eval set (${queries} queries × ${settings.runs} runs = ${queries * settings.runs} runs${settings.shard === undefined ? '' : `, split over ${settings.shard.count} legs`})`,
      );
      for (const e of entrants)
        if (e.evalSet === null)
          core.info(`routing matrix: ${e.skill.name}: no eval set; installed as a competitor only`);
      return { kind: 'ready', entrants };
    } catch (error) {
      const errors =
        error instanceof InputErrors ? error.errors : error instanceof InputError ? [error] : undefined;
      if (errors === undefined) throw error;
      return { kind: 'invalid', problems: annotateInputErrors(repositoryRelative(root, errors)) };
    }
  });
}

/**
 * The agent the matrix runs on, with its model: a matrix holds one agent's runs, so with several
 * agents the first stands for them (said in the log), as the first of `models` does for models.
 */
export function matrixAgentOf(settings: Settings): AgentChoice {
  const first = settings.agents?.[0];
  const model = first?.model ?? settings.model ?? settings.models?.[0];
  return { agent: first?.agent ?? DEFAULT_AGENT, ...(model === undefined ? {} : { model }) };
}

/** What the matrix needs of the job: the installed CLIs, the gates' findings, the shared listing. */
export interface MatrixContext {
  ctx: RunnerContext;
  settings: Settings;
  /** Each measured agent's executable, as installed. */
  installs: Installs;
  gates: ActionGates;
  listing: CompetitionListing;
  signal: AbortSignal;
}

/** Measures this run's matrix (this leg's slice with `shard`) and writes its report beside the others. */
export async function measureRoutingMatrix(
  plan: RoutingMatrixPlan & { kind: 'ready' },
  m: MatrixContext,
): Promise<RoutingMatrix> {
  const { ctx, settings, gates, signal } = m;
  const { agent, model } = matrixAgentOf(settings);
  if (settings.agents !== undefined && settings.agents.length > 1)
    core.info(`routing matrix: measured on ${agent} only, the first of the agents`);
  else if (settings.models !== undefined)
    core.info(`routing matrix: measured with ${model} only, the first of the models`);
  const evalSets = new Map(plan.entrants.map((e) => [e.skill.name, e.evalSet]));
  const entrants = await listedEntrants(plan, m, agent);
  const env = agentsEnv(settings);
  const other = otherMatrixAgent(agent, m);
  const report = await measureMatrix(
    {
      entrants: entrants.map((e) => ({ ...e, evalSet: evalSets.get(e.name) ?? null })),
      ...(settings.shard === undefined ? {} : { shard: settings.shard }),
      runsPerQuery: settings.runs,
      noVerdictShare: DEFAULT_RULES.noVerdictShare,
      timeoutSeconds: settings.timeoutSeconds,
      stub: 'command',
      maxRetries: MAX_RETRIES,
      agent: other ?? { id: DEFAULT_AGENT, bin: installedBin(m.installs, DEFAULT_AGENT) },
      env,
      ...(model === undefined ? {} : { model }),
      conflictAllowed: gates.conflictAllowed,
      simulated: ctx.simulated,
      toolVersion: TOOL_VERSION,
      ...(gates.rosterInit === undefined ? {} : { rosterInit: gates.rosterInit }),
      // The loop's own message names the temp folder: the log says only that it stopped.
      onStopped: () => annotate('warning', 'routing matrix: stopped early: a temp project could not be made'),
    },
    (p) => core.info(matrixProgressLine(p)),
    signal,
  );
  const out = path.resolve(ctx.workspace, settings.out);
  const written = await writeMatrixReport(out, report, renderMatrixMarkdown(report));
  for (const line of matrixTextLines(report)) core.info(`routing matrix: ${line}`);
  core.info(`routing matrix report: ${written.jsonPath}`);
  return { kind: 'measured', report, reportPath: written.jsonPath, markdownPath: written.markdownPath };
}

/**
 * The agent the matrix runs on when it is not the default one: its executable as installed, and
 * its version from its gates.
 */
function otherMatrixAgent(agent: AgentId, m: MatrixContext): MatrixAgent | undefined {
  if (agent === DEFAULT_AGENT) return undefined;
  const bin = m.installs[agent]?.bin;
  if (bin === undefined)
    throw new Error(`the routing matrix on ${agentFacts(agent).label} needs ${agentFacts(agent).bin}`);
  const version = m.gates.agentGates?.[agent]?.version;
  return { id: agent, bin, ...(version === undefined ? {} : { version }) };
}

/**
 * Each skill with the text its stub is written from: on an agent that lists a skill off its SKILL.md
 * (its runtime's `fileListing`), the description it lists (every skill is listed: the plan refused
 * the others); else the listed-text probe's listing (the job's shared probe).
 */
async function listedEntrants(
  plan: RoutingMatrixPlan & { kind: 'ready' },
  m: MatrixContext,
  agent: AgentChoice['agent'],
): Promise<Array<{ name: string; listed: string }>> {
  const fileListing = loopRuntimeOf(agent).fileListing;
  if (fileListing) {
    const { installed } = fileListing.siblings(
      plan.entrants.map((e) => ({ skill: e.skill, file: e.skill.file })),
    );
    const listedOf = new Map(installed.map((s) => [s.skillName, s.description]));
    return plan.entrants.map((e) => ({
      name: e.skill.name,
      listed: listedOf.get(e.skill.name) ?? e.skill.description,
    }));
  }
  const { listed } = await m.listing.list(
    plan.entrants.map((e) => e.skill),
    'the routing matrix',
    { dropUnlisted: false },
  );
  return listed.map(({ skill, text }) => ({ name: skill.name, listed: text }));
}

/** The matrix a run that stopped before it could be measured records. */
export function matrixNotRun(plan: RoutingMatrixPlan | undefined, why: string): RoutingMatrix | undefined {
  if (plan === undefined) return undefined;
  return plan.kind === 'invalid' ? plan : { kind: 'not-run', why };
}

/**
 * The step's conclusion with the matrix's findings added (pure): a matrix without a verdict is no
 * verdict (exit 3, as `skilltrigger matrix`), one refused for its inputs an input error (exit 1);
 * a failed gate keeps its exit 2, and a no-verdict skill its 3.
 */
export function concludeWithMatrix(conclusion: Conclusion, run: ActionRun): Conclusion {
  const matrix = run.matrix;
  if (matrix === undefined || matrix.kind === 'not-run') return conclusion;
  const join = (line: string[]) => [conclusion.message, ...line].filter((l) => l !== undefined).join('\n');
  if (matrix.kind === 'invalid') {
    const n = matrix.problems.length;
    const lines = [
      `input error: ${n} problem${n === 1 ? '' : 's'} in the routing matrix's inputs; the matrix was not measured`,
      ...matrix.problems,
    ];
    const code = conclusion.code === ExitCode.verdict ? ExitCode.input : conclusion.code;
    return { code, message: join(lines) };
  }
  if (matrix.report.verdict === 'no-verdict') {
    const leg = matrix.report.shard === null ? '' : ` (leg ${shardText(matrix.report.shard)})`;
    const lines = [
      `no verdict for the routing matrix${leg}: ${matrix.report.noVerdictReasons.join('; ') || 'too many runs were lost'}`,
    ];
    const code = conclusion.code === ExitCode.gate ? ExitCode.gate : ExitCode.noVerdict;
    return { code, message: join(lines) };
  }
  return conclusion;
}
