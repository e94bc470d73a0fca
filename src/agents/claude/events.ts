import { isRecord } from '../../guards.js';
import type { Usage } from '../../outcome.js';
import { asNumber, asString, jsonRecord } from '../process/json-line.js';

/**
 * The subset of `claude -p --output-format stream-json --verbose` events the decision reads,
 * parsed from `unknown` with type guards. A line that is not JSON, or JSON of a shape we do not
 * know, becomes `other`/`unparseable` rather than an exception: the CLI adds event types between
 * versions (docs/claude-cli.md §4), and an unknown event must never crash a run.
 */
export type ContentBlock =
  | { kind: 'thinking' }
  | { kind: 'text'; text: string }
  | { kind: 'tool_use'; name: string; input: Record<string, unknown> }
  | { kind: 'other' };

export type StreamEvent =
  | {
      type: 'init';
      model?: string;
      cliVersion?: string;
      slashCommands: string[];
      skills: string[];
      mcpServers: number;
    }
  /** `system/status` `requesting`: the CLI starts a new turn, so the previous message has ended. */
  | { type: 'status' }
  | { type: 'api-retry'; status: number | null; error?: string }
  | {
      type: 'assistant';
      messageId: string;
      model?: string;
      /** `model: "<synthetic>"` or `is_api_error_message`: an error the CLI dressed as a message. */
      synthetic: boolean;
      /** Non-null for subagent events, which never decide. */
      parentToolUseId: string | null;
      blocks: ContentBlock[];
      usage?: Usage;
      error?: string;
      apiErrorStatus?: number;
    }
  | { type: 'user' }
  | {
      type: 'result';
      isError: boolean;
      subtype?: string;
      apiErrorStatus?: number;
      text?: string;
      usage?: Usage;
      costUsd?: number;
    }
  /**
   * A `stream_event` partial. Never decisive (it can be a phantom after a cut stream); only the
   * message's start and its `message_delta` are read, to tell a message that ended from one that
   * was cut: a cut gets a synthetic `message_stop` but never a `message_delta`. The
   * `message_delta`'s stop reason says whether tools and another turn follow (`tool_use`).
   */
  | { type: 'stream-event'; event: string; messageId?: string; usage?: Usage; stopReason?: string }
  | { type: 'other'; name: string }
  | { type: 'unparseable' };

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function parseUsage(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const n = (key: string): number => Math.max(0, asNumber(value[key]) ?? 0);
  return {
    inputTokens: n('input_tokens'),
    outputTokens: n('output_tokens'),
    cacheReadInputTokens: n('cache_read_input_tokens'),
    cacheCreationInputTokens: n('cache_creation_input_tokens'),
  };
}

function parseBlock(value: unknown): ContentBlock {
  if (!isRecord(value)) return { kind: 'other' };
  switch (value.type) {
    case 'thinking':
    case 'redacted_thinking':
      return { kind: 'thinking' };
    case 'text':
      return { kind: 'text', text: asString(value.text) ?? '' };
    case 'tool_use':
    case 'server_tool_use':
      return {
        kind: 'tool_use',
        name: asString(value.name) ?? '',
        input: isRecord(value.input) ? value.input : {},
      };
    default:
      return { kind: 'other' };
  }
}

function parseAssistant(event: Record<string, unknown>): StreamEvent {
  const message = isRecord(event.message) ? event.message : {};
  const model = asString(message.model);
  const content = Array.isArray(message.content) ? message.content : [];
  const parent = event.parent_tool_use_id;
  return {
    type: 'assistant',
    messageId: asString(message.id) ?? '',
    ...(model === undefined ? {} : { model }),
    synthetic: model === '<synthetic>' || event.is_api_error_message === true,
    parentToolUseId: typeof parent === 'string' ? parent : null,
    blocks: content.map(parseBlock),
    ...optional('usage', parseUsage(message.usage)),
    ...optional('error', asString(event.error)),
    ...optional('apiErrorStatus', asNumber(event.api_error_status)),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

export function parseEvent(line: string): StreamEvent {
  const value = jsonRecord(line);
  if (value === undefined) return { type: 'unparseable' };
  const type = asString(value.type) ?? '';
  switch (type) {
    case 'system':
      return parseSystem(value);
    case 'assistant':
      return parseAssistant(value);
    case 'user':
      return { type: 'user' };
    case 'result':
      return parseResult(value);
    case 'stream_event':
      return parseStreamEvent(value);
    default:
      return { type: 'other', name: type };
  }
}

/** A `system` event: the init, a request under way, an API retry, or another subtype. */
function parseSystem(value: Record<string, unknown>): StreamEvent {
  const subtype = asString(value.subtype);
  if (subtype === 'init') {
    return {
      type: 'init',
      ...optional('model', asString(value.model)),
      ...optional('cliVersion', asString(value.claude_code_version)),
      slashCommands: strings(value.slash_commands),
      skills: strings(value.skills),
      mcpServers: Array.isArray(value.mcp_servers) ? value.mcp_servers.length : 0,
    };
  }
  if (subtype === 'status' && value.status === 'requesting') return { type: 'status' };
  if (subtype === 'api_retry') {
    return {
      type: 'api-retry',
      status: asNumber(value.error_status) ?? null,
      ...optional('error', asString(value.error)),
    };
  }
  return { type: 'other', name: `system/${subtype ?? ''}` };
}

function parseResult(value: Record<string, unknown>): StreamEvent {
  return {
    type: 'result',
    isError: value.is_error === true,
    ...optional('subtype', asString(value.subtype)),
    ...optional('apiErrorStatus', asNumber(value.api_error_status)),
    ...optional('text', asString(value.result)),
    ...optional('usage', parseUsage(value.usage)),
    ...optional('costUsd', asNumber(value.total_cost_usd)),
  };
}

/** A `stream_event`: the API's own event, with the message it belongs to. */
function parseStreamEvent(value: Record<string, unknown>): StreamEvent {
  const inner = isRecord(value.event) ? value.event : {};
  const started = isRecord(inner.message) ? asString(inner.message.id) : undefined;
  return {
    type: 'stream-event',
    event: asString(inner.type) ?? '',
    ...optional('messageId', asString(value.api_message_id) ?? started),
    // message_delta carries the message's final output token count (the assistant events only
    // repeat message_start's); usage is bookkeeping, never part of the decision.
    ...optional('usage', inner.type === 'message_delta' ? parseUsage(inner.usage) : undefined),
    ...optional(
      'stopReason',
      inner.type === 'message_delta' && isRecord(inner.delta) ? asString(inner.delta.stop_reason) : undefined,
    ),
  };
}
