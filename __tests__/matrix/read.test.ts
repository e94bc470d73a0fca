import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { parseMatrixReport } from '../../src/matrix/read.js';
import { MATRIX_SCHEMA_VERSION } from '../../src/schemas/matrix.js';
import { matrixFixture, scriptedRuns } from '../fakes/matrix-report.js';

/** A matrix report as a version 1 skilltrigger wrote it: no `settings.launch`. */
function versionOne() {
  const report = matrixFixture(scriptedRuns);
  const { launch: _, ...settings } = report.settings;
  return { ...report, schemaVersion: 1, settings };
}

describe('reading a matrix report back', () => {
  it('reads the current version with its launch, and a version 1 file without one', () => {
    const current = matrixFixture(scriptedRuns);
    expect(current.schemaVersion).toBe(MATRIX_SCHEMA_VERSION);
    expect(parseMatrixReport(JSON.stringify(current), 'now.json').settings.launch).toBe('standby');
    const old = parseMatrixReport(JSON.stringify(versionOne()), 'old.json');
    expect(old.schemaVersion).toBe(1);
    expect(old.settings.launch).toBeUndefined();
  });

  it("reads a version 2 file (before `agent`) as Claude Code's, and a Codex matrix's agent", () => {
    const two = parseMatrixReport(
      JSON.stringify({ ...matrixFixture(scriptedRuns), schemaVersion: 2 }),
      'two.json',
    );
    expect(two.schemaVersion).toBe(2);
    expect(two.agent).toBeUndefined();
    const codex = { ...matrixFixture(scriptedRuns), agent: 'codex' };
    expect(parseMatrixReport(JSON.stringify(codex), 'codex.json').agent).toBe('codex');
  });

  it('refuses a version it does not know, naming the file and the versions it reads', () => {
    for (const version of [0, MATRIX_SCHEMA_VERSION + 1, '2']) {
      const text = JSON.stringify({ ...matrixFixture(scriptedRuns), schemaVersion: version });
      let caught: unknown;
      try {
        parseMatrixReport(text, 'odd.json');
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(InputError);
      expect((caught as InputError).message).toContain(
        `odd.json: matrix report version ${JSON.stringify(version)}; this skilltrigger reads versions 1 to ${MATRIX_SCHEMA_VERSION}`,
      );
    }
  });

  it('refuses a launch that is neither standby nor cold', () => {
    const report = matrixFixture(scriptedRuns);
    const text = JSON.stringify({ ...report, settings: { ...report.settings, launch: 'warm' } });
    expect(() => parseMatrixReport(text, 'odd.json')).toThrow(/odd\.json: .*\$\.settings\.launch/);
  });
});
