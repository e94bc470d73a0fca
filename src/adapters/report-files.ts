import { randomBytes } from 'node:crypto';
import { copyFile, link, mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ExitCode, InputError, SkilltriggerError } from '../errors.js';
import { parseReport, validateReport } from '../report/read.js';
import type { Report } from '../report/schema.js';

/**
 * The only module that writes report files (and reads them back from disk).
 *
 * A report is never half-written and never overwrites another: each file is written in full to a
 * temporary name in the same folder, then claimed under its final name with a hard link, which
 * fails if the name exists. Two runs finishing at once in one folder get `-2`, `-3`, … instead of
 * one clobbering the other; a reader never sees a partial file.
 */

/** The files a report was written to. */
export interface WrittenReport {
  jsonPath: string;
  markdownPath: string;
}

export interface ReportFileOptions {
  /**
   * Replaces `fs.link`, so tests can act out a filesystem without hard links (FAT, some network
   * mounts); the writer then claims names with an exclusive create and a rename.
   */
  link?: (existingPath: string, newPath: string) => Promise<void>;
}

/** A report folder that cannot be created or written. Exit 1: a usage problem the user can fix. */
export class ReportWriteError extends SkilltriggerError {
  constructor(
    readonly dir: string,
    readonly code: string,
  ) {
    super(
      `cannot write the report to ${dir}: ${code} (${explainCode(code)}). Fix: choose a writable folder with --out, or fix that folder's permissions`,
      ExitCode.input,
    );
  }
}

function explainCode(code: string): string {
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EDQUOT':
      return 'disk quota exceeded';
    case 'ENOTDIR':
      return 'part of the path is a file, not a folder';
    case 'EEXIST':
      return 'the path exists and is not a folder';
    case 'ENAMETOOLONG':
      return 'the path is too long';
    default:
      return 'the operating system refused';
  }
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/** An OS error becomes a ReportWriteError naming the folder; anything else is a bug and propagates. */
function asWriteError(dir: string, error: unknown): unknown {
  const code = errorCode(error);
  return code === undefined || error instanceof SkilltriggerError ? error : new ReportWriteError(dir, code);
}

/** Error codes with which `link` says the filesystem has no hard links, rather than that the name is taken. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** Enough for any number of reports a day; a bound so a broken filesystem cannot loop us forever. */
const MAX_SUFFIX = 10_000;

/**
 * The skill name as a file-name part. The name comes from the user's frontmatter, so anything
 * that could leave the folder (`/`, `..`) or trouble a filesystem is replaced.
 */
export function fileNamePart(skill: string): string {
  const safe = skill
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 64)
    .replace(/[-.]+$/, '');
  return safe === '' ? 'skill' : safe;
}

/** `<YYYY-MM-DD>-<skill>`, the date the report was created, in UTC. */
export function reportStem(report: Report): string {
  return `${new Date(report.createdAt).toISOString().slice(0, 10)}-${fileNamePart(report.skill)}`;
}

async function writeTemp(path: string, data: string): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    await handle.writeFile(data, 'utf8');
    // On disk before its name is published: a crash after the link must not leave an empty report.
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function removeQuietly(path: string): Promise<void> {
  await unlink(path).catch(() => undefined);
}

/**
 * Publishes `temp` as `target` unless `target` exists. Returns false when the name is taken.
 * Without hard links: an exclusive create reserves the name, then a copy of the temp file is
 * renamed over the reservation (a reader may see it empty for a moment, never partly written).
 */
async function claim(
  temp: string,
  target: string,
  linkFile: NonNullable<ReportFileOptions['link']>,
): Promise<boolean> {
  try {
    await linkFile(temp, target);
    return true;
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EEXIST') return false;
    if (code === undefined || !NO_HARD_LINKS.has(code)) throw error;
  }
  try {
    await (await open(target, 'wx')).close();
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
  const copy = `${temp}-copy`;
  try {
    await copyFile(temp, copy);
    await rename(copy, target);
  } catch (error) {
    await removeQuietly(copy);
    await removeQuietly(target);
    throw error;
  }
  return true;
}

/**
 * Writes `<outDir>/<YYYY-MM-DD>-<skill>.json` and the Markdown beside it under the same stem
 * (`-2`, `-3`, … when the day already has one), creating `outDir`. The report is validated as it
 * will be read back first: a report that does not match its schema is a bug, and is not written.
 */
export async function writeReport(
  outDir: string,
  report: Report,
  markdown: string,
  options: ReportFileOptions = {},
): Promise<WrittenReport> {
  const json = `${JSON.stringify(report, null, 2)}\n`;
  try {
    validateReport(JSON.parse(json), 'the report about to be written');
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(
      `skilltrigger bug: the report does not match its own schema, so it was not written: ${detail}`,
    );
  }
  const linkFile = options.link ?? link;
  const stem = reportStem(report);
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const jsonTemp = join(outDir, `${stem}.json.tmp-${tag}`);
  const markdownTemp = join(outDir, `${stem}.md.tmp-${tag}`);
  try {
    await mkdir(outDir, { recursive: true });
    await writeTemp(jsonTemp, json);
    await writeTemp(markdownTemp, markdown);
    for (let n = 1; n <= MAX_SUFFIX; n++) {
      const name = n === 1 ? stem : `${stem}-${n}`;
      const jsonPath = join(outDir, `${name}.json`);
      const markdownPath = join(outDir, `${name}.md`);
      // The JSON name is the claim on the stem; only its holder tries the matching .md.
      if (!(await claim(jsonTemp, jsonPath, linkFile))) continue;
      if (await claim(markdownTemp, markdownPath, linkFile)) return { jsonPath, markdownPath };
      // A stray .md holds this stem (its JSON was deleted): give the stem back, never overwrite.
      await unlink(jsonPath);
    }
    throw new SkilltriggerError(
      `cannot write the report to ${outDir}: ${MAX_SUFFIX} names for ${stem} are taken. Fix: choose another folder with --out`,
      ExitCode.input,
    );
  } catch (error) {
    throw asWriteError(outDir, error);
  } finally {
    await removeQuietly(jsonTemp);
    await removeQuietly(markdownTemp);
  }
}

/** Reads and validates a report file (for `compare` and the Action's baseline). */
export async function readReportFile(path: string): Promise<Report> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = errorCode(error);
    switch (code) {
      case 'ENOENT':
        throw new InputError(
          { file: path },
          'no such file',
          'check the path; `skilltrigger run` writes reports to ./skilltrigger-results unless --out says otherwise',
        );
      case 'EISDIR':
        throw new InputError(
          { file: path },
          'is a folder, not a report',
          'name the .json report file inside it',
        );
      case 'EACCES':
      case 'EPERM':
        throw new InputError(
          { file: path },
          `cannot be read (${code}: permission denied)`,
          'fix its permissions',
        );
      case undefined:
        throw error;
      default:
        throw new InputError({ file: path }, `cannot be read (${code})`);
    }
  }
  return parseReport(text, path);
}
