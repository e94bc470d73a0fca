import path from 'node:path';
import * as core from '@actions/core';
import { messageOf } from '../errors.js';
import { maskSecrets } from '../mask.js';
import { type Shard, shardText } from '../matrix/shard.js';
import { junitPathFor } from '../report/disk/files.js';
import { upsertStickyComment } from '../system/github.js';
import { TOOL_VERSION } from '../version.js';
import { annotate } from './annotate.js';
import { COMMENT_MARKER, Outputs } from './constants.js';
import type { RunnerContext } from './context.js';
import { keepDriftIssue } from './drift.js';
import { runLinks, uploadPages } from './pages-artifact.js';
import { type Conclusion, conclude } from './results/conclusion.js';
import { type ActionRun, regressions, reportPaths, verdictsOutput } from './results/results.js';
import { toResultsFile } from './results/results-file.js';
import { writeResultsFile } from './results-files.js';
import type { Settings } from './settings.js';
import { renderComment } from './text/comment.js';
import { renderSummary } from './text/summary.js';
import { type GitHubWrite, githubFailureText } from './write-failure.js';

/**
 * The publish phase: what one run found goes out as annotations, the sticky PR comment, a shard's
 * results file, the outputs and the job summary, and becomes the step's conclusion. Every piece
 * reads the same `ActionRun`, so the comment, the summary and the outputs cannot disagree.
 */

/** A regressed description, annotated on its SKILL.md line (an error with fail-on-regression). */
export function annotateRegressions(run: ActionRun): void {
  for (const s of regressions(run)) {
    const c = s.comparison;
    const detail = c
      ? `positives triggered ${c.positives.base.hits}/${c.positives.base.runs} → ${c.positives.cand.hits}/${c.positives.cand.runs}, negatives fired ${c.negatives.base.hits}/${c.negatives.base.runs} → ${c.negatives.cand.hits}/${c.negatives.cand.runs}`
      : 'the description regressed';
    // A drift run measured the same description as its baseline: what moved is around it.
    const what = run.drift
      ? `With the same description, ${s.skill} is loaded worse than its stored baseline (the model or its surroundings changed; see the drift issue)`
      : `This description makes the agent load ${s.skill} worse than the baseline`;
    annotate(run.settings.failOnRegression ? 'error' : 'warning', `${what}: ${detail}.`, {
      title: `skilltrigger: ${s.skill} regressed`,
      file: s.file,
      startLine: s.descriptionLine,
    });
  }
}

/** The PR comment, for the words of a failure to post it. */
const COMMENT_WRITE: GitHubWrite = {
  what: 'comment',
  act: 'comment',
  needs: "the workflow needs permissions: pull-requests: write, and a fork's pull_request run never gets it",
};

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
    annotate('notice', 'fork pull request: no PR comment is attempted; the results are in the job summary');
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
    // The comment quotes eval queries and warnings, text from outside: masked as every output is.
    body: maskSecrets(renderComment(run, TOOL_VERSION)),
    headSha: event.headSha,
  });
  if (posted.ok) {
    core.info(`PR comment ${posted.value.action}: ${posted.value.url}`);
    return String(posted.value.id);
  }
  const why = githubFailureText(posted.error, COMMENT_WRITE);
  annotate('warning', `the PR comment could not be posted: ${why}. The results are in the job summary.`);
  run.notes.push(`The PR comment could not be posted (${why}). The results are here.`);
  return undefined;
}

async function writeSummary(run: ActionRun): Promise<void> {
  try {
    await core.summary.addRaw(maskSecrets(renderSummary(run, TOOL_VERSION))).write({ overwrite: true });
  } catch (error) {
    annotate('warning', `the job summary could not be written: ${messageOf(error)}`);
  }
}

function setOutputs(run: ActionRun, commentId: string | undefined, resultsFile?: string): void {
  core.setOutput(Outputs.ResultsFile, resultsFile ?? '');
  core.setOutput(Outputs.Verdicts, JSON.stringify(verdictsOutput(run)));
  core.setOutput(Outputs.Reports, reportPaths(run).join('\n'));
  core.setOutput(
    Outputs.Junit,
    run.skills.flatMap((s) => (s.kind === 'measured' ? [junitPathFor(s.reportPath)] : [])).join('\n'),
  );
  core.setOutput(Outputs.Regressions, String(regressions(run).length));
  core.setOutput(Outputs.CommentId, commentId ?? '');
}

/** The commit a run is about, as every leg and the merge step of one workflow run see it alike. */
export function eventHeadSha(ctx: RunnerContext): string {
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
      ? `Shard ${shardText(shard)}: no skill to measure falls to this shard, so it measured ${run.matrix?.kind === 'measured' ? 'only its slice of the routing matrix' : 'nothing'}; the merge step (mode: merge) reports every shard's skills.`
      : `Shard ${shardText(shard)}: this leg holds ${mine} of the skills to measure; the merge step (mode: merge) posts the one PR comment with every shard's skills.`;
  core.info(note);
  run.notes.push(note);
  return file;
}

/**
 * Ends the run: the pages' artifact (so the comment can link it), comment, results file, outputs,
 * summary, and the conclusion for `run` to act on.
 */
export async function publish(run: ActionRun, ctx: RunnerContext, settings: Settings): Promise<Conclusion> {
  const pages = await uploadPages(run, settings.shard);
  const links = runLinks(process.env, pages);
  if (links !== undefined) run.links = links;
  const commentId = await postComment(run, ctx, settings);
  // mode: drift: the repository's one drift issue, after the links it carries (drift.ts).
  await keepDriftIssue(run, ctx, settings);
  const resultsFile =
    settings.shard === undefined ? undefined : await writeShardResults(run, ctx, settings, settings.shard);
  // After the comment and the results file: the artifact's line is for this job's summary only.
  if (pages?.note !== undefined) run.notes.push(pages.note);
  setOutputs(run, commentId, resultsFile);
  await writeSummary(run);
  return conclude(run);
}
