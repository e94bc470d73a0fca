import { randomBytes } from 'node:crypto';
import { link } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ExitCode, InputError, SkilltriggerError } from '../errors.js';
import { errorCode } from '../guards.js';
import { readInputText } from '../inputs/input-file.js';
import { jsonPath } from '../report/read.js';
import { IMPROVE_SCHEMA_ID, type ImproveReport, improveReportSchema } from '../shapes/improve.js';
import { MATRIX_SCHEMA_ID, type MatrixReport, matrixReportSchema } from '../shapes/matrix.js';
import type { Report } from '../shapes/report.js';
import { claim, explainCode, removeQuietly, writeTemp } from './atomic-files.js';
import { exists } from './environment.js';
import { readReportFile } from './report-files.js';

/**
 * HTML pages of reports already on disk (`skilltrigger view`), written the way the reports are:
 * in full to a temporary name in the same folder, then claimed under the final name with a hard
 * link, so a reader never sees half a page and a page already there is never overwritten.
 */

/** `<name>.html` beside `<name>.json` (or beside a file of any other name, with `.html` added). */
export function pagePathFor(reportPath: string): string {
  return reportPath.endsWith('.json') ? `${reportPath.slice(0, -'.json'.length)}.html` : `${reportPath}.html`;
}

function stemOf(reportPath: string): string {
  const name = basename(reportPath);
  return name.endsWith('.json') ? name.slice(0, -'.json'.length) : name;
}

/** The page of `compare a b`: `<a>-vs-<b>.html` in the candidate's folder. */
export function comparePagePathFor(basePath: string, candPath: string): string {
  return join(dirname(candPath), `${stemOf(basePath)}-vs-${stemOf(candPath)}.html`);
}

/** A page that cannot be written (exit 1: a folder the user can fix). */
export class PageWriteError extends SkilltriggerError {
  constructor(
    readonly path: string,
    readonly code: string,
  ) {
    super(
      `cannot write the page ${path}: ${code} (${explainCode(code)}). Fix: make its folder writable, or copy the report somewhere writable and view it there`,
      ExitCode.input,
    );
  }
}

/** Writes the page `render` makes to `path` unless a file is there already. Returns whether it wrote it. */
export async function writePageIfMissing(path: string, render: () => string): Promise<boolean> {
  if (await exists(path)) return false;
  const temp = join(dirname(path), `${basename(path)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await writeTemp(temp, render());
    // False when another process wrote the page in the meantime: that page stands.
    return await claim(temp, path, link);
  } catch (error) {
    const code = errorCode(error);
    if (code === undefined || error instanceof SkilltriggerError) throw error;
    throw new PageWriteError(path, code);
  } finally {
    await removeQuietly(temp);
  }
}

/** A file `view` can draw: a measurement report, an improve report, or a routing matrix. */
export type PageSource =
  | { kind: 'report'; report: Report }
  | { kind: 'improve'; report: ImproveReport }
  | { kind: 'matrix'; report: MatrixReport };

/** The reports of their own schema `view` knows, by their `"schema"`, with what to call them in an error. */
const OTHER_REPORTS = {
  [IMPROVE_SCHEMA_ID]: { schema: improveReportSchema, what: 'improve report', command: 'improve' },
  [MATRIX_SCHEMA_ID]: { schema: matrixReportSchema, what: 'matrix report', command: 'matrix' },
} as const;

/**
 * Reads a file for `view`: an improve report (`"schema": "skilltrigger/improve"`) or a matrix
 * report (`"skilltrigger/matrix"`) is validated against its own schema; anything else is read as a
 * measurement report, with that reader's errors (no such file, not JSON, not a report, …).
 */
export async function readPageSource(path: string): Promise<PageSource> {
  let value: unknown;
  try {
    value = JSON.parse((await readInputText(path, 'the report')).replace(/^\uFEFF/, ''));
  } catch {
    value = undefined; // the report reader below names what is wrong
  }
  const schema =
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>).schema : undefined;
  if (schema !== IMPROVE_SCHEMA_ID && schema !== MATRIX_SCHEMA_ID) {
    return { kind: 'report', report: await readReportFile(path) };
  }
  const known = OTHER_REPORTS[schema];
  const parsed = known.schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const quoted = issues.slice(0, 3).map((issue) => `${jsonPath(issue.path)}: ${issue.message}`);
    throw new InputError(
      { file: path },
      `not a valid skilltrigger ${known.what}: ${quoted.join('; ')}${issues.length > 3 ? `; and ${issues.length - 3} more` : ''}`,
      `pass a ${known.what} written by \`skilltrigger ${known.command}\`; if this is one, it was changed since, so run ${known.command} again`,
    );
  }
  return schema === IMPROVE_SCHEMA_ID
    ? { kind: 'improve', report: parsed.data as ImproveReport }
    : { kind: 'matrix', report: parsed.data as MatrixReport };
}
