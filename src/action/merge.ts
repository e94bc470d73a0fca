import path from 'node:path';
import * as core from '@actions/core';
import { ExitCode } from '../errors.js';
import { writeMatrixReport } from '../matrix/files.js';
import { renderMatrixMarkdown } from '../matrix/markdown.js';
import { shardText } from '../matrix/shard.js';
import type { RunnerContext } from './context.js';
import { annotateRegressions, eventHeadSha, publish } from './publish.js';
import type { Conclusion } from './results/conclusion.js';
import { mergeLegMatrices } from './results/matrix-merge.js';
import { coverageProblems, mergeShards } from './results/shard-merge.js';
import { readResultsFiles } from './results-files.js';
import { concludeWithMatrix } from './routing-matrix.js';
import type { Settings } from './settings.js';

/**
 * `mode: merge`: every leg's results file from results-dir, checked to cover shards 1..n of this
 * commit exactly once, becomes one run: one comment, one summary, the outputs and the exit code.
 * The legs' slices of the routing matrix (`routing-matrix: true`) become one matrix, written here.
 * Files that do not add up stop it before anything is posted.
 */
export async function runMerge(ctx: RunnerContext, settings: Settings): Promise<Conclusion> {
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
  const matrix = problems.length > 0 ? undefined : mergeLegMatrices(shards, new Date());
  if (matrix?.kind === 'refused') problems.push(...matrix.problems);
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
  if (matrix?.kind === 'kept') run.matrix = matrix.matrix;
  if (matrix?.kind === 'merged') {
    const out = path.resolve(ctx.workspace, settings.out);
    const written = await writeMatrixReport(out, matrix.report, renderMatrixMarkdown(matrix.report));
    core.info(`routing matrix merged from ${shards.length} legs: ${written.jsonPath}`);
    run.matrix = {
      kind: 'measured',
      report: matrix.report,
      reportPath: written.jsonPath,
      markdownPath: written.markdownPath,
    };
  }
  annotateRegressions(run);
  return concludeWithMatrix(await publish(run, ctx, settings), run);
}
