import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import {
  copyFile,
  link,
  mkdir,
  mkdtemp,
  open,
  readFile,
  rename,
  rmdir,
  stat,
  unlink,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { ExitCode, InputError, messageOf, SkilltriggerError } from '../errors.js';
import { maskSecrets } from '../mask.js';
import { parseMatrixReport, validateMatrixReport } from '../matrix/read.js';
import type { MatrixReport } from '../matrix/schema.js';
import { renderHtml, renderReportHtml } from '../report/html/render.js';
import { parseReport, validateReport } from '../report/read.js';
import type { Report } from '../report/schema.js';
import { TOOL_VERSION } from '../version.js';

/**
 * The only module that writes report files (and reads them back from disk).
 *
 * A report is never half-written and never overwrites another: each file is written in full to a
 * temporary name in the same folder, then claimed under its final name with a hard link, which
 * fails if the name exists. Two runs finishing at once in one folder get `-2`, `-3`, … instead of
 * one clobbering the other; a reader never sees a partial file.
 *
 * Beside the JSON and the Markdown goes the report's HTML page, rendered here from the report
 * itself, so every writer of reports writes one.
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
  link?: (existingPath: string, newPath: string) => Promise<void>;
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

export function explainCode(code: string): string {
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

export function errorCode(error: unknown): string | undefined {
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

/**
 * `mkdir -p`, with the OS's real reason when it fails. Node's recursive mkdir says ENOENT when a
 * folder cannot be made on a read-only filesystem; making the first missing folder on its own
 * gives the reason the user must fix (EROFS, EACCES).
 */
async function makeFolder(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
    let missing = dir;
    while (
      dirname(missing) !== missing &&
      errorCode(await stat(dirname(missing)).catch((e) => e)) === 'ENOENT'
    ) {
      missing = dirname(missing);
    }
    await mkdir(missing);
    await mkdir(dir, { recursive: true });
  }
}

export async function writeTemp(path: string, data: string): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    await handle.writeFile(data, 'utf8');
    // On disk before its name is published: a crash after the link must not leave an empty report.
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function removeQuietly(path: string): Promise<void> {
  await unlink(path).catch(() => undefined);
}

/**
 * Publishes `temp` as `target` unless `target` exists. Returns false when the name is taken.
 * Without hard links: an exclusive create reserves the name, then a copy of the temp file is
 * renamed over the reservation (a reader may see it empty for a moment, never partly written).
 */
export async function claim(
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
 * Writes `<outDir>/<YYYY-MM-DD>-<skill>.json` and the Markdown and HTML beside it under the same stem
 * (`-2`, `-3`, … when the day already has one), creating `outDir`. The report is validated as it
 * will be read back first: a report that does not match its schema is a bug, and is not written.
 *
 * A report holds minutes of model calls, so a folder that refuses it (read-only, full, a path
 * through a file) does not lose it: it is written to a fresh folder under the temp folder instead,
 * or, when that fails too, carried in the error's message, and the error (exit 1) says where.
 */
export async function writeReport(
  outDir: string,
  report: Report,
  markdown: string,
  options: ReportFileOptions = {},
): Promise<Required<WrittenReport>> {
  const written = await writeValidatedReport(
    outDir,
    reportStem(report),
    report,
    { what: 'report', validate: validateReport },
    { markdown, html: () => renderReportHtml(report, TOOL_VERSION) },
    options,
  );
  return { ...written, htmlPath: written.htmlPath ?? '' };
}

/** What the validating writer needs to know of a report type. */
export interface ReportType {
  /** Names it in the bug message: `the <what> does not match its own schema`. */
  what: string;
  /** The check its reader applies to a file read back; throws when the value does not match. */
  validate: (value: unknown, file: string) => unknown;
}

/**
 * The one validating writer, behind `writeReport`, `writeMatrixReport` and the improve report:
 * masks the JSON and the Markdown like every other output (src/mask.ts: no free text of a report
 * should ever hold a key), validates the masked JSON as it will be read back (a report that does
 * not match its own schema is a bug, and nothing is written), then renders the page, masked too,
 * and writes the three as `writeNamedReport` does, with its fallback.
 */
export async function writeValidatedReport(
  outDir: string,
  stem: string,
  report: unknown,
  type: ReportType,
  renderings: { markdown: string; html?: () => string },
  options: ReportFileOptions = {},
): Promise<WrittenReport> {
  const json = maskSecrets(`${JSON.stringify(report, null, 2)}\n`);
  try {
    type.validate(JSON.parse(json), `the ${type.what} about to be written`);
  } catch (error) {
    throw new Error(
      `skilltrigger bug: the ${type.what} does not match its own schema, so it was not written: ${messageOf(error)}`,
    );
  }
  const markdown = maskSecrets(renderings.markdown);
  const html = renderings.html === undefined ? {} : { html: maskSecrets(renderings.html()) };
  return writeNamedReport(outDir, stem, { json, markdown, ...html }, options);
}

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
    try {
      const dir = await mkdtemp(join(fallbackDir, 'skilltrigger-unsaved-'));
      saved = { kind: 'fallback', report: await writeReportFiles(dir, stem, files, linkFile) };
    } catch (fallbackError) {
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
  linkFile: NonNullable<ReportFileOptions['link']>,
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

/** Reads and validates a report file (for `compare` and the Action's baseline). */
export async function readReportFile(path: string): Promise<Report> {
  return parseReport(await readReportText(path), path);
}

/** A report file's text, or an InputError naming the file and what keeps it from being read. */
async function readReportText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
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
}

/** Reads and validates a matrix report file (for `matrix --merge`). */
export async function readMatrixReportFile(path: string): Promise<MatrixReport> {
  return parseMatrixReport(await readReportText(path), path);
}

/**
 * Writes `<outDir>/<YYYY-MM-DD>-matrix.json`, `.md` and `.html` (`-2`, … when taken) as `writeReport` does,
 * with the same fallback. Validated as it will be read back and masked first: a matrix report that
 * does not match its schema is a bug, and is not written.
 */
export async function writeMatrixReport(
  outDir: string,
  report: MatrixReport,
  markdown: string,
  options: ReportFileOptions = {},
): Promise<WrittenReport> {
  return writeValidatedReport(
    outDir,
    `${report.createdAt.slice(0, 10)}-matrix`,
    report,
    { what: 'matrix report', validate: validateMatrixReport },
    { markdown, html: () => renderHtml({ kind: 'matrix', report }, TOOL_VERSION) },
    options,
  );
}

/** Where the JUnit XML of a written report goes when no path was named: `<stem>.junit.xml` beside it. */
export function junitPathFor(jsonPath: string): string {
  return `${jsonPath.replace(/\.json$/, '')}.junit.xml`;
}

/**
 * Writes a rendering of the report (the JUnit XML of `run --junit <file>`) to the exact path the
 * user named, creating its folder. Unlike a report it replaces an older file of that name (CI
 * reads one fixed path), but never half-written: in full to a temporary name beside it, then
 * renamed over it. Called after the report is written, so a refused path loses no measurement.
 */
export async function writeRenderingFile(
  file: string,
  text: string,
  what: string,
  flag: string,
): Promise<void> {
  const temp = join(dirname(file), `.${basename(file)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await makeFolder(dirname(file));
    await writeTemp(temp, text);
    await rename(temp, file);
  } catch (error) {
    await removeQuietly(temp);
    const code = errorCode(error);
    if (code === undefined) throw error;
    throw new SkilltriggerError(
      `cannot write the ${what} to ${file}: ${code} (${code === 'EISDIR' ? 'the path is a folder' : explainCode(code)}). The report itself was written. Fix: name a writable file with ${flag}`,
      ExitCode.input,
    );
  }
}
