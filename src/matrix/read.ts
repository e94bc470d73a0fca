import { InputError, messageOf } from '../errors.js';
import { isRecord } from '../guards.js';
import { jsonPath } from '../report/read/read.js';
import {
  MATRIX_SCHEMA_ID,
  MATRIX_SCHEMA_VERSION,
  type MatrixReport,
  matrixReportSchema,
  OLDEST_MATRIX_SCHEMA_VERSION,
} from '../schemas/matrix.js';

/**
 * Reading a matrix report back (`matrix --merge`, the writer's own check): from text to a validated
 * `MatrixReport`, or an InputError naming the file and what is wrong with it.
 */

const FIX =
  'pass a .json file written by `skilltrigger matrix`; if this is one, it was changed since, so measure again';

/** Validates an already-parsed value as a matrix report; `file` names it in the error. */
export function validateMatrixReport(value: unknown, file: string): MatrixReport {
  const record = isRecord(value) ? value : {};
  if (record.schema !== MATRIX_SCHEMA_ID)
    throw new InputError(
      { file },
      `not a skilltrigger matrix report: its "schema" is ${JSON.stringify(record.schema ?? null)}, not "${MATRIX_SCHEMA_ID}"`,
      FIX,
    );
  const version = record.schemaVersion;
  if (
    typeof version !== 'number' ||
    version < OLDEST_MATRIX_SCHEMA_VERSION ||
    version > MATRIX_SCHEMA_VERSION
  )
    throw new InputError(
      { file },
      `matrix report version ${JSON.stringify(version ?? null)}; this skilltrigger reads versions ${OLDEST_MATRIX_SCHEMA_VERSION} to ${MATRIX_SCHEMA_VERSION}`,
      'merge it with the skilltrigger version that wrote it',
    );
  const parsed = matrixReportSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((i) => `${jsonPath(i.path)}: ${i.message}`);
    throw new InputError({ file }, `does not match the matrix report schema (${issues.join('; ')})`, FIX);
  }
  return parsed.data;
}

/** Parses a matrix report file's text. */
export function parseMatrixReport(text: string, file: string): MatrixReport {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new InputError({ file }, `not valid JSON (${messageOf(error)})`, FIX);
  }
  return validateMatrixReport(value, file);
}
