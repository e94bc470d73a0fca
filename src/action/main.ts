import path from 'node:path';
import * as core from '@actions/core';
import { repositoryRoot } from '../adapters/git.js';
import { type GitHubFailure, upsertStickyComment } from '../adapters/github.js';
import { writeReport } from '../adapters/report-files.js';
import { compareReport, compareReports } from '../compare/compare.js';
import { ExitCode, InputErrors, SkilltriggerError } from '../errors.js';
import { registerSecrets } from '../mask.js';
import type { RunProgress } from '../measure/loop.js';
import { describeOutcome } from '../measure/loop.js';
import { measureSkill } from '../measure/measure-skill.js';
import { renderMarkdown, headline as reportHeadline } from '../report/markdown.js';
import type { Report } from '../report/schema.js';
import { DEFAULT_RULES } from '../verdict/rules.js';
import { TOOL_VERSION } from '../version.js';
import { type BaselinePlan, planBaseline, saveAsBaseline } from './baseline.js';
import { planSkills, type SkillPlan, type SkillScope } from './changed-skills.js';
import { renderComment } from './comment.js';
import { type Conclusion, conclude } from './conclusion.js';
import { COMMENT_MARKER, Inputs, Outputs } from './constants.js';
import { type RunnerContext, readRunnerContext } from './context.js';
import { loadSkillEvalSet } from './eval-discovery.js';
import { type GateResults, runGates } from './gates.js';
import { type ClaudeInstall, installClaude } from './install.js';
import {
  type ActionRun,
  type MeasuredSkill,
  regressions,
  type SkillResult,
  verdictsOutput,
} from './results.js';
import {
  coverageProblems,
  mergeShards,
  readResultsFiles,
  toResultsFile,
  writeResultsFile,
} from './results-file.js';
import { readSettings, type Settings } from './settings.js';
import { type Shard, shardPlans, shardText } from './shard.js';
import { renderSummary } from './summary.js';

/**
 * The Action's flow (SPEC §3): settings → which skills changed → their inputs → the CLI → the gates
 * → each skill measured and compared with its baseline (or saved as the baseline on a push) → PR
 * comment, job summary, outputs → the exit code. Every failure ends in the one `core.setFailed`
 * in `run`, with the exit code kept (2 gate, 3 no verdict).
 */

/** Retries per run for API failures, as the CLI's default: failures surface inside the per-run timeout. */
const MAX_RETRIES = 2;

/**
 * Variables never passed to `claude`: the model's tools run with this environment, and neither the
 * GitHub token (the runner puts every input in `INPUT_*`) nor the runner's cache token belong there.
 */
const WITHHELD_FROM_CLAUDE = [/^INPUT_/, /^ACTIONS_(RUNTIME_TOKEN|ID_TOKEN_REQUEST_)/, /^GITHUB_TOKEN$/];

function claudeEnv(settings: Settings): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!WITHHELD_FROM_CLAUDE.some((pattern) => pattern.test(key))) env[key] = value;
  }
  if (settings.anthropicApiKey !== undefined) env.ANTHROPIC_API_KEY = settings.anthropicApiKey;
  return env;
}

function progressLine(p: RunProgress, queries: number, runs: number, paired: boolean): string {
  return [
    `query ${p.itemIndex + 1}/${queries}`,
    `run ${p.pass + 1}/${runs}`,
    ...(paired ? [p.label === 'candidate' ? 'this PR' : 'baseline'] : []),
    describeOutcome(p.result.outcome),
  ].join(' · ');
}

function annotateInputErrors(errors: InputErrors): string[] {
  return errors.errors.map((e) => {
    core.error(`${e.problem}${e.fix ? `. Fix: ${e.fix}` : ''}`, {
      title: 'skilltrigger: input error',
      file: e.location.file,
      ...(e.location.line === undefined ? {} : { startLine: e.location.line }),
    });
    return e.message;
  });
}

function newRun(ctx: RunnerContext, settings: Settings): ActionRun {
  const event = ctx.event;
  return {
    event: event.kind,
    eventName: event.kind === 'other' ? event.name : event.kind === 'pull_request' ? event.name : 'push',
    ...(event.kind === 'pull_request' ? { prNumber: event.number, baseSha: event.baseSha } : {}),
    fromFork: event.kind === 'pull_request' && event.fromFork,
    stage: 'nothing',
    skills: [],
    gates: [],
    notes: [],
    settings: {
      runs: settings.runs,
      ...(settings.model === undefined ? {} : { model: settings.model }),
      baseline: settings.baseline,
      failOnRegression: settings.failOnRegression,
    },
  };
}

interface MeasureTarget {
  plan: SkillPlan & { kind: 'measure' };
  evalSet: Awaited<ReturnType<typeof loadSkillEvalSet>>['evalSet'];
}

/** Every measured skill's inputs are loaded before anything is spent; defects become annotations. */
async function loadInputs(
  root: string,
  scope: SkillScope,
  settings: Settings,
): Promise<{ targets: MeasureTarget[]; results: SkillResult[] }> {
  const targets: MeasureTarget[] = [];
  const results: SkillResult[] = [];
  for (const plan of scope.plans) {
    switch (plan.kind) {
      case 'skip':
        core.info(`${plan.path}: not measured (${plan.reason})`);
        results.push({
          kind: 'skipped',
          file: plan.path,
          change: plan.change,
          ...(plan.previousPath === undefined ? {} : { previousPath: plan.previousPath }),
          reason: plan.reason,
          ...(plan.skill === undefined ? {} : { skill: plan.skill }),
        });
        break;
      case 'invalid':
        results.push({ kind: 'invalid', file: plan.path, problems: annotateInputErrors(plan.errors) });
        break;
      case 'measure': {
        for (const warning of plan.head.warnings) {
          core.warning(warning, {
            title: 'skilltrigger',
            file: plan.path,
            startLine: plan.head.descriptionLine,
          });
        }
        try {
          const { evalSet, file } = await loadSkillEvalSet(root, plan.path, plan.head, settings.evals);
          core.info(
            `${plan.path}: measuring ${plan.head.name} with ${file} (${evalSet.items.length} queries)`,
          );
          targets.push({ plan, evalSet });
        } catch (error) {
          if (!(error instanceof InputErrors)) throw error;
          results.push({
            kind: 'invalid',
            file: plan.path,
            skill: plan.head.name,
            problems: annotateInputErrors(error),
          });
        }
        break;
      }
    }
  }
  return { targets, results };
}

async function measureOne(
  target: MeasureTarget,
  ctx: RunnerContext,
  settings: Settings,
  scope: SkillScope,
  claude: ClaudeInstall,
  gates: GateResults,
  signal: AbortSignal,
): Promise<MeasuredSkill> {
  const { plan, evalSet } = target;
  const skill = plan.head;
  const onPr = ctx.event.kind === 'pull_request';
  let baseline: BaselinePlan | undefined;
  if (onPr) {
    baseline = await planBaseline({
      mode: settings.baseline,
      ...(plan.base ? { base: plan.base } : {}),
      ...(plan.baseProblem ? { baseProblem: plan.baseProblem } : {}),
      baseSha: scope.base ?? '',
      runnerOs: ctx.runnerOs,
      current: {
        ...(settings.model === undefined ? {} : { requestedModel: settings.model }),
        ...(gates.cliVersion === undefined ? {} : { cliVersion: gates.cliVersion }),
        ...(gates.rosterInit === undefined ? {} : { rosterInit: gates.rosterInit }),
      },
    });
    core.info(`baseline: ${baseline.use}${'why' in baseline.baseline ? ` (${baseline.baseline.why})` : ''}`);
  }
  const paired = baseline?.use === 'paired' && plan.base !== undefined;
  const queries = evalSet.items.length;
  const report: Report = await measureSkill(
    {
      skill,
      evalSet,
      description: skill.description,
      overridden: false,
      ...(paired && plan.base ? { baselineDescription: plan.base.description } : {}),
      ...(settings.model === undefined ? {} : { model: settings.model }),
      rules: { ...DEFAULT_RULES, runsPerQuery: settings.runs },
      timeoutSeconds: settings.timeoutSeconds,
      stub: 'command',
      maxRetries: MAX_RETRIES,
      claudeBin: claude.bin,
      env: claudeEnv(settings),
      conflictAllowed: settings.allowConflict,
      simulated: ctx.simulated,
      toolVersion: TOOL_VERSION,
      ...(gates.rosterInit === undefined ? {} : { rosterInit: gates.rosterInit }),
    },
    (p) => core.info(progressLine(p, queries, settings.runs, paired)),
    signal,
  );
  const out = path.resolve(ctx.workspace, settings.out);
  const written = await writeReport(out, report, renderMarkdown(report));
  if (report.baseline) core.info(`baseline: ${reportHeadline(report.baseline)}`);
  core.info(`${report.baseline ? 'this PR:  ' : ''}${reportHeadline(report.candidate)}`);
  core.info(`report: ${written.jsonPath}`);

  const names = { base: 'baseline', cand: 'this PR' };
  const result: MeasuredSkill = {
    kind: 'measured',
    skill: skill.name,
    file: plan.path,
    descriptionLine: skill.descriptionLine,
    change: plan.change,
    ...(plan.previousPath === undefined ? {} : { previousPath: plan.previousPath }),
    report,
    reportPath: written.jsonPath,
    markdownPath: written.markdownPath,
    warnings: [...skill.warnings, ...(evalSet.warnings ?? [])],
  };
  if (baseline) {
    result.baseline = baseline.baseline;
    if (baseline.use === 'paired' && report.baseline) {
      result.comparison = compareReport(report, { names });
    } else if (baseline.use === 'cache') {
      result.baselineReport = baseline.report;
      result.comparison = compareReports(baseline.report, report, { names });
    }
  }
  if (!onPr) {
    // A cancelled job saves nothing, even a report that kept a verdict: a baseline is a whole run.
    result.saved = signal.aborted
      ? { saved: false, why: 'the job was cancelled, and a cut-short run is never a baseline' }
      : await saveAsBaseline({
          report,
          reportPath: written.jsonPath,
          sha: scope.head,
          runnerOs: ctx.runnerOs,
        });
    core.info(
      result.saved.saved ? `baseline saved: ${result.saved.key}` : `baseline not saved: ${result.saved.why}`,
    );
  }
  if (result.comparison) core.info(`compared with the baseline: ${result.comparison.label}`);
  return result;
}

function annotateRegressions(run: ActionRun): void {
  for (const s of regressions(run)) {
    const c = s.comparison;
    const detail = c
      ? `positives triggered ${c.positives.base.hits}/${c.positives.base.runs} → ${c.positives.cand.hits}/${c.positives.cand.runs}, negatives fired ${c.negatives.base.hits}/${c.negatives.base.runs} → ${c.negatives.cand.hits}/${c.negatives.cand.runs}`
      : 'the description regressed';
    const annotate = run.settings.failOnRegression ? core.error : core.warning;
    annotate(`This description makes Claude load ${s.skill} worse than the baseline: ${detail}.`, {
      title: `skilltrigger: ${s.skill} regressed`,
      file: s.file,
      startLine: s.descriptionLine,
    });
  }
}

/** Why the PR comment was not posted, in words a workflow author can act on. */
function commentFailure(error: GitHubFailure): string {
  switch (error.kind) {
    case 'forbidden':
      return `the token may not comment (HTTP ${error.status}: ${error.message}); the workflow needs permissions: pull-requests: write, and a fork's pull_request run never gets it`;
    case 'too-large':
      return `GitHub refused the comment as too long (HTTP ${error.status}: ${error.message})`;
    case 'unavailable':
      return `the GitHub API was unavailable after ${error.attempts} attempt${error.attempts === 1 ? '' : 's'} (${error.status === undefined ? 'no answer' : `HTTP ${error.status}`}: ${error.message})`;
    case 'rejected':
      return `GitHub rejected the comment (HTTP ${error.status}: ${error.message})`;
  }
}

async function postComment(
  run: ActionRun,
  ctx: RunnerContext,
  settings: Settings,
): Promise<string | undefined> {
  const event = ctx.event;
  if (event.kind !== 'pull_request' || run.skills.length === 0) return undefined;
  if (!settings.comment) return undefined;
  // A matrix leg holds a part of the skills; the merge step posts the one comment with all of them.
  if (settings.shard !== undefined) return undefined;
  if (event.fromFork && event.name === 'pull_request') {
    run.notes.push(
      'This pull request comes from a fork: GitHub gives its run a read-only token, so no PR comment was attempted. The results are here.',
    );
    core.notice('fork pull request: no PR comment is attempted; the results are in the job summary');
    return undefined;
  }
  if (settings.githubToken === undefined) {
    run.notes.push('No github-token was given, so no PR comment was posted. The results are here.');
    return undefined;
  }
  const posted = await upsertStickyComment({
    token: settings.githubToken,
    owner: ctx.owner,
    repo: ctx.repo,
    issueNumber: event.number,
    marker: COMMENT_MARKER,
    body: renderComment(run, TOOL_VERSION),
    headSha: event.headSha,
  });
  if (posted.ok) {
    core.info(`PR comment ${posted.value.action}: ${posted.value.url}`);
    return String(posted.value.id);
  }
  const why = commentFailure(posted.error);
  core.warning(`the PR comment could not be posted: ${why}. The results are in the job summary.`);
  run.notes.push(`The PR comment could not be posted (${why}). The results are here.`);
  return undefined;
}

async function writeSummary(run: ActionRun): Promise<void> {
  try {
    await core.summary.addRaw(renderSummary(run, TOOL_VERSION)).write({ overwrite: true });
  } catch (error) {
    core.warning(
      `the job summary could not be written: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function setOutputs(run: ActionRun, commentId: string | undefined, resultsFile?: string): void {
  core.setOutput(Outputs.ResultsFile, resultsFile ?? '');
  core.setOutput(Outputs.Verdicts, JSON.stringify(verdictsOutput(run)));
  core.setOutput(
    Outputs.Reports,
    run.skills.flatMap((s) => (s.kind === 'measured' ? [s.reportPath] : [])).join('\n'),
  );
  core.setOutput(Outputs.Regressions, String(regressions(run).length));
  core.setOutput(Outputs.CommentId, commentId ?? '');
}

/** Ends the run: outputs, comment, summary, and the conclusion for `run` to act on. */
async function finish(
  run: ActionRun,
  ctx: RunnerContext,
  settings: Settings,
  gates?: GateResults,
): Promise<Conclusion> {
  const commentId = await postComment(run, ctx, settings);
  const resultsFile =
    settings.shard === undefined ? undefined : await writeShardResults(run, ctx, settings, settings.shard);
  setOutputs(run, commentId, resultsFile);
  await writeSummary(run);
  return conclude(run, gates);
}

/** The commit a run is about, as every leg and the merge step of one workflow run see it alike. */
function eventHeadSha(ctx: RunnerContext): string {
  switch (ctx.event.kind) {
    case 'pull_request':
      return ctx.event.headSha;
    case 'push':
      return ctx.event.after;
    case 'other':
      return ctx.sha ?? '';
  }
}

/**
 * A matrix leg's results file, for the merge step. Written before the leg's own note goes into the
 * run, so the merged comment carries only what is true of every shard.
 */
async function writeShardResults(
  run: ActionRun,
  ctx: RunnerContext,
  settings: Settings,
  shard: Shard,
): Promise<string> {
  const out = path.resolve(ctx.workspace, settings.out);
  const file = await writeResultsFile(out, toResultsFile(run, shard, eventHeadSha(ctx), out, TOOL_VERSION));
  core.info(`shard ${shardText(shard)} results: ${file}`);
  const mine = run.skills.filter((s) => s.kind === 'measured' || s.kind === 'not-run').length;
  const note =
    mine === 0
      ? `Shard ${shardText(shard)}: no skill to measure falls to this shard, so it measured nothing; the merge step (mode: merge) reports every shard's skills.`
      : `Shard ${shardText(shard)}: this leg holds ${mine} of the skills to measure; the merge step (mode: merge) posts the one PR comment with every shard's skills.`;
  core.info(note);
  run.notes.push(note);
  return file;
}

/**
 * `mode: merge`: every leg's results file from results-dir, checked to cover shards 1..n of this
 * commit exactly once, becomes one run: one comment, one summary, the outputs and the exit code.
 * Files that do not add up stop it before anything is posted.
 */
async function runMerge(ctx: RunnerContext, settings: Settings): Promise<Conclusion> {
  const dir = path.resolve(ctx.workspace, settings.resultsDir);
  const shards = await core.group("Read the shards' results", async () => {
    const found = await readResultsFiles(dir);
    for (const s of found) {
      core.info(
        `${s.file}: shard ${shardText(s.results.shard)} of ${s.results.headSha || 'no commit'}, ${s.results.run.skills.length} skill(s), ${s.results.run.stage}`,
      );
    }
    return found;
  });
  const problems = coverageProblems(shards, eventHeadSha(ctx) || undefined);
  if (problems.length > 0) {
    return {
      code: ExitCode.input,
      message: [`cannot merge the shards' results in ${dir}: nothing was posted`, ...problems].join('\n'),
    };
  }
  const run = mergeShards(shards, settings.failOnRegression);
  run.notes.push(
    `Measured in ${shards.length} shard${shards.length === 1 ? '' : 's'} of a workflow matrix and merged here.`,
  );
  annotateRegressions(run);
  return finish(
    run,
    ctx,
    settings,
    run.stage === 'gate-failed' ? { passed: false, findings: run.gates } : undefined,
  );
}

/**
 * `pull_request_target` runs in the base repository's context: its secrets, a write token, a cache
 * shared with the base branch (anchors §12). Measuring a fork's head there hands text anyone can
 * write to a model that holds the API key and runs tools on this runner, so it takes an explicit yes.
 */
function forkTargetRefusal(prNumber: number): string {
  return (
    `refused to measure pull request #${prNumber}: it comes from a fork, and this is a pull_request_target run, ` +
    "which has this repository's secrets and a write token. Measuring would give the fork's SKILL.md descriptions " +
    'and eval queries to a model holding your API key, whose tools run on this runner. Nothing was measured. ' +
    `Use the pull_request event (a fork's run then gets no secrets), push the change to a branch of this repository, ` +
    `or, if you trust everyone who can open a pull request, set ${Inputs.AllowPullRequestTarget}: true`
  );
}

async function runAction(signal: AbortSignal): Promise<Conclusion> {
  const settings = readSettings();
  // Masked before anything can print them.
  if (settings.anthropicApiKey !== undefined) core.setSecret(settings.anthropicApiKey);
  // And by skilltrigger's own mask (src/mask.ts), for the comment, the summary and the report files.
  registerSecrets(process.env);
  registerSecrets({ ANTHROPIC_API_KEY: settings.anthropicApiKey });
  if (settings.githubToken !== undefined) core.setSecret(settings.githubToken);
  const ctx = await readRunnerContext();
  if (settings.mode === 'merge') return runMerge(ctx, settings);
  const run = newRun(ctx, settings);
  const event = ctx.event;

  if (
    event.kind === 'pull_request' &&
    event.name === 'pull_request_target' &&
    event.fromFork &&
    !settings.allowPullRequestTarget
  ) {
    const message = forkTargetRefusal(event.number);
    run.stage = 'ignored';
    run.notes.push(message);
    await finish(run, ctx, settings);
    return { code: ExitCode.input, message };
  }

  if ((event.kind === 'push' || event.kind === 'other') && !event.onDefaultBranch) {
    const branch = event.defaultBranch ?? 'the default branch';
    core.notice(
      `skilltrigger measures pull requests, and pushes to ${branch} (which save the baselines); nothing to do for this ${run.eventName} run on ${ctx.ref ?? 'an unknown ref'}`,
    );
    run.stage = 'ignored';
    run.notes.push(`Nothing to do: this ${run.eventName} run is not a pull request or a push to ${branch}.`);
    return finish(run, ctx, settings);
  }

  const root = await repositoryRoot(ctx.workspace);
  const scope = await core.group('Find the changed skills', async () => {
    const found = await planSkills({ root, event, skills: settings.skills, skillsAll: settings.skillsAll });
    for (const note of found.notes) core.info(note);
    core.info(
      `${found.plans.length} SKILL.md file(s) in scope between ${found.base ?? '(none)'} and ${found.head}`,
    );
    return found;
  });
  run.headSha = event.kind === 'pull_request' ? event.headSha : scope.head;
  if (scope.base !== undefined) run.baseSha = scope.base;
  run.notes.push(...scope.notes);

  const shard = settings.shard;
  const plans = shard === undefined ? scope.plans : shardPlans(scope.plans, shard);
  if (shard !== undefined) {
    core.info(
      `shard ${shardText(shard)}: ${plans.filter((p) => p.kind === 'measure').length} of ${scope.plans.filter((p) => p.kind === 'measure').length} skill(s) to measure fall to this shard`,
    );
  }
  const { targets, results } = await core.group('Read the skills and their eval sets', () =>
    loadInputs(root, { ...scope, plans }, settings),
  );
  run.skills = results;
  if (results.some((r) => r.kind === 'invalid')) {
    run.stage = 'input-error';
    run.skills.push(
      ...targets.map((t) => ({ kind: 'not-run' as const, file: t.plan.path, skill: t.plan.head.name })),
    );
    return finish(run, ctx, settings);
  }
  if (targets.length === 0) {
    run.stage = 'nothing';
    if (scope.plans.length === 0)
      run.notes.push('No SKILL.md matching the skills input changed: nothing to measure.');
    return finish(run, ctx, settings);
  }

  const notRun = () =>
    targets.map((t) => ({ kind: 'not-run' as const, file: t.plan.path, skill: t.plan.head.name }));
  let claude: ClaudeInstall;
  try {
    claude = await core.group('Install Claude Code', () =>
      installClaude({
        version: settings.claudeCodeVersion,
        ...(settings.claudePath === undefined ? {} : { claudePath: settings.claudePath }),
        runnerOs: ctx.runnerOs,
        arch: ctx.arch,
        ...(ctx.runnerTemp === undefined ? {} : { runnerTemp: ctx.runnerTemp }),
      }),
    );
  } catch (error) {
    if (!(error instanceof SkilltriggerError) || error.exitCode !== ExitCode.gate) throw error;
    run.stage = 'gate-failed';
    run.gates = [{ gate: 'cli', status: 'fail', reason: error.message.replace(/^gate cli failed: /, '') }];
    run.skills.push(...notRun());
    return finish(run, ctx, settings, { passed: false, findings: run.gates });
  }

  const gates = await runGates({
    claudeBin: claude.bin,
    env: claudeEnv(settings),
    ...(settings.model === undefined ? {} : { model: settings.model }),
    maxRetries: MAX_RETRIES,
    timeoutSeconds: settings.timeoutSeconds,
    ...(claude.version === undefined ? {} : { expectedVersion: claude.version }),
    fromFork: run.fromFork,
  });
  run.gates = gates.findings;
  if (gates.cliVersion !== undefined) run.cliVersion = gates.cliVersion;
  if (!gates.passed) {
    run.stage = 'gate-failed';
    run.skills.push(...notRun());
    return finish(run, ctx, settings, gates);
  }

  run.stage = 'measured';
  for (const target of targets) {
    if (signal.aborted) {
      run.skills.push({ kind: 'not-run', file: target.plan.path, skill: target.plan.head.name });
      continue;
    }
    const measured = await core.group(`Measure ${target.plan.head.name} (${target.plan.path})`, () =>
      measureOne(target, ctx, settings, scope, claude, gates, signal),
    );
    run.skills.push(measured);
  }
  if (signal.aborted) run.notes.push('The run was cancelled before every skill was measured.');
  annotateRegressions(run);
  return finish(run, ctx, settings, gates);
}

/** The Action's entry: runs the flow and turns its conclusion (or a thrown error) into the exit. */
export async function run(): Promise<void> {
  const controller = new AbortController();
  // The runner cancels a job with SIGINT, then SIGTERM: stop the current run cleanly and report.
  // `on`, not `once`: a once-listener is removed before it runs, and execa's signal-exit handler,
  // seeing no other listener left, then re-raises the signal and kills the process mid-cleanup.
  const cancel = () => controller.abort();
  process.on('SIGINT', cancel);
  process.on('SIGTERM', cancel);
  let conclusion: Conclusion;
  try {
    conclusion = await runAction(controller.signal);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const code = error instanceof SkilltriggerError ? error.exitCode : ExitCode.input;
    if (!(error instanceof SkilltriggerError) && error instanceof Error && error.stack)
      core.debug(error.stack);
    conclusion = { code, message };
  } finally {
    process.off('SIGINT', cancel);
    process.off('SIGTERM', cancel);
  }
  if (conclusion.message !== undefined) core.setFailed(conclusion.message);
  // setFailed sets 1; the distinct codes (2 gate, 3 no verdict) are kept by assigning after it.
  process.exitCode = conclusion.code;
}
