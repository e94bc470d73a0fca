import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { schemaFiles } from '../../scripts/schema-files.js';
import { MATRIX_SCHEMA_ID, matrixJsonSchemaUrl } from '../../src/schemas/matrix.js';
import { REPORT_SCHEMA_ID, REPORT_SCHEMA_VERSION, reportJsonSchemaUrl } from '../../src/schemas/report.js';
import { TOOL_VERSION } from '../../src/version.js';
import { matrixFixture, scriptedRuns } from '../fakes/matrix-report.js';
import { pairedReportFixture, reportFixture } from '../fakes/report-fixture.js';

/**
 * The published JSON Schemas under schema/ are what the zod schemas say. When this fails after a
 * schema change, regenerate them with `npm run schema` and commit the result.
 */
const DIR = new URL('../../schema/', import.meta.url);

describe('schema/', () => {
  it('holds exactly the generated files, each equal to what the code generates (else: npm run schema)', async () => {
    const files = schemaFiles();
    expect((await readdir(DIR)).sort()).toEqual(Object.keys(files).sort());
    for (const [name, text] of Object.entries(files)) {
      const committed = await readFile(new URL(name, DIR), 'utf8');
      expect(committed, `schema/${name} is out of date: run npm run schema`).toBe(text);
    }
  });

  it('the report schema accepts real reports and refuses a broken one (read back through zod from the JSON)', async () => {
    const json: unknown = JSON.parse(await readFile(new URL('report.schema.json', DIR), 'utf8'));
    const fromJson = z.fromJSONSchema(json as Parameters<typeof z.fromJSONSchema>[0]);
    const report = reportFixture({ $schema: reportJsonSchemaUrl(TOOL_VERSION) });
    expect(fromJson.safeParse(JSON.parse(JSON.stringify(report))).success).toBe(true);
    expect(fromJson.safeParse(JSON.parse(JSON.stringify(pairedReportFixture()))).success).toBe(true);
    // A v1 report without `$schema` is still valid: the field is optional.
    const { $schema: _, ...without } = report;
    expect(fromJson.safeParse(without).success).toBe(true);
    for (const broken of [
      { ...report, schema: 'other/report' },
      { ...report, verdict: 'passed' },
      { ...report, candidate: { ...report.candidate, queries: 'none' } },
      { ...report, extra: 1 },
    ]) {
      expect(fromJson.safeParse(broken).success).toBe(false);
    }
    expect(json).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: `skilltrigger report, version ${REPORT_SCHEMA_VERSION}`,
      properties: { schema: { const: REPORT_SCHEMA_ID } },
    });
  });

  it('the matrix schema accepts a matrix report and refuses a broken one (read back from the JSON)', async () => {
    const json: unknown = JSON.parse(await readFile(new URL('matrix.schema.json', DIR), 'utf8'));
    const fromJson = z.fromJSONSchema(json as Parameters<typeof z.fromJSONSchema>[0]);
    const report = matrixFixture(scriptedRuns);
    expect(report.$schema).toBe(matrixJsonSchemaUrl(report.tool.version));
    expect(fromJson.safeParse(JSON.parse(JSON.stringify(report))).success).toBe(true);
    for (const broken of [
      { ...report, schema: 'skilltrigger/report' },
      { ...report, queries: [{ ...report.queries[0], runs: [{ to: 'elsewhere' }] }] },
      { ...report, skills: [{ name: 'x', description: { bytes: 1, sha256: 'text' }, evalSet: null }] },
      { ...report, extra: 1 },
    ]) {
      expect(fromJson.safeParse(broken).success).toBe(false);
    }
    expect(json).toMatchObject({ properties: { schema: { const: MATRIX_SCHEMA_ID } } });
  });

  it('every report names the schema it follows', () => {
    expect(reportJsonSchemaUrl('1.2.3')).toBe(
      'https://unpkg.com/skilltrigger@1.2.3/schema/report.schema.json',
    );
  });
});
