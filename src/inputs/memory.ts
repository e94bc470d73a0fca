/**
 * Memory files (`run --memory`, docs/cli.md "Memory files"): the project instructions an agent
 * reads at its start (CLAUDE.md, AGENTS.md, GEMINI.md), installed into every run's temp project.
 * Pure: the rules a file must meet, how several are joined into the one file an agent reads, and
 * what a report may say of them (a hash and a size each, never the text).
 */
import { createHash } from 'node:crypto';
import type { AgentId } from '../agents/ids.js';

/** One memory file as read: where it came from (for messages only) and its text. */
export interface MemoryFile {
  file: string;
  text: string;
  /** The agents whose runs hold it (the Action's `memory: auto`); absent: every agent's. */
  agents?: readonly AgentId[];
}

/** What a report says of a memory file: the SHA-256 of its bytes and their number, and its agents. */
export interface MemorySummary {
  sha256: string;
  bytes: number;
  agents?: AgentId[];
}

/** The files an agent's runs hold, in order. */
export function memoryFor(files: readonly MemoryFile[], agent: AgentId): MemoryFile[] {
  return files.filter((f) => f.agents === undefined || f.agents.includes(agent));
}

/**
 * The most the files may hold together, in UTF-8 bytes: Codex reads at most 32 KiB of a project's
 * AGENTS.md files and drops the rest without a word (docs/codex.md "Memory files"), so a larger
 * memory would not be what every agent reads.
 */
export const MEMORY_MAX_BYTES = 32 * 1024;

/**
 * The one file's text an agent reads, from the files in order: a file alone as it is, byte for
 * byte; several each ending in a line break, with a blank line between two.
 */
export function joinMemory(files: readonly MemoryFile[]): string | undefined {
  if (files.length === 0) return undefined;
  if (files.length === 1) return files[0]?.text;
  return files.map(({ text }) => (text.endsWith('\n') ? text : `${text}\n`)).join('\n');
}

/** Each file by its hash and size, in order. */
export function memorySummaries(files: readonly MemoryFile[]): MemorySummary[] {
  return files.map(({ text, agents }) => {
    const bytes = Buffer.from(text, 'utf8');
    return {
      sha256: createHash('sha256').update(bytes).digest('hex'),
      bytes: bytes.length,
      ...(agents === undefined ? {} : { agents: [...agents] }),
    };
  });
}
