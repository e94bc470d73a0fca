import path from 'node:path';
import * as core from '@actions/core';
import { ExitCode } from '../errors.js';
import type { Conclusion } from './conclusion.js';
import type { RunnerContext } from './context.js';
import { annotateRegressions, eventHeadSha, publish } from './publish.js';
import { coverageProblems, mergeShards, readResultsFiles } from './results-file.js';
import type { Settings } from './settings.js';
import { shardText } from './shard.js';

/**
 * `mode: merge`: every leg's results file from results-dir, checked to cover shards 1..n of this
 * commit exactly once, becomes one run: one comment, one summary, the outputs and the exit code.
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
  return publish(run, ctx, settings);
}
