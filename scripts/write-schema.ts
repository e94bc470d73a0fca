import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { schemaFiles } from './schema-files.js';

/** `npm run schema`: regenerates schema/*.schema.json from the zod schemas. */
const dir = new URL('../../schema/', import.meta.url);
for (const [name, text] of Object.entries(schemaFiles())) {
  await writeFile(new URL(name, dir), text);
  process.stdout.write(`wrote ${fileURLToPath(new URL(name, dir))}\n`);
}
