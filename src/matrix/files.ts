import { matrixReportStem, readReportText, writeValidatedReport } from '../report/disk/files.js';
import type { ReportFileOptions, WrittenReport } from '../report/disk/folder.js';
import { renderHtml } from '../report/html/render.js';
import type { MatrixReport } from '../schemas/matrix.js';
import { TOOL_VERSION } from '../version.js';
import { parseMatrixReport, validateMatrixReport } from './read.js';

/**
 * A matrix report's files: its validation and its HTML page meet the disk through
 * src/report/disk/files.ts, which moves text only.
 */

/**
 * Writes `<outDir>/<matrixReportStem>.json`, `.md` and `.html` (`-2`, … when taken) as `writeReport` does,
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
    matrixReportStem(report),
    report,
    { what: 'matrix report', validate: validateMatrixReport },
    { markdown, html: () => renderHtml({ kind: 'matrix', report }, TOOL_VERSION) },
    options,
  );
}

/** Reads and validates a matrix report file (for `matrix --merge`). */
export async function readMatrixReportFile(path: string): Promise<MatrixReport> {
  return parseMatrixReport(await readReportText(path), path);
}
