import { isRecord } from '../../guards.js';
import type { Usage } from '../../outcome.js';
import { asNumber, asString, jsonRecord } from '../process/json-line.js';

/**
 * The subset of `codex exec --json` lines the Codex decision reads (docs/codex.md "What --json
 * prints"), parsed from `unknown`. A line that is not JSON, or an event or item type this version
 * does not know, becomes `other`/`unparseable`: a new event type must never crash a run.
 */
export type CodexItem =
  | { kind: 'reasoning' }
  | { kind: 'agent-message'; text: string }
  | {
      kind: 'command';
      /** The command line as Codex prints it, e.g. `/bin/bash -lc 'cat /abs/SKILL.md'`. */
      command: string;
      exitCode?: number;
    }
  /** An `error` item: Codex's own notice inside a turn (a tool refused), not an API failure. */
  | { kind: 'error-item'; message: string }
  /** file_change, mcp_tool_call, web_search, collab_tool_call…: an action, never a skill load. */
  | { kind: 'other-action'; type: string }
  /** todo_list: a plan update, not an action on the request. */
  | { kind: 'plan' }
  /** An item type this version does not know: never decisive. */
  | { kind: 'unknown'; type: string };

export type CodexEvent =
  | { type: 'thread-started'; threadId?: string }
  | { type: 'turn-started' }
  | { type: 'item'; phase: 'started' | 'updated' | 'completed'; id: string; item: CodexItem }
  | { type: 'turn-completed'; usage?: Usage }
  | { type: 'turn-failed'; message: string }
  /** A top-level `error` event: a reconnect notice or the failure about to end the turn. */
  | { type: 'error'; message: string }
  | { type: 'other'; name: string }
  | { type: 'unparseable' };

/** turn.completed's usage: `cached_input_tokens` is the part of `input_tokens` the cache served. */
function parseUsage(value: unknown): Usage | undefined {
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

function parseItem(value: Record<string, unknown>): CodexItem {
  const type = asString(value.type) ?? '';
  switch (type) {
    case 'reasoning':
      return { kind: 'reasoning' };
    case 'agent_message':
      return { kind: 'agent-message', text: asString(value.text) ?? '' };
    case 'command_execution': {
      const exitCode = asNumber(value.exit_code);
      return {
        kind: 'command',
        command: asString(value.command) ?? '',
        ...(exitCode === undefined ? {} : { exitCode }),
      };
    }
    case 'error':
      return { kind: 'error-item', message: asString(value.message) ?? '' };
    case 'todo_list':
      return { kind: 'plan' };
    case 'file_change':
    case 'mcp_tool_call':
    case 'web_search':
    case 'collab_tool_call':
      return { kind: 'other-action', type };
    default:
      return { kind: 'unknown', type };
  }
}

/** A Map, not an object: a type named "constructor" or "toString" must not find a prototype member. */
const ITEM_PHASES = new Map<string, 'started' | 'updated' | 'completed'>([
  ['item.started', 'started'],
  ['item.updated', 'updated'],
  ['item.completed', 'completed'],
]);

export function parseCodexEvent(line: string): CodexEvent {
  const value = jsonRecord(line);
  if (value === undefined) return { type: 'unparseable' };
  const type = asString(value.type) ?? '';
  const phase = ITEM_PHASES.get(type);
  if (phase !== undefined) {
    const item = isRecord(value.item) ? value.item : {};
    return { type: 'item', phase, id: asString(item.id) ?? '', item: parseItem(item) };
  }
  switch (type) {
    case 'thread.started': {
      const threadId = asString(value.thread_id);
      return { type: 'thread-started', ...(threadId === undefined ? {} : { threadId }) };
    }
    case 'turn.started':
      return { type: 'turn-started' };
    case 'turn.completed': {
      const usage = parseUsage(value.usage);
      return { type: 'turn-completed', ...(usage === undefined ? {} : { usage }) };
    }
    case 'turn.failed': {
      const error = isRecord(value.error) ? value.error : {};
      return { type: 'turn-failed', message: asString(error.message) ?? '' };
    }
    case 'error':
      return { type: 'error', message: asString(value.message) ?? '' };
    default:
      return { type: 'other', name: type };
  }
}
