#!/usr/bin/env node
// `npm test`: vitest with its usual output, then one closing line `N passed, N failed` that CI reads
// (from vitest's JSON reporter, so the count is the runner's own, not parsed from text).
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const results = path.join(root, '.vitest-results.json');
rmSync(results, { force: true });
const run = spawnSync(
  process.execPath,
  [
    path.join(root, 'node_modules', 'vitest', 'vitest.mjs'),
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${results}`,
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit', cwd: root },
);
let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const summary = JSON.parse(readFileSync(results, 'utf8'));
  passed = summary.numPassedTests ?? 0;
  failed = summary.numFailedTests ?? 0;
  // A file that failed without a failing test (an import error, a failed hook) still counts once.
  for (const file of summary.testResults ?? []) {
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed').length;
    if (file.status === 'failed' && failedTests === 0) failed++;
  }
  skipped = (summary.numPendingTests ?? 0) + (summary.numTodoTests ?? 0);
} catch {
  failed = Math.max(1, failed);
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exitCode = run.status === 0 && failed === 0 ? 0 : run.status || 1;
