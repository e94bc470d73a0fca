/**
 * Whether two reports' runs held the same memory files (`run --memory`, docs/cli.md "Memory
 * files"): project instructions change what the model loads, so a difference is warned about,
 * by the files' counts, sizes and hashes only.
 */
import type { Report } from '../schemas/report.js';
import type { ComparisonWarning } from './comparison.js';

type Memory = Report['settings']['memory'];

/** `2 memory files, 1,234 bytes (ab12cd34ef56, 0123456789ab)`, or `no memory file`. */
function said(memory: Memory): string {
  if (memory === undefined || memory.length === 0) return 'no memory file';
  const bytes = memory.reduce((sum, m) => sum + m.bytes, 0);
  const files = memory.length === 1 ? '1 memory file' : `${memory.length} memory files`;
  return `${files}, ${bytes.toLocaleString('en-US')} bytes (${memory.map((m) => m.sha256.slice(0, 12)).join(', ')})`;
}

/** The order matters too: the files are joined in it into the one file an agent reads. */
function key(memory: Memory): string {
  return (memory ?? []).map((m) => `${m.sha256}:${(m.agents ?? []).join('+')}`).join(',');
}

/** A `memory` warning when the two reports' runs did not hold the same files, in the same order. */
export function memoryWarnings(
  a: Report,
  b: Report,
  names: { base: string; cand: string },
): ComparisonWarning[] {
  if (key(a.settings.memory) === key(b.settings.memory)) return [];
  return [
    {
      code: 'memory',
      message: `the memory files every run held differ (run --memory): ${names.base} ${said(a.settings.memory)}, ${names.cand} ${said(b.settings.memory)}; project instructions can route the model to a skill, or away from it`,
    },
  ];
}
