/**
 * Contexts and transcripts (part of the agent spec; docs/context.md): a context's earlier turns,
 * and how an agent's session file is recognised among JSON Lines and read as turns. Pure.
 */
import { isRecord } from '../guards.js';

/** One earlier turn of a context (docs/context.md): who said it and its text. */
export interface ContextTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** One line of a JSON Lines session file, with its line number. */
export interface TranscriptLine {
  line: number;
  value: Record<string, unknown>;
}

/**
 * An agent's session file as a context: how it is recognised among JSON Lines, and its
 * conversation read as turns (text only: tool calls, their results and thinking left out). Pure.
 */
export interface TranscriptFormat {
  /** The context's `format` when read from it: `claude-session`. */
  format: string;
  /** How an error names it: `Claude Code session`. */
  label: string;
  /** Where the agent writes one, for a fix: `~/.claude/projects/…/<id>.jsonl`. */
  where: string;
  /** Whether these lines are such a file. */
  recognises(lines: readonly TranscriptLine[]): boolean;
  turns(lines: readonly TranscriptLine[]): ContextTurn[];
}

/** The texts of a transcript's content field: a string, or its blocks of the given types. */
export function blockTexts(content: unknown, types: readonly string[]): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content
    .filter(isRecord)
    .filter((block) => types.includes(String(block.type)) && typeof block.text === 'string')
    .map((block) => block.text as string);
}
