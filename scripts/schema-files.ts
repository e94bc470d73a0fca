import { z } from 'zod';
import { resultsFileSchema } from '../src/action/results/results-file.js';
import { MATRIX_SCHEMA_VERSION, matrixReportSchema } from '../src/schemas/matrix.js';
import { REPORT_SCHEMA_VERSION, reportSchema } from '../src/schemas/report.js';

/**
 * The published JSON Schemas (schema/*.schema.json), generated from the zod schemas that read and
 * write the files, so the two cannot drift: `npm run schema` writes them, and
 * __tests__/schema/published.test.ts fails when the committed files differ from what the code
 * says. Pure: file name → file text.
 */
export function schemaFiles(): Record<string, string> {
  const json = (schema: z.ZodType, title: string, description: string) => {
    // `reused: 'ref'`: a part used twice (a report inside the results file) is one `$defs` entry.
    const { $schema, ...body } = z.toJSONSchema(schema, { target: 'draft-2020-12', reused: 'ref' });
    return `${JSON.stringify({ $schema, title, description, ...body }, null, 2)}\n`;
  };
  return {
    'report.schema.json': json(
      reportSchema,
      `skilltrigger report, version ${REPORT_SCHEMA_VERSION}`,
      'A skilltrigger report (`skilltrigger run`): how often a description made Claude load the skill. Generated from src/schemas/report.ts; documented in docs/report-schema.md.',
    ),
    'action-results.schema.json': json(
      resultsFileSchema,
      'skilltrigger Action results file, version 1',
      'What one leg of a sharded skilltrigger Action run measured (`skilltrigger-results.shard-<i>-of-<n>.json`), read by the merge step. Generated from src/action/results/results-file.ts; documented in docs/action.md.',
    ),
    'matrix.schema.json': json(
      matrixReportSchema,
      `skilltrigger matrix report, version ${MATRIX_SCHEMA_VERSION}`,
      'A skilltrigger routing matrix (`skilltrigger matrix`): for every query of every skill, which installed skill each run loaded. Generated from src/schemas/matrix.ts; documented in docs/matrix.md.',
    ),
  };
}
