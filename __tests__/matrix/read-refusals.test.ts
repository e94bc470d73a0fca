import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { parseMatrixReport, validateMatrixReport } from '../../src/matrix/read.js';
import { MATRIX_SCHEMA_VERSION } from '../../src/schemas/matrix.js';
import { matrixFixture } from '../fakes/matrix-fixture.js';

const FILE = 'legs/2025-03-14-matrix-shard-1-of-2.json';

/** The InputError a reader throws, as its file and problem. */
function refusal(read: () => unknown): { file?: string; problem: string } {
  try {
    read();
  } catch (error) {
    if (error instanceof InputError) return { file: error.location.file, problem: error.problem };
    throw error;
  }
  throw new Error('the reader accepted it');
}

describe('matrix report reader', () => {
  it('reads back a matrix report as written, with or without a byte-order mark', () => {
    const report = matrixFixture();
    const text = JSON.stringify(report);
    expect(parseMatrixReport(text, FILE)).toEqual(report);
    expect(parseMatrixReport(`\uFEFF${text}`, FILE)).toEqual(report);
  });

  it('names the file and what is wrong: not JSON, another schema, another version, a bad field', () => {
    expect(refusal(() => parseMatrixReport('{"schema":', FILE)).problem).toMatch(/^not valid JSON \(/);
    expect(refusal(() => validateMatrixReport({ schema: 'skilltrigger/report' }, FILE))).toEqual({
      file: FILE,
      problem:
        'not a skilltrigger matrix report: its "schema" is "skilltrigger/report", not "skilltrigger/matrix"',
    });
    expect(refusal(() => validateMatrixReport([], FILE)).problem).toBe(
      'not a skilltrigger matrix report: its "schema" is null, not "skilltrigger/matrix"',
    );
    const newer = { ...matrixFixture(), schemaVersion: MATRIX_SCHEMA_VERSION + 1 };
    expect(refusal(() => validateMatrixReport(newer, FILE)).problem).toBe(
      `matrix report version ${MATRIX_SCHEMA_VERSION + 1}; this skilltrigger reads versions 1 to ${MATRIX_SCHEMA_VERSION}`,
    );
    const broken = { ...matrixFixture(), createdAt: 42 };
    expect(refusal(() => validateMatrixReport(broken, FILE)).problem).toMatch(
      /^does not match the matrix report schema \(\$\.createdAt: /,
    );
  });
});
