import type { AgentChoice } from '../agents/ids.js';
import { agentFacts } from '../agents/registry.js';
import { type MemoryFile, memorySummaries } from '../inputs/memory.js';
import { loadMemoryFiles } from '../inputs/memory-file.js';
import type { CliIo } from './output.js';

/**
 * `--memory <file>`…: the files read and checked before anything is spent (docs/cli.md "Memory
 * files"); stderr says how many, their size, and the file each agent's runs hold them in.
 */
export async function runMemory(
  files: readonly string[],
  agents: readonly AgentChoice[],
  io: CliIo,
): Promise<MemoryFile[]> {
  if (files.length === 0) return [];
  const memory = await loadMemoryFiles(files);
  io.stderr.write(`${memoryLine(memory, agents)}\n`);
  return memory;
}

/** `memory: 2 files (1,234 bytes) in every run's project, as CLAUDE.md (Claude Code), AGENTS.md (Codex)`. */
export function memoryLine(memory: readonly MemoryFile[], agents: readonly AgentChoice[]): string {
  const bytes = memorySummaries(memory).reduce((sum, m) => sum + m.bytes, 0);
  const where = [...new Set(agents.map((a) => a.agent))]
    .map((id) => `${agentFacts(id).memoryFile} (${agentFacts(id).label})`)
    .join(', ');
  const count = memory.length === 1 ? '1 file' : `${memory.length} files joined in order`;
  return `memory: ${count} (${bytes.toLocaleString('en-US')} bytes) in every run's project, as ${where}`;
}
