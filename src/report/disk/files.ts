import { InputError, messageOf, SkilltriggerError } from '../../errors.js';
import { errorCode } from '../../guards.js';
import { maskSecrets } from '../../mask.js';
import type { MatrixReport } from '../../schemas/matrix.js';
import type { Report } from '../../schemas/report.js';
import { readInputText } from '../../system/input-file.js';
import { type ReportFileOptions, type WrittenReport, writeNamedReport } from './folder.js';

/**
 * The only module that writes report files (and reads their text back from disk): what each kind
 * of report (a measurement, a routing matrix, the improve report) is named, and how it is masked
 * and checked before it is written. The check and the HTML page are the caller's, passed in as
 * functions (src/report/files.ts, src/matrix/files.ts): this module moves text only.
 *
 * How the files reach the disk — whole, never overwriting another report, with a fallback folder —
 * is src/report/disk/folder.ts (on the primitives of src/system/atomic-files.ts); its names
 * are re-exported here, the report writer's one surface.
 */

export { writeRenderingFile } from '../../system/atomic-files.js';
export {
  checkReportFolder,
  type ReportFileOptions,
  type ReportRenderings,
  ReportWriteError,
  type SavedElsewhere,
  type WrittenReport,
  writeNamedReport,
} from './folder.js';

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

/** A report file's text, or an InputError naming the file and what keeps it from being read. */
export async function readReportText(path: string): Promise<string> {
  try {
    return await readInputText(path, 'the report');
  } catch (error) {
    if (error instanceof SkilltriggerError) throw error;
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

/**
 * `<YYYY-MM-DD>-matrix` for a whole or merged matrix; a leg's (`matrix --shard i/n`, an Action leg of
 * `routing-matrix: true`) adds `-shard-<i>-of-<n>`, so the legs' files, gathered into one folder
 * (actions/download-artifact with `merge-multiple: true`), keep apart instead of overwriting one another.
 */
export function matrixReportStem(report: MatrixReport): string {
  const leg = report.shard === null ? '' : `-shard-${report.shard.index}-of-${report.shard.count}`;
  return `${report.createdAt.slice(0, 10)}-matrix${leg}`;
}

/** Where the JUnit XML of a written report goes when no path was named: `<stem>.junit.xml` beside it. */
export function junitPathFor(jsonPath: string): string {
  return `${jsonPath.replace(/\.json$/, '')}.junit.xml`;
}
