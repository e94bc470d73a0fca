/**
 * A context: the conversation before the query, as the turns a run starts with in its history
 * (docs/context.md). Read from a JSON array of `{role, content}` turns, or from a transcript the
 * user already has (a Claude Code session JSONL, a Codex rollout JSONL) read as its messages.
 * Pure: the file is read by the caller; every defect names the file, the line and the fix.
 */
import type { ContextTurn } from '../agents/agent.js';
import { messageOf } from '../errors.js';
import { sha256Hex } from '../schemas/privacy.js';
import { entryLines, jsonErrorPosition } from './eval-json.js';
import { codePointLength, describeValue, inputFailure, isRecord, Problems } from './problems.js';

export type ContextRole = ContextTurn['role'];
export type { ContextTurn };

/** Where the turns were read from. */
export type ContextFormat = 'turns' | 'claude-session' | 'codex-rollout';

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
  if (lines.some(({ value }) => value.type === 'session_meta' || value.type === 'response_item')) {
    return { turns: checkedTurns(codexRolloutTurns(lines), file), format: 'codex-rollout' };
  }
  if (
    lines.some(({ value }) => (value.type === 'user' || value.type === 'assistant') && 'message' in value)
  ) {
    return { turns: checkedTurns(claudeSessionTurns(lines), file), format: 'claude-session' };
  }
  throw inputFailure(
    { file, line: 1 },
    'is neither a JSON array of turns nor a Claude Code session or Codex rollout (JSON Lines)',
    `write the conversation as ${TURN_SHAPE}, or pass a session file as the CLI wrote it (~/.claude/projects/…/<id>.jsonl, ~/.codex/sessions/…/rollout-….jsonl)`,
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

interface JsonLine {
  line: number;
  value: Record<string, unknown>;
}

function readJsonLines(text: string, file: string): JsonLine[] {
  const out: JsonLine[] = [];
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

/** The texts of a content field: a string, or the blocks of the given types. */
function blockTexts(content: unknown, types: readonly string[]): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content
    .filter(isRecord)
    .filter((block) => types.includes(String(block.type)) && typeof block.text === 'string')
    .map((block) => block.text as string);
}

/**
 * A Claude Code session's main chain as messages: the `user` and `assistant` lines (not a
 * sub-agent's, not the CLI's meta lines), their text blocks only. Tool calls, tool results and
 * thinking are left out, so a user line that only answers a tool call adds nothing.
 */
function claudeSessionTurns(lines: readonly JsonLine[]): ContextTurn[] {
  const turns: ContextTurn[] = [];
  for (const { value } of lines) {
    if (value.type !== 'user' && value.type !== 'assistant') continue;
    if (value.isSidechain === true || value.isMeta === true || !isRecord(value.message)) continue;
    const text = blockTexts(value.message.content, ['text']).join('\n\n').trim();
    if (text !== '') turns.push({ role: value.type, content: text });
  }
  return turns;
}

/** What Codex writes into the history itself as a user message: not the user's words. */
const CODEX_INJECTED =
  /^(<(environment_context|user_instructions|turn_aborted|user_shell_command)>|# AGENTS\.md instructions)/;

/** A Codex rollout's conversation: its user and assistant message items, text only. */
function codexRolloutTurns(lines: readonly JsonLine[]): ContextTurn[] {
  const turns: ContextTurn[] = [];
  for (const { value } of lines) {
    const item = value.payload;
    if (value.type !== 'response_item' || !isRecord(item) || item.type !== 'message') continue;
    if (item.role !== 'user' && item.role !== 'assistant') continue;
    const texts = blockTexts(item.content, ['input_text', 'output_text']).filter(
      (t) => !CODEX_INJECTED.test(t.trimStart()),
    );
    const text = texts.join('\n\n').trim();
    if (text !== '') turns.push({ role: item.role, content: text });
  }
  return turns;
}
