import path from 'node:path';
import * as core from '@actions/core';
import type { Shard } from '../matrix/shard.js';
import { pagePathFor } from '../report/disk/pages.js';
import { type ArtifactUpload, uploadArtifact } from '../system/artifact.js';
import { exists } from '../system/input-file.js';
import { annotate } from './annotate.js';
import type { ActionRun, RunLinks } from './results/results.js';

/**
 * The HTML pages of the run's reports go into the job's artifact, so a reviewer can download and
 * open them (the job summary cannot hold a page). The artifact holds only the pages: the JSON and
 * Markdown are in the summary and the comment already. Never fails the job: when the artifact
 * service is not there, or the upload fails, the step warns and goes on.
 */

/** `skilltrigger-pages-<job>` (and `-<index>-of-<count>` for a matrix leg): unique in a workflow run. */
export function pagesArtifactName(env: NodeJS.ProcessEnv, shard: Shard | undefined): string {
  // GITHUB_JOB is the job's id (letters, digits, `-`, `_`); anything else is dropped to keep the name valid.
  const job = (env.GITHUB_JOB ?? '').replace(/[^A-Za-z0-9_-]/g, '');
  return [
    'skilltrigger-pages',
    ...(job === '' ? [] : [job]),
    ...(shard === undefined ? [] : [`${shard.index}-of-${shard.count}`]),
  ].join('-');
}

/** The pages beside the measured reports and the routing matrix's report, those that exist. */
async function pagesOf(run: ActionRun): Promise<string[]> {
  const pages = run.skills.flatMap((s) => (s.kind === 'measured' ? [pagePathFor(s.reportPath)] : []));
  if (run.matrix?.kind === 'measured') pages.push(pagePathFor(run.matrix.reportPath));
  const found: string[] = [];
  for (const page of pages) if (await exists(page)) found.push(page);
  return found;
}

/** The folder that holds every page: the artifact's root, so the pages keep their names. */
function commonFolder(files: readonly string[]): string {
  const dirs = files.map((f) => path.dirname(path.resolve(f)));
  let root = dirs[0] ?? '.';
  for (const dir of dirs) {
    while (dir !== root && !dir.startsWith(`${root}${path.sep}`)) root = path.dirname(root);
  }
  return root;
}

/** What became of the pages: the upload's outcome, the artifact's name, and the summary's line on success. */
export interface PagesUpload {
  upload: ArtifactUpload;
  name: string;
  /** For this job's summary only (the caller adds it to the run's notes after the results file). */
  note?: string;
}

/**
 * Uploads the pages, and says what became of them: a line for the job summary on success, a
 * warning otherwise. Returns undefined when there was no page to upload.
 */
export async function uploadPages(
  run: ActionRun,
  shard: Shard | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<PagesUpload | undefined> {
  const pages = await pagesOf(run);
  if (pages.length === 0) return undefined;
  const name = pagesArtifactName(env, shard);
  const result = await uploadArtifact(name, pages, commonFolder(pages), env);
  const count = pages.length === 1 ? 'the HTML page' : `the ${pages.length} HTML pages`;
  if (result.ok) {
    core.info(`${count} uploaded: artifact ${name} (id ${result.id}, ${result.size} bytes)`);
    return {
      upload: result,
      name,
      note: `HTML pages in the artifact ${name}: ${count} of the reports (download it from this run's Summary page, unzip, open in a browser).`,
    };
  }
  annotate(
    'warning',
    `${count} could not be put in the job's artifact: ${result.tried ? 'the upload failed' : 'the artifact service is not available'}: ${result.reason}. The job goes on; the pages are in the workspace beside the reports.`,
  );
  return { upload: result, name };
}

/**
 * The footer's links (pure): this workflow run's page, from the runner's variables, and the pages'
 * artifact when it was uploaded (its page is the run's `/artifacts/<id>`). Absent pieces are left out.
 */
export function runLinks(env: NodeJS.ProcessEnv, pages: PagesUpload | undefined): RunLinks | undefined {
  const server = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
  const repository = env.GITHUB_REPOSITORY ?? '';
  const runId = env.GITHUB_RUN_ID ?? '';
  const runUrl =
    /^[\w.-]+\/[\w.-]+$/.test(repository) && /^\d+$/.test(runId)
      ? `${server}/${repository}/actions/runs/${runId}`
      : undefined;
  const artifact =
    pages?.upload.ok === true
      ? {
          name: pages.name,
          ...(runUrl === undefined ? {} : { url: `${runUrl}/artifacts/${pages.upload.id}` }),
        }
      : undefined;
  if (runUrl === undefined && artifact === undefined) return undefined;
  return {
    ...(runUrl === undefined ? {} : { run: runUrl }),
    ...(artifact === undefined ? {} : { artifact }),
  };
}
