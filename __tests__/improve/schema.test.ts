import { describe, expect, it } from 'vitest';
import { IMPROVE_SCHEMA_VERSION, improveReportSchema } from '../../src/schemas/improve.js';
import { improveFixture } from '../fakes/improve-fixture.js';

/**
 * The improve report's versions: version 2 added the budget, version 3 the optional `interrupted`;
 * version 1 and 2 files still read, a newer one does not.
 */
describe('improve report versions', () => {
  it('writes version 3 and still reads version 1 and 2 files as written', () => {
    expect(IMPROVE_SCHEMA_VERSION).toBe(3);
    for (const schemaVersion of [1, 2]) {
      const older = { ...improveFixture(), schemaVersion };
      expect(improveReportSchema.parse(older)).toEqual(older);
    }
  });

  it('refuses a version it does not know', () => {
    const result = improveReportSchema.safeParse({ ...improveFixture(), schemaVersion: 4 });
    expect(result.success).toBe(false);
  });
});
