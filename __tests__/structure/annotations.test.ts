import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';

/**
 * Every annotation and the step's failure go out through src/action/annotate.ts, which masks them
 * (src/mask.ts): no other module of src/ calls `core.error`, `core.warning`, `core.notice` or
 * `core.setFailed`, nor imports them by name from @actions/core.
 */
const SRC = resolve(import.meta.dirname, '../../src');
const THE_ONE = join(SRC, 'action', 'annotate.ts');
const DIRECT = /\bcore\s*\.\s*(error|warning|notice|setFailed)\s*\(|\bcore\s*\[/g;
const NAMED = /import\s*\{[^}]*\b(error|warning|notice|setFailed)\b[^}]*\}\s*from\s*'@actions\/core'/g;

it('only src/action/annotate.ts raises annotations or fails the step', () => {
  const found: string[] = [];
  for (const file of readdirSync(SRC, { recursive: true, encoding: 'utf8' })) {
    const full = join(SRC, file);
    if (!file.endsWith('.ts') || full === THE_ONE) continue;
    const text = readFileSync(full, 'utf8');
    for (const m of [...text.matchAll(DIRECT), ...text.matchAll(NAMED)]) {
      const line = text.slice(0, m.index).split('\n').length;
      found.push(`${relative(SRC, full)}:${line}: ${m[0]}`);
    }
  }
  expect(found).toEqual([]);
  // The pattern does see a call: the one module holds them all.
  expect(readFileSync(THE_ONE, 'utf8').match(DIRECT)?.length).toBe(4);
});
