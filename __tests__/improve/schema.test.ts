import { describe, expect, it } from 'vitest';
import { IMPROVE_SCHEMA_VERSION, improveReportSchema } from '../../src/schemas/improve.js';
import { improveFixture } from '../fakes/improve-fixture.js';

/**
 * The improve report's versions: version 2 added the budget, version 3 the optional `interrupted`,
 * version 4 the optional `settings.agent`; version 1 to 3 files still read, a newer one does not.
 */
describe('improve report versions', () => {
  it('writes version 4 and still reads version 1 to 3 files as written', () => {
    expect(IMPROVE_SCHEMA_VERSION).toBe(4);
    for (const schemaVersion of [1, 2, 3]) {
      const older = { ...improveFixture(), schemaVersion };
      expect(improveReportSchema.parse(older)).toEqual(older);
    }
  });

  it('refuses a version it does not know', () => {
    const result = improveReportSchema.safeParse({ ...improveFixture(), schemaVersion: 5 });
    expect(result.success).toBe(false);
  });
});
