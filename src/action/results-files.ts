import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { messageOf } from '../errors.js';
import { replaceFile } from '../system/atomic-files.js';
import {
  parseResultsFile,
  RESULTS_FILE_PATTERN,
  type ResultsFile,
  ResultsFileError,
  resultsFileName,
  type ShardResults,
} from './results/results-file.js';

/**
 * A matrix leg's results file on disk (its form: action/results/results-file.ts): the leg writes
 * its own, the merge job reads every leg's from `results-dir`. It stands in action/, not adapters/,
 * because it imports the file's form: an adapter importing action-results/ would tie the folders
 * into a knot (action-results/ reaches matrix/ and report/, which import adapters/).
 */

/** Writes the leg's results file atomically (a merge never reads half a file); returns its path. */
export async function writeResultsFile(outDir: string, results: ResultsFile): Promise<string> {
  await mkdir(outDir, { recursive: true });
  const file = path.join(outDir, resultsFileName(results.shard));
  await replaceFile(file, `${JSON.stringify(results, null, 2)}\n`);
  return file;
}

/**
 * Every results file under `dir` (at any depth: download-artifact puts each artifact in its own
 * folder unless `merge-multiple` is set), parsed and validated. A garbled or foreign one is an error
 * naming it.
 */
export async function readResultsFiles(dir: string): Promise<ShardResults[]> {
  let entries: string[];
  try {
    entries = await readdir(dir, { recursive: true });
  } catch (error) {
    const why = messageOf(error);
    throw new ResultsFileError(
      `results-dir ${dir} cannot be read (${why}); download the legs' artifacts there first (actions/download-artifact)`,
    );
  }
  const files = entries.filter((e) => RESULTS_FILE_PATTERN.test(path.basename(e))).sort();
  const out: ShardResults[] = [];
  for (const entry of files) {
    const full = path.join(dir, entry);
    const text = await readFile(full, 'utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const why = messageOf(error);
      throw new ResultsFileError(
        `${full}: not JSON (${why}); results-dir should hold only the files the measuring legs wrote`,
      );
    }
    out.push({ file: full, dir: path.dirname(full), results: parseResultsFile(value, full) });
  }
  return out;
}
