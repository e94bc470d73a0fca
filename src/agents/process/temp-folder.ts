import { mkdtemp, rmdir, stat, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExitCode, SkilltriggerError } from '../../errors.js';
import { errorCode } from '../../guards.js';
import { explainCode } from '../../system/atomic-files.js';

/**
 * The temp folder every run, gate and listing probe makes its project in (and the claude CLI keeps
 * its own files in). Checked once before anything is spent: a TMPDIR that does not exist made the
 * first spawn fail as if claude were missing, and a full one crashed the listing probe with a stack
 * trace. Messages may name the path: they go to the terminal, never into a report.
 */

/** Below this much free space no run's temp project can be trusted to fit (one took 16–20 KiB on a tmpfs). */
export const MIN_FREE_BYTES = 1024 * 1024;

/** The temp folder as Node resolves it on POSIX (TMPDIR, TMP, TEMP, else the OS default), and the variable that set it. */
export function tempFolderOf(env: NodeJS.ProcessEnv): { path: string; variable?: string } {
  for (const variable of ['TMPDIR', 'TMP', 'TEMP']) {
    const value = env[variable];
    if (value) return { path: value.length > 1 ? value.replace(/\/+$/, '') : value, variable };
  }
  return { path: tmpdir() };
}

function named(folder: { path: string; variable?: string }): string {
  return folder.variable === undefined
    ? `the temp folder ${folder.path}`
    : `the temp folder ${folder.variable}=${folder.path}`;
}

const FIX_ELSEWHERE = (folder: { variable?: string }) =>
  folder.variable === undefined
    ? 'point TMPDIR at a folder that exists, can be written and has room'
    : `point ${folder.variable} at a folder that exists, can be written and has room (or unset it for the system's own)`;

/** Free bytes on the temp folder's filesystem, or undefined where that cannot be read. */
async function freeBytes(path: string): Promise<number | undefined> {
  try {
    const fs = await statfs(path);
    return fs.bavail * fs.bsize;
  } catch {
    return undefined;
  }
}

/**
 * Refuses (exit 1), before any gate or run, a temp folder that is missing, not a folder, not
 * writable, or full. Nothing is left behind: writability is tried with a probe folder, removed at once.
 */
export async function checkTempFolder(env: NodeJS.ProcessEnv): Promise<void> {
  const folder = tempFolderOf(env);
  const refuse = (problem: string, fix: string) =>
    new SkilltriggerError(
      `${named(folder)} ${problem}; every run makes its temp project there, so nothing was started. Fix: ${fix}`,
      ExitCode.input,
    );
  const found = await stat(folder.path).catch((error: unknown) => errorCode(error) ?? 'unknown error');
  if (typeof found === 'string') {
    if (found === 'ENOENT')
      throw refuse('does not exist', `create it (mkdir -p ${folder.path}), or ${FIX_ELSEWHERE(folder)}`);
    throw refuse(`cannot be read (${found}: ${explainCode(found)})`, FIX_ELSEWHERE(folder));
  }
  if (!found.isDirectory()) throw refuse('is not a folder', FIX_ELSEWHERE(folder));
  const free = await freeBytes(folder.path);
  if (free !== undefined && free < MIN_FREE_BYTES)
    throw refuse(fullProblem(free), `free space there, or ${FIX_ELSEWHERE(folder)}`);
  try {
    await rmdir(await mkdtemp(join(folder.path, 'skilltrigger-probe-')));
  } catch (error) {
    const code = errorCode(error) ?? 'unknown error';
    throw refuse(
      code === 'ENOSPC' ? fullProblem(free) : `cannot be written (${code}: ${explainCode(code)})`,
      code === 'ENOSPC' ? `free space there, or ${FIX_ELSEWHERE(folder)}` : FIX_ELSEWHERE(folder),
    );
  }
}

function fullProblem(free: number | undefined): string {
  return `is full${free === undefined ? '' : ` (${Math.floor(free / 1024)} KiB free)`}`;
}

/**
 * What a disk-full error (ENOSPC, EDQUOT) that escaped every other handler means: said as the temp
 * folder's when that is the one out of room, so the user is not left with a stack trace.
 */
export async function fullDiskMessage(env: NodeJS.ProcessEnv, error: unknown): Promise<string | undefined> {
  const code = errorCode(error);
  if (code !== 'ENOSPC' && code !== 'EDQUOT') return undefined;
  const folder = tempFolderOf(env);
  const free = await freeBytes(folder.path);
  const what = error instanceof Error ? error.message : String(error);
  if (free !== undefined && free < MIN_FREE_BYTES)
    return `${named(folder)} ${fullProblem(free)} (${what}). Fix: free space there, or ${FIX_ELSEWHERE(folder)}; a report already written stays where it was written`;
  return `a disk is full (${what}). Fix: free space on the disk being written, then run again`;
}
