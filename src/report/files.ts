import { InputError } from '../errors.js';
import { isRecord } from '../guards.js';
import { IMPROVE_SCHEMA_ID, type ImproveReport, improveReportSchema } from '../schemas/improve.js';
import { MATRIX_SCHEMA_ID, type MatrixReport, matrixReportSchema } from '../schemas/matrix.js';
import type { Report } from '../schemas/report.js';
import { TOOL_VERSION } from '../version.js';
import { readReportText, reportStem, writeValidatedReport } from './disk/files.js';
import type { ReportFileOptions, WrittenReport } from './disk/folder.js';
import { renderReportHtml } from './html/render.js';
import { improveIssues } from './read/improve-consistency.js';
import { jsonPath, parseReport, validateReport } from './read/read.js';

/**
 * A measurement report's files, and the reports `view` reads back: the report's own rules (its
 * validation, its HTML page) meet the disk through src/report/disk/files.ts, which moves text
 * only and never draws or validates a report itself.
 */

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

/** Reads and validates a report file (for `compare` and the Action's baseline). */
export async function readReportFile(path: string): Promise<Report> {
  return parseReport(await readReportText(path), path);
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
    value = JSON.parse((await readReportText(path)).replace(/^\uFEFF/, ''));
  } catch {
    value = undefined; // the report reader below names what is wrong
  }
  const schema = isRecord(value) ? value.schema : undefined;
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
  if (schema === IMPROVE_SCHEMA_ID) {
    const report = parsed.data as ImproveReport;
    const issues = improveIssues(report);
    if (issues.length > 0) {
      const quoted = issues.slice(0, 3).map((issue) => `${jsonPath(issue.path)}: ${issue.message}`);
      throw new InputError(
        { file: path },
        `not a consistent skilltrigger improve report: ${quoted.join('; ')}${issues.length > 3 ? `; and ${issues.length - 3} more` : ''}`,
        'the report was changed after improve wrote it, so its winner and evidence cannot be trusted; undo the edit, or run skilltrigger improve again',
      );
    }
  }
  return schema === IMPROVE_SCHEMA_ID
    ? { kind: 'improve', report: parsed.data as ImproveReport }
    : { kind: 'matrix', report: parsed.data as MatrixReport };
}
