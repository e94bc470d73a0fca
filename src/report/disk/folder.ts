import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { link, mkdtemp, rmdir, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ExitCode, InputError, SkilltriggerError } from '../../errors.js';
import { errorCode } from '../../guards.js';
import {
  claim,
  explainCode,
  type LinkFile,
  makeFolder,
  removeQuietly,
  writeTemp,
} from '../../system/atomic-files.js';

/**
 * The report folder: a report's files (JSON, Markdown, HTML) claimed together under one stem, never
 * overwriting another report. Two runs finishing at once in one folder get `-2`, `-3`, … instead
 * of one clobbering the other. A folder that refuses a report does not lose it (a fallback folder,
 * or the JSON in the error), and `checkReportFolder` refuses a folder that cannot take one before
 * anything is spent. What a report is named and how it is masked and checked: src/report/disk/files.ts.
 */

/** The files a report was written to. */
export interface WrittenReport {
  jsonPath: string;
  markdownPath: string;
  /** The self-contained HTML page of the report (absent for a report type without a page). */
  htmlPath?: string;
}

export interface ReportFileOptions {
  /**
   * Replaces `fs.link`, so tests can act out a filesystem without hard links (FAT, some network
   * mounts); the writer then claims names with an exclusive create and a rename.
   */
  link?: LinkFile;
  /**
   * Where a report goes when `outDir` refuses it: a new `skilltrigger-unsaved-*` folder in here.
   * Default: the OS temp folder. `null` turns the fallback off.
   */
  fallbackDir?: string | null;
}

/** Where a report that its folder refused was kept instead. */
export type SavedElsewhere =
  | { kind: 'fallback'; report: WrittenReport }
  /** Even the fallback folder refused (code): the JSON travels in the error message, to stderr. */
  | { kind: 'inline'; json: string; fallbackDir: string; code: string };

/**
 * A report folder that cannot be created or written. Exit 1: the report is not where the user
 * asked for it, a problem the user can fix. The measurement is not lost: when `saved` says so, the
 * message names the file it went to instead, or carries the report itself.
 */
export class ReportWriteError extends SkilltriggerError {
  constructor(
    readonly dir: string,
    readonly code: string,
    readonly saved?: SavedElsewhere,
  ) {
    super(
      `cannot write the report to ${dir}: ${code} (${explainCode(code)}).${savedNote(saved)} Fix: choose a writable folder with --out, or fix that folder's permissions`,
      ExitCode.input,
    );
  }
}

function savedNote(saved: SavedElsewhere | undefined): string {
  if (saved === undefined) return '';
  if (saved.kind === 'fallback') {
    return ` The measured report was saved instead to ${saved.report.jsonPath} (Markdown: ${saved.report.markdownPath}${saved.report.htmlPath ? `, HTML: ${saved.report.htmlPath}` : ''}); move it from there, it is not lost.`;
  }
  return ` Saving it in ${saved.fallbackDir} failed too (${saved.code}), so here is the measured report, so it is not lost:\n${saved.json.trimEnd()}\n`;
}

/** An OS error becomes a ReportWriteError naming the folder; anything else is a bug and propagates. */
function asWriteError(dir: string, error: unknown): unknown {
  const code = errorCode(error);
  return code === undefined || error instanceof SkilltriggerError ? error : new ReportWriteError(dir, code);
}

/** Enough for any number of reports a day; a bound so a broken filesystem cannot loop us forever. */
const MAX_SUFFIX = 10_000;

/** The renderings of one report: JSON, Markdown, and (for the report types that have a page) HTML. */
export interface ReportRenderings {
  json: string;
  markdown: string;
  html?: string;
}

/**
 * Writes `<outDir>/<stem>.json`, `.md` and `.html` (`-2`, `-3`, … when taken) as `writeReport`
 * does, with the same fallback; the files as given (`writeValidatedReport` masks and validates first).
 */
export async function writeNamedReport(
  outDir: string,
  stem: string,
  files: ReportRenderings,
  options: ReportFileOptions = {},
): Promise<WrittenReport> {
  const linkFile = options.link ?? link;
  try {
    return await writeReportFiles(outDir, stem, files, linkFile);
  } catch (error) {
    if (!(error instanceof ReportWriteError) || options.fallbackDir === null) throw error;
    const fallbackDir = options.fallbackDir ?? tmpdir();
    let saved: SavedElsewhere;
    let dir: string | undefined;
    try {
      dir = await mkdtemp(join(fallbackDir, 'skilltrigger-unsaved-'));
      saved = { kind: 'fallback', report: await writeReportFiles(dir, stem, files, linkFile) };
    } catch (fallbackError) {
      // The same refusal (a file-size limit, a full disk) twice: the report goes in the message,
      // and the fallback folder, made for it and empty, is not left behind.
      if (dir !== undefined) await rmdir(dir).catch(() => undefined);
      saved = {
        kind: 'inline',
        json: files.json,
        fallbackDir,
        code: errorCode(fallbackError) ?? 'unknown error',
      };
    }
    throw new ReportWriteError(error.dir, error.code, saved);
  }
}

async function writeReportFiles(
  outDir: string,
  stem: string,
  files: ReportRenderings,
  linkFile: LinkFile,
): Promise<WrittenReport> {
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  // The JSON first: its name is the claim on the stem; only its holder tries the others.
  const parts = [
    { ext: 'json', data: files.json },
    { ext: 'md', data: files.markdown },
    ...(files.html === undefined ? [] : [{ ext: 'html', data: files.html }]),
  ].map((part) => ({ ...part, temp: join(outDir, `${stem}.${part.ext}.tmp-${tag}`) }));
  try {
    await makeFolder(outDir);
    for (const part of parts) await writeTemp(part.temp, part.data);
    for (let n = 1; n <= MAX_SUFFIX; n++) {
      const name = n === 1 ? stem : `${stem}-${n}`;
      const target = (ext: string) => join(outDir, `${name}.${ext}`);
      const claimed: string[] = [];
      for (const part of parts) {
        if (!(await claim(part.temp, target(part.ext), linkFile))) break;
        claimed.push(target(part.ext));
      }
      if (claimed.length === parts.length) {
        return {
          jsonPath: target('json'),
          markdownPath: target('md'),
          ...(files.html === undefined ? {} : { htmlPath: target('html') }),
        };
      }
      // A stray .md or .html holds this stem (its JSON was deleted): give the stem back, never overwrite.
      for (const path of claimed.reverse()) await unlink(path);
    }
    throw new SkilltriggerError(
      `cannot write the report to ${outDir}: ${MAX_SUFFIX} names for ${stem} are taken. Fix: choose another folder with --out`,
      ExitCode.input,
    );
  } catch (error) {
    throw asWriteError(outDir, error);
  } finally {
    for (const part of parts) await removeQuietly(part.temp);
  }
}

/**
 * Refuses, before anything is spent, a report folder that cannot take a report: an empty path, a
 * regular file, a path through a file, a folder on a read-only filesystem or without permission.
 * Nothing is created that stays: writability is tried with a probe folder, removed at once, in the
 * folder itself or in the nearest folder above it that exists (root passes permission bits, so only
 * a real attempt tells). A folder that breaks later is still caught by `writeReport`'s fallback.
 */
export async function checkReportFolder(outDir: string): Promise<void> {
  if (outDir.trim() === '') {
    throw new InputError(
      { file: '--out' },
      'is empty',
      'name the folder for the reports, e.g. --out ./skilltrigger-results (the default), or leave --out out',
    );
  }
  const target = resolve(outDir);
  let existing = target;
  for (;;) {
    const found: Stats | Error = await stat(existing).catch((error: unknown) =>
      error instanceof Error ? error : new Error(String(error)),
    );
    if (!(found instanceof Error)) {
      if (found.isDirectory()) break;
      throw new ReportWriteError(outDir, existing === target ? 'EEXIST' : 'ENOTDIR');
    }
    const code = errorCode(found);
    if ((code === 'ENOENT' || code === 'ENOTDIR') && dirname(existing) !== existing) {
      existing = dirname(existing);
      continue;
    }
    throw new ReportWriteError(outDir, code ?? 'unknown error');
  }
  try {
    await rmdir(await mkdtemp(join(existing, '.skilltrigger-probe-')));
  } catch (error) {
    throw new ReportWriteError(outDir, errorCode(error) ?? 'unknown error');
  }
}

/**
 * Refuses, before anything is spent, a path that a rendering written after the runs (`--junit`)
 * could not take: a folder, a path through a regular file, a folder that cannot be written. Its
 * folder is checked as `checkReportFolder` checks `--out`; nothing is created that stays.
 */
export async function checkRenderingFile(file: string, what: string, flag: string): Promise<void> {
  const refuse = (code: string) =>
    new SkilltriggerError(
      `cannot write the ${what} to ${file}: ${code} (${code === 'EISDIR' ? 'the path is a folder' : explainCode(code)}); nothing was measured. Fix: name a writable file with ${flag}`,
      ExitCode.input,
    );
  const found = await stat(file).catch(() => undefined);
  if (found?.isDirectory()) throw refuse('EISDIR');
  try {
    await checkReportFolder(dirname(file));
  } catch (error) {
    // Its folder being a regular file makes the file's path one through a file.
    if (error instanceof ReportWriteError) throw refuse(error.code === 'EEXIST' ? 'ENOTDIR' : error.code);
    throw error;
  }
}
