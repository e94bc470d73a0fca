/**
 * A context: the conversation before the query, as the turns a run starts with in its history
 * (docs/context.md). Read from a JSON array of `{role, content}` turns, or from a transcript the
 * user already has (a Claude Code session JSONL, a Codex rollout JSONL) read as its messages.
 * Pure: the file is read by the caller; every defect names the file, the line and the fix.
 */
import { AGENTS } from '../agents/registry.js';
import type { ContextTurn, TranscriptFormat, TranscriptLine } from '../agents/transcript.js';
import { messageOf } from '../errors.js';
import { sha256Hex } from '../schemas/privacy.js';
import { entryLines, jsonErrorPosition } from './json-lines.js';
import { codePointLength, describeValue, inputFailure, isRecord, Problems } from './problems.js';

export type ContextRole = ContextTurn['role'];
export type { ContextTurn };

/** Where the turns were read from: `turns`, or an agent's transcript format (`claude-session`). */
export type ContextFormat = string;

/** The agents' session files a context may be, in registry order. */
const TRANSCRIPTS: readonly TranscriptFormat[] = Object.values(AGENTS).flatMap((a) =>
  a.transcript ? [a.transcript] : [],
);

export interface ParsedContext {
  turns: ContextTurn[];
  format: ContextFormat;
}

/** What a report may say of a context: never its text (docs/context.md, "Privacy"). */
export interface ContextSummary {
  /** SHA-256 of the turns as canonical JSON (`[{"role":…,"content":…},…]`), so two files with the same turns match. */
  sha256: string;
  turns: number;
  /** Characters (code points) of every turn's content together. */
  chars: number;
}

const TURN_SHAPE = '[{"role": "user", "content": "…"}, {"role": "assistant", "content": "…"}]';

export function describeContext(turns: readonly ContextTurn[]): ContextSummary {
  const canonical = JSON.stringify(turns.map(({ role, content }) => ({ role, content })));
  const chars = turns.reduce((n, t) => n + codePointLength(t.content), 0);
  return { sha256: sha256Hex(canonical), turns: turns.length, chars };
}

/**
 * Reads a context file's text: a JSON array of turns, else JSON Lines of a Claude Code session or a
 * Codex rollout. Throws `InputErrors` naming the file and the line.
 */
export function parseContextText(text: string, file: string): ParsedContext {
  const body = text.replace(/^\ufeff/, '');
  if (body.trimStart().startsWith('[')) return { turns: readTurnsJson(body, file), format: 'turns' };
  const lines = readJsonLines(body, file);
  const transcript = TRANSCRIPTS.find((t) => t.recognises(lines));
  if (transcript) return { turns: checkedTurns(transcript.turns(lines), file), format: transcript.format };
  throw inputFailure(
    { file, line: 1 },
    `is neither a JSON array of turns nor a ${TRANSCRIPTS.map((t) => t.label).join(' or ')} (JSON Lines)`,
    `write the conversation as ${TURN_SHAPE}, or pass a session file as the CLI wrote it (${TRANSCRIPTS.map((t) => t.where).join(', ')})`,
  );
}

/**
 * Inline turns (an eval-set entry's `context` given as a list): the same checks as a file's, each
 * defect added to `problems` at `location`. Undefined when a defect was found.
 */
export function readInlineTurns(
  value: readonly unknown[],
  location: { file: string; line?: number; entry?: string },
  problems: Problems,
): ContextTurn[] | undefined {
  const before = problems.count;
  const turns: ContextTurn[] = [];
  value.forEach((entry, index) => {
    const turn = readTurn(entry, `turn #${index + 1}`, location, problems);
    if (turn) turns.push(turn);
  });
  if (problems.count > before) return undefined;
  sequenceProblems(turns, location, problems);
  return problems.count > before ? undefined : turns;
}

function readTurnsJson(text: string, file: string): ContextTurn[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = messageOf(error);
    const at = jsonErrorPosition(message, text);
    throw inputFailure(
      { file, ...(at ? { line: at.line } : {}) },
      `is not valid JSON: ${message}`,
      at ? `fix the syntax at line ${at.line}, column ${at.column}` : 'check the file with a JSON validator',
    );
  }
  if (!Array.isArray(data)) throw inputFailure({ file, line: 1 }, 'is not a list', `write ${TURN_SHAPE}`);
  const lines = entryLines(text);
  const problems = new Problems();
  const turns: ContextTurn[] = [];
  data.forEach((entry: unknown, index) => {
    const line = lines[index];
    const location = { file, ...(line === undefined ? {} : { line }) };
    const turn = readTurn(entry, `turn #${index + 1}`, location, problems);
    if (turn) turns.push(turn);
  });
  problems.throwIfAny();
  sequenceProblems(turns, { file }, problems);
  problems.throwIfAny();
  return turns;
}

function readTurn(
  entry: unknown,
  label: string,
  location: { file: string; line?: number; entry?: string },
  problems: Problems,
): ContextTurn | undefined {
  const at = { ...location, entry: location.entry ? `${location.entry}, ${label}` : label };
  if (!isRecord(entry)) {
    problems.add(
      at,
      `is ${describeValue(entry)}, not a turn`,
      `write each turn as {"role": "user", "content": "…"}`,
    );
    return undefined;
  }
  const before = problems.count;
  const extra = Object.keys(entry).filter((key) => key !== 'role' && key !== 'content');
  if (extra.length > 0) {
    problems.add(
      at,
      `has ${extra.map((k) => JSON.stringify(k)).join(', ')}; a turn holds only "role" and "content"`,
      'write tool calls and their results as text in the turns (docs/context.md, "Tool calls")',
    );
  }
  const { role, content } = entry;
  if (role !== 'user' && role !== 'assistant') {
    problems.add(at, `has the role ${describeValue(role)}`, 'give "role": "user" or "role": "assistant"');
  }
  if (typeof content !== 'string' || content.trim() === '') {
    problems.add(
      at,
      `has the content ${describeValue(content)}`,
      "give the turn's text as a non-empty string",
    );
  }
  if (problems.count > before || (role !== 'user' && role !== 'assistant') || typeof content !== 'string') {
    return undefined;
  }
  return { role, content };
}

/**
 * The turns must read as a conversation the query continues: user first, the roles alternating,
 * the assistant last, so the query is the next user message (two user messages in a row would be
 * merged by the CLI into one).
 */
function sequenceProblems(
  turns: readonly ContextTurn[],
  location: { file: string; line?: number; entry?: string },
  problems: Problems,
): void {
  if (turns.length === 0) {
    problems.add(location, 'holds no turns', `write at least one exchange: ${TURN_SHAPE}`);
    return;
  }
  const where = (index: number) => ({
    ...location,
    entry: location.entry ? `${location.entry}, turn #${index + 1}` : `turn #${index + 1}`,
  });
  turns.forEach((turn, index) => {
    const expected: ContextRole = index % 2 === 0 ? 'user' : 'assistant';
    if (turn.role !== expected) {
      problems.add(
        where(index),
        `is a ${turn.role} turn where a ${expected} turn belongs (a context starts with the user, and the roles alternate)`,
        `join two turns of the same role into one, or add the missing ${expected} turn`,
      );
    }
  });
  if (turns.at(-1)?.role !== 'assistant') {
    problems.add(
      where(turns.length - 1),
      'ends the context with a user turn; the query is the next user message',
      "end the context with the assistant's answer",
    );
  }
}

/** The turns after merging neighbours of one role, checked as a conversation. */
function checkedTurns(turns: ContextTurn[], file: string): ContextTurn[] {
  const merged: ContextTurn[] = [];
  for (const turn of turns) {
    const last = merged.at(-1);
    if (last?.role === turn.role) last.content = `${last.content}\n\n${turn.content}`;
    else merged.push({ ...turn });
  }
  const problems = new Problems();
  sequenceProblems(merged, { file }, problems);
  problems.throwIfAny();
  return merged;
}

function readJsonLines(text: string, file: string): TranscriptLine[] {
  const out: TranscriptLine[] = [];
  const problems = new Problems();
  text.split('\n').forEach((raw, index) => {
    if (raw.trim() === '') return;
    const line = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      problems.add(
        { file, line },
        `is not a JSON object: ${messageOf(error)}`,
        'a session file holds one JSON object a line: remove the line or restore it from the CLI-written file',
      );
      return;
    }
    if (!isRecord(value)) {
      problems.add(
        { file, line },
        `is ${describeValue(value)}, not a JSON object`,
        'keep one JSON object a line',
      );
      return;
    }
    out.push({ line, value });
  });
  problems.throwIfAny();
  return out;
}
