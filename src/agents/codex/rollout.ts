import { fileURLToPath } from 'node:url';
import { isRecord } from '../../guards.js';
import type { Usage } from '../../outcome.js';
import { asNumber, asString, jsonRecord } from '../process/json-line.js';

/**
 * The lines of Codex's session rollout (`CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`) that the
 * Codex decision reads, parsed from `unknown` (docs/codex.md "The session rollout"). Codex writes
 * one JSON object per line, in the order things happened: the model's output items as each one is
 * streamed, a command when it has completed, a call's output once the whole response has streamed
 * and the call has returned. A line this version does not know, or a field of the wrong type,
 * becomes `other`/`unparseable`: a new line type must never crash a run or decide one.
 */
export type RolloutEntry =
  /** The session's first line: its id is the `thread_id` of `--json`. */
  | { kind: 'session'; id: string }
  /** A model output item: an assistant message (commentary or final answer) or a reasoning item. */
  | { kind: 'message'; phase?: string }
  | { kind: 'reasoning' }
  /** A tool call of the model (`custom_tool_call` such as `exec`, or a `function_call`). */
  | { kind: 'call'; callId: string; name: string }
  /** The output of a call, recorded only after the response that made it has ended. */
  | { kind: 'call-output'; callId: string }
  /** A command that ran (`item_completed` of a `CommandExecution`): its argv and working folder. */
  | { kind: 'command'; argv: string[]; cwd?: string; exitCode?: number }
  /** An action that is not a command (a file change, an MCP or dynamic tool call, a web search…). */
  | { kind: 'action'; type: string }
  /** The developer message holding `<skills_instructions>`: the skill listing this run's request sent. */
  | { kind: 'listing'; text: string }
  /** Usage so far (`token_count`): the whole session's totals. */
  | { kind: 'usage'; usage: Usage }
  /** The turn ended (`task_complete`), with the failure's message when it failed. */
  | { kind: 'turn-end'; error?: string }
  | { kind: 'other'; type: string }
  | { kind: 'unparseable' };

/** `item_completed` item types that act on the world without running a command. */
const ACTIONS = new Set([
  'FileChange',
  'McpToolCall',
  'DynamicToolCall',
  'WebSearch',
  'ImageGeneration',
  'CollabAgentToolCall',
]);

/** `total_token_usage`: `cached_input_tokens` is the part of `input_tokens` the cache served. */
export function parseCodexUsage(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const n = (key: string): number => Math.max(0, asNumber(value[key]) ?? 0);
  const cached = n('cached_input_tokens');
  return {
    inputTokens: Math.max(0, n('input_tokens') - cached),
    outputTokens: n('output_tokens'),
    cacheReadInputTokens: cached,
    cacheCreationInputTokens: n('cache_write_input_tokens'),
  };
}

function responseItem(payload: Record<string, unknown>): RolloutEntry {
  const type = asString(payload.type) ?? '';
  const callId = asString(payload.call_id);
  switch (type) {
    case 'message': {
      if (payload.role === 'developer') {
        const listing = listingText(payload.content);
        if (listing !== undefined) return { kind: 'listing', text: listing };
      }
      if (payload.role !== 'assistant') return { kind: 'other', type: `message:${String(payload.role)}` };
      const phase = asString(payload.phase);
      return { kind: 'message', ...(phase === undefined ? {} : { phase }) };
    }
    case 'reasoning':
      return { kind: 'reasoning' };
    case 'custom_tool_call':
    case 'function_call':
      return callId === undefined
        ? { kind: 'other', type }
        : { kind: 'call', callId, name: asString(payload.name) ?? '' };
    case 'custom_tool_call_output':
    case 'function_call_output':
      return callId === undefined ? { kind: 'other', type } : { kind: 'call-output', callId };
    default:
      return { kind: 'other', type };
  }
}

/** The text part of a developer message's content that holds the skill listing. */
function listingText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  for (const part of content) {
    const text = isRecord(part) ? asString(part.text) : undefined;
    if (text?.includes('<skills_instructions>')) return text;
  }
  return undefined;
}

/** The command's working folder: a `file://` URL in this version, a plain path accepted too. */
function folderOf(value: unknown): string | undefined {
  const text = asString(value);
  if (text === undefined || text === '') return undefined;
  if (!text.startsWith('file://')) return text.startsWith('/') ? text : undefined;
  try {
    return fileURLToPath(text);
  } catch {
    return undefined;
  }
}

function completedItem(item: Record<string, unknown>): RolloutEntry {
  const type = asString(item.type) ?? '';
  if (type === 'CommandExecution') {
    const argv = Array.isArray(item.command) ? item.command.filter((w) => typeof w === 'string') : [];
    if (argv.length === 0) return { kind: 'other', type };
    const cwd = folderOf(item.cwd);
    const exitCode = asNumber(item.exit_code);
    return {
      kind: 'command',
      argv,
      ...(cwd === undefined ? {} : { cwd }),
      ...(exitCode === undefined ? {} : { exitCode }),
    };
  }
  return ACTIONS.has(type) ? { kind: 'action', type } : { kind: 'other', type: `item:${type}` };
}

function eventMessage(payload: Record<string, unknown>): RolloutEntry {
  const type = asString(payload.type) ?? '';
  switch (type) {
    case 'item_completed':
      return isRecord(payload.item) ? completedItem(payload.item) : { kind: 'other', type };
    case 'token_count': {
      const usage = isRecord(payload.info) ? parseCodexUsage(payload.info.total_token_usage) : undefined;
      return usage === undefined ? { kind: 'other', type } : { kind: 'usage', usage };
    }
    case 'task_complete': {
      // A failed turn carries its error; a successful one has `error` absent or null.
      if (!isRecord(payload.error)) return { kind: 'turn-end' };
      return { kind: 'turn-end', error: asString(payload.error.message) ?? '' };
    }
    default:
      return { kind: 'other', type };
  }
}

export function parseRolloutLine(line: string): RolloutEntry {
  const value = jsonRecord(line);
  if (value === undefined) return { kind: 'unparseable' };
  const type = asString(value.type) ?? '';
  const payload = isRecord(value.payload) ? value.payload : undefined;
  if (payload === undefined) return { kind: 'other', type };
  switch (type) {
    case 'session_meta': {
      const id = asString(payload.id);
      return id === undefined ? { kind: 'other', type } : { kind: 'session', id };
    }
    case 'response_item':
      return responseItem(payload);
    case 'event_msg':
      return eventMessage(payload);
    default:
      return { kind: 'other', type };
  }
}
