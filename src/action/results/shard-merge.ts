import { SkilltriggerError } from '../../errors.js';
import { shardText } from '../../matrix/shard.js';
import type { ActionRun, RunStage } from './results.js';
import { restoreSkill, type ShardResults } from './results-file.js';

/**
 * `mode: merge` for the skills (pure): the legs' results files checked to cover every shard of
 * one commit once, then joined into the one run the comment, the summary and the exit code read.
 * The legs' routing matrices are joined by matrix-merge.ts.
 */

/**
 * What is wrong with a set of legs' files (pure): they must cover shards 1..n of one head sha,
 * each exactly once, and agree on n and on the measuring settings. Empty when they do.
 */
export function coverageProblems(shards: readonly ShardResults[], expectedSha?: string): string[] {
  if (shards.length === 0) return ['no shard results files were found'];
  const problems: string[] = [];
  const counts = [...new Set(shards.map((s) => s.results.shard.count))];
  if (counts.length > 1) {
    problems.push(
      `the files disagree on the number of shards: ${shards.map((s) => `${s.file} is shard ${shardText(s.results.shard)}`).join(', ')}`,
    );
    return problems;
  }
  const count = counts[0] ?? 0;
  for (let index = 1; index <= count; index++) {
    const files = shards.filter((s) => s.results.shard.index === index).map((s) => s.file);
    if (files.length === 0)
      problems.push(`shard ${index}/${count} is missing (did its leg fail before it wrote its results?)`);
    if (files.length > 1)
      problems.push(`shard ${index}/${count} appears ${files.length} times: ${files.join(', ')}`);
  }
  const shas = [...new Set(shards.map((s) => s.results.headSha))];
  if (shas.length > 1) {
    problems.push(
      `the shards measured different commits: ${shards.map((s) => `${s.file} measured ${s.results.headSha || 'no commit'}`).join(', ')}`,
    );
  } else if (expectedSha !== undefined && shas[0] !== expectedSha) {
    problems.push(
      `the shards measured ${shas[0] || 'no commit'}, but this run is for ${expectedSha} (results from an older push?)`,
    );
  }
  const settings = [
    ...new Set(shards.map((s) => JSON.stringify({ ...s.results.run.settings, failOnRegression: false }))),
  ];
  if (settings.length > 1)
    problems.push('the shards were measured with different runs, model or baseline settings');
  return problems;
}

/** How far the merged run got: the most serious leg's stage. */
const STAGE_RANK: readonly RunStage[] = ['input-error', 'gate-failed', 'measured', 'nothing', 'ignored'];

/**
 * One run from every leg's (pure; the files already checked by `coverageProblems`): the skills
 * concatenated in shard order, the most serious stage, the failing leg's gates, the notes once each.
 */
export function mergeShards(shards: readonly ShardResults[], failOnRegression: boolean): ActionRun {
  const ordered = [...shards].sort((a, b) => a.results.shard.index - b.results.shard.index);
  const runs = ordered.map((s) => s.results.run);
  const first = runs[0];
  if (first === undefined) throw new SkilltriggerError('skilltrigger bug: merging no shards', 1);
  const stage = STAGE_RANK.find((st) => runs.some((r) => r.stage === st)) ?? first.stage;
  const gateSource =
    runs.find((r) => r.stage === 'gate-failed') ?? runs.find((r) => r.gates.length > 0) ?? first;
  const cliVersion = runs.find((r) => r.cliVersion !== undefined)?.cliVersion;
  const headSha = runs.find((r) => r.headSha !== undefined)?.headSha;
  const baseSha = runs.find((r) => r.baseSha !== undefined)?.baseSha;
  // Each leg budgets its own share (docs/action.md): the merged run shows the legs' budget, and
  // the refusals of the legs whose estimate passed it, so a refused leg is not "0 problems".
  const budgeted = runs.flatMap((r) => (r.budget === undefined ? [] : [r.budget]));
  const refusals = [...new Set(budgeted.flatMap((b) => (b.refused === undefined ? [] : [b.refused])))];
  const budget =
    budgeted[0] === undefined
      ? undefined
      : { maxUsd: budgeted[0].maxUsd, ...(refusals.length > 0 ? { refused: refusals.join('; ') } : {}) };
  return {
    event: first.event,
    eventName: first.eventName,
    ...(first.prNumber === undefined ? {} : { prNumber: first.prNumber }),
    ...(headSha === undefined ? {} : { headSha }),
    ...(baseSha === undefined ? {} : { baseSha }),
    fromFork: first.fromFork,
    stage,
    skills: ordered.flatMap((s) => s.results.run.skills.map((skill) => restoreSkill(skill, s.dir))),
    gates: gateSource.gates,
    notes: [...new Set(runs.flatMap((r) => r.notes))],
    settings: { ...first.settings, failOnRegression },
    ...(cliVersion === undefined ? {} : { cliVersion }),
    ...(budget === undefined ? {} : { budget }),
  };
}
