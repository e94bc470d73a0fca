import { writeFile } from 'node:fs/promises';
import { ROSTER_PRIVATE_NOTICE } from '../../src/schemas/roster-file.js';

/** A Codex roster file of `count` user skills named `s-000`…, each a description of `chars` characters. */
export async function writeCodexRoster(file: string, count: number, chars: number): Promise<string> {
  const entries = Array.from({ length: count }, (_, i) => ({
    kind: 'skill',
    source: 'user',
    name: `s-${String(i).padStart(3, '0')}`,
    chars,
  }));
  await writeFile(
    file,
    JSON.stringify({
      schema: 'skilltrigger/roster',
      schemaVersion: 1,
      private: ROSTER_PRIVATE_NOTICE,
      agent: 'codex',
      agentVersion: '0.169.0',
      entries,
    }),
  );
  return file;
}
