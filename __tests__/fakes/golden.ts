import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/**
 * Compares `actual` with the golden file `__golden__/<name>` beside the test (`testUrl` is the
 * test's `import.meta.url`); `UPDATE_GOLDEN=1` rewrites the file instead (read the diff before
 * committing it).
 */
export function expectGolden(testUrl: string, name: string, actual: string): void {
  const path = fileURLToPath(new URL(`./__golden__/${name}`, testUrl));
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(path, actual);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}
