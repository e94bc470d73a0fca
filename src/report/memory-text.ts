/** What a report says of its `--memory` files, in words (pure): counts, sizes and hashes, never text. */
import { agentFacts } from '../agents/registry.js';
import type { Report } from '../schemas/report.js';

/**
 * `2 files joined in order (1,240 bytes; SHA-256 aaaaaaaaaaaa, bbbbbbbbbbbb) in every run's project,
 * as CLAUDE.md (Claude Code)`; undefined when the runs held none.
 */
export function memoryText(report: Pick<Report, 'settings' | 'agents'>): string | undefined {
  const memory = report.settings.memory;
  if (memory === undefined || memory.length === 0) return undefined;
  const bytes = memory.reduce((sum, m) => sum + m.bytes, 0);
  const perAgent = memory.some((m) => m.agents !== undefined);
  const files =
    memory.length === 1
      ? '1 file'
      : `${memory.length} files${perAgent ? ', each for the agents that read it' : ' joined in order'}`;
  const hashes = memory.map((m) => m.sha256.slice(0, 12)).join(', ');
  const held = report.agents.filter((a) =>
    memory.some((m) => m.agents === undefined || m.agents.includes(a.name)),
  );
  const as = held.map((a) => `${agentFacts(a.name).memoryFile} (${agentFacts(a.name).label})`);
  return `${files} (${bytes.toLocaleString('en-US')} ${bytes === 1 ? 'byte' : 'bytes'}; SHA-256 ${hashes}) in every run's project, as ${as.join(', ')}`;
}
