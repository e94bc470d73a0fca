import { describe, expect, it } from 'vitest';
import { IMPROVE_SCHEMA_VERSION, improveReportSchema } from '../../src/shapes/improve.js';
import { improveFixture } from '../fakes/improve-fixture.js';

/** The improve report's versions: version 2 added the budget; a version 1 file still reads, a newer one does not. */
describe('improve report versions', () => {
  it('writes version 2 and still reads a version 1 file as written', () => {
    expect(IMPROVE_SCHEMA_VERSION).toBe(2);
    const v1 = { ...improveFixture(), schemaVersion: 1 };
    expect(improveReportSchema.parse(v1)).toEqual(v1);
  });

  it('refuses a version it does not know', () => {
    const result = improveReportSchema.safeParse({ ...improveFixture(), schemaVersion: 3 });
    expect(result.success).toBe(false);
  });
});
