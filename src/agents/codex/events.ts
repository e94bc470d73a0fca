import { isRecord } from '../../guards.js';
import type { Usage } from '../../outcome.js';
import { asString, jsonRecord } from '../process/json-line.js';
import { parseCodexUsage } from './rollout.js';

/**
 * The `codex exec --json` lines a run keeps (docs/codex.md "What --json prints"), parsed from
 * `unknown`: the session id, and how the turn ended, for a run whose rollout never said. The
 * decision itself reads the rollout (rollout.ts): stdout has no response boundary. A line that is
 * not JSON, or an event this version does not know, becomes `other`/`unparseable`.
 */
export type CodexEvent =
  | { type: 'thread-started'; threadId?: string }
  | { type: 'turn-started' }
  | { type: 'turn-completed'; usage?: Usage }
  | { type: 'turn-failed'; message: string }
  /** A top-level `error` event: a reconnect notice or the failure about to end the turn. */
  | { type: 'error'; message: string }
  /** A completed `agent_message` item: commentary, or the turn's final answer (an author call's). */
  | { type: 'agent-message'; text: string }
  | { type: 'other'; name: string }
  | { type: 'unparseable' };

export function parseCodexEvent(line: string): CodexEvent {
  const value = jsonRecord(line);
  if (value === undefined) return { type: 'unparseable' };
  const type = asString(value.type) ?? '';
  switch (type) {
    case 'thread.started': {
      const threadId = asString(value.thread_id);
      return { type: 'thread-started', ...(threadId === undefined ? {} : { threadId }) };
    }
    case 'turn.started':
      return { type: 'turn-started' };
    case 'turn.completed': {
      const usage = parseCodexUsage(value.usage);
      return { type: 'turn-completed', ...(usage === undefined ? {} : { usage }) };
    }
    case 'turn.failed': {
      const error = isRecord(value.error) ? value.error : {};
      return { type: 'turn-failed', message: asString(error.message) ?? '' };
    }
    case 'error':
      return { type: 'error', message: asString(value.message) ?? '' };
    case 'item.completed': {
      const item = isRecord(value.item) ? value.item : {};
      const text = item.type === 'agent_message' ? asString(item.text) : undefined;
      return text === undefined ? { type: 'other', name: type } : { type: 'agent-message', text };
    }
    default:
      return { type: 'other', name: type };
  }
}
