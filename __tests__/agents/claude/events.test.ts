import { describe, expect, it } from 'vitest';
import { parseEvent } from '../../../src/agents/claude/events.js';

// The parser of `claude -p --output-format stream-json --verbose` lines (docs/claude-cli.md §4),
// tested line by line; decision.test.ts tests what the decision makes of the parsed events.
const line = (value: unknown): string => JSON.stringify(value);

describe('lines that are not an event', () => {
  it('a line that is not JSON, or JSON that is not an object, is unparseable', () => {
    for (const raw of ['', 'not json', '{"type":', '[1,2]', 'null', '42', '"assistant"']) {
      expect(parseEvent(raw), raw).toEqual({ type: 'unparseable' });
    }
  });

  it('an object of an unknown type is other, named by its type', () => {
    expect(parseEvent(line({ type: 'rate_limit_event' }))).toEqual({
      type: 'other',
      name: 'rate_limit_event',
    });
    expect(parseEvent(line({ no: 'type' }))).toEqual({ type: 'other', name: '' });
    expect(parseEvent(line({ type: 7 }))).toEqual({ type: 'other', name: '' });
  });
});

describe('system events', () => {
  it('init carries the model, CLI version, roster and the number of MCP servers', () => {
    const event = parseEvent(
      line({
        type: 'system',
        subtype: 'init',
        model: 'claude-opus-5-5',
        claude_code_version: '2.1.328',
        slash_commands: ['handoff', 42, 'dataviz', null],
        skills: ['dataviz'],
        mcp_servers: [{ name: 'a' }, { name: 'b' }],
      }),
    );
    expect(event).toEqual({
      type: 'init',
      model: 'claude-opus-5-5',
      cliVersion: '2.1.328',
      slashCommands: ['handoff', 'dataviz'],
      skills: ['dataviz'],
      mcpServers: 2,
    });
  });

  it('an init without the optional fields has empty lists and no model or version keys', () => {
    const event = parseEvent(line({ type: 'system', subtype: 'init', skills: 'dataviz', mcp_servers: {} }));
    expect(event).toEqual({ type: 'init', slashCommands: [], skills: [], mcpServers: 0 });
    expect(Object.keys(event)).not.toContain('model');
    expect(Object.keys(event)).not.toContain('cliVersion');
  });

  it('status is a new turn only when it says requesting', () => {
    expect(parseEvent(line({ type: 'system', subtype: 'status', status: 'requesting' }))).toEqual({
      type: 'status',
    });
    expect(parseEvent(line({ type: 'system', subtype: 'status', status: 'compacting' }))).toEqual({
      type: 'other',
      name: 'system/status',
    });
  });

  it('api_retry keeps the HTTP status and the error; a missing status is null', () => {
    expect(
      parseEvent(
        line({ type: 'system', subtype: 'api_retry', error_status: 529, error: 'overloaded_error' }),
      ),
    ).toEqual({ type: 'api-retry', status: 529, error: 'overloaded_error' });
    expect(parseEvent(line({ type: 'system', subtype: 'api_retry', error_status: '529' }))).toEqual({
      type: 'api-retry',
      status: null,
    });
  });

  it('another subtype, or none, is other with the subtype in its name', () => {
    expect(parseEvent(line({ type: 'system', subtype: 'hook_response' }))).toEqual({
      type: 'other',
      name: 'system/hook_response',
    });
    expect(parseEvent(line({ type: 'system' }))).toEqual({ type: 'other', name: 'system/' });
  });
});

describe('assistant events', () => {
  const assistant = (message: unknown, extra: Record<string, unknown> = {}) =>
    parseEvent(line({ type: 'assistant', message, parent_tool_use_id: null, ...extra }));

  it('reads the message id, model, blocks and usage', () => {
    const event = assistant({
      id: 'msg_1',
      model: 'claude-opus-5-5',
      content: [
        { type: 'thinking', thinking: 'hmm', signature: 's' },
        { type: 'redacted_thinking', data: 'x' },
        { type: 'text', text: 'Sure.' },
        { type: 'tool_use', id: 't1', name: 'Skill', input: { skill: 'dataviz' } },
        { type: 'server_tool_use', id: 't2', name: 'web_search', input: { query: 'q' } },
        { type: 'image' },
      ],
      usage: { input_tokens: 100, output_tokens: 7, cache_read_input_tokens: 50 },
    });
    expect(event).toEqual({
      type: 'assistant',
      messageId: 'msg_1',
      model: 'claude-opus-5-5',
      synthetic: false,
      parentToolUseId: null,
      blocks: [
        { kind: 'thinking' },
        { kind: 'thinking' },
        { kind: 'text', text: 'Sure.' },
        { kind: 'tool_use', name: 'Skill', input: { skill: 'dataviz' } },
        { kind: 'tool_use', name: 'web_search', input: { query: 'q' } },
        { kind: 'other' },
      ],
      usage: { inputTokens: 100, outputTokens: 7, cacheReadInputTokens: 50, cacheCreationInputTokens: 0 },
    });
  });

  it('malformed blocks degrade instead of throwing: no text, no name, an input that is not an object', () => {
    const event = assistant({
      id: 'm',
      content: [null, 'text', { type: 'text' }, { type: 'tool_use' }, { type: 'tool_use', input: [1] }],
    });
    expect(event).toMatchObject({
      blocks: [
        { kind: 'other' },
        { kind: 'other' },
        { kind: 'text', text: '' },
        { kind: 'tool_use', name: '', input: {} },
        { kind: 'tool_use', name: '', input: {} },
      ],
    });
  });

  it('a message that is missing or not an object gives an empty id and no blocks', () => {
    for (const message of [undefined, 'hello', [1]]) {
      expect(assistant(message)).toEqual({
        type: 'assistant',
        messageId: '',
        synthetic: false,
        parentToolUseId: null,
        blocks: [],
      });
    }
  });

  it('a subagent event keeps its parent tool use id; a parent of another type is none', () => {
    expect(assistant({ id: 'm', content: [] }, { parent_tool_use_id: 'toolu_9' })).toMatchObject({
      parentToolUseId: 'toolu_9',
    });
    expect(assistant({ id: 'm', content: [] }, { parent_tool_use_id: 9 })).toMatchObject({
      parentToolUseId: null,
    });
  });

  it('an error dressed as a message is synthetic, by its model or by is_api_error_message', () => {
    expect(assistant({ id: 'm', model: '<synthetic>', content: [] })).toMatchObject({ synthetic: true });
    const flagged = assistant(
      { id: 'm', model: 'claude-opus-5-5', content: [] },
      { is_api_error_message: true, error: 'rate_limit', api_error_status: 429 },
    );
    expect(flagged).toMatchObject({ synthetic: true, error: 'rate_limit', apiErrorStatus: 429 });
    // Only the boolean true counts.
    expect(assistant({ id: 'm', content: [] }, { is_api_error_message: 'true' })).toMatchObject({
      synthetic: false,
    });
  });
});

describe('usage', () => {
  const usageOf = (usage: unknown) =>
    parseEvent(line({ type: 'result', is_error: false, usage })) as { usage?: unknown };

  it('missing counts are zero, negative or non-numeric counts are zero', () => {
    expect(usageOf({ input_tokens: -5, output_tokens: '7', cache_creation_input_tokens: 3 }).usage).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 3,
    });
  });

  it('a count too large for a number (JSON 1e999 reads as Infinity) is zero', () => {
    const event = parseEvent('{"type":"result","is_error":false,"usage":{"input_tokens":1e999}}');
    expect(event).toMatchObject({ usage: { inputTokens: 0 } });
  });

  it('a usage that is not an object is absent, not zero', () => {
    expect(Object.keys(usageOf([1, 2]))).not.toContain('usage');
    expect(Object.keys(usageOf(null))).not.toContain('usage');
  });
});

describe('result events', () => {
  it('a success carries the answer, usage and the CLI cost', () => {
    const event = parseEvent(
      line({
        type: 'result',
        subtype: 'success',
        is_error: false,
        result: 'pong',
        usage: { input_tokens: 10, output_tokens: 2 },
        total_cost_usd: 0.0123,
      }),
    );
    expect(event).toEqual({
      type: 'result',
      isError: false,
      subtype: 'success',
      text: 'pong',
      usage: { inputTokens: 10, outputTokens: 2, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
      costUsd: 0.0123,
    });
  });

  it('an error keeps its status; is_error counts only as the boolean true', () => {
    expect(
      parseEvent(line({ type: 'result', is_error: true, api_error_status: 401, result: 'Invalid API key' })),
    ).toEqual({ type: 'result', isError: true, apiErrorStatus: 401, text: 'Invalid API key' });
    expect(parseEvent(line({ type: 'result', is_error: 'yes' }))).toEqual({ type: 'result', isError: false });
  });
});

describe('partial stream events', () => {
  it('message_start takes the message id from the message it starts', () => {
    const event = parseEvent(
      line({ type: 'stream_event', event: { type: 'message_start', message: { id: 'msg_7' } } }),
    );
    expect(event).toEqual({ type: 'stream-event', event: 'message_start', messageId: 'msg_7' });
  });

  it('api_message_id wins over the started message id', () => {
    const event = parseEvent(
      line({
        type: 'stream_event',
        api_message_id: 'msg_outer',
        event: { type: 'message_start', message: { id: 'msg_inner' } },
      }),
    );
    expect(event).toMatchObject({ messageId: 'msg_outer' });
  });

  it('only message_delta carries usage', () => {
    const usage = { output_tokens: 42 };
    expect(parseEvent(line({ type: 'stream_event', event: { type: 'message_delta', usage } }))).toEqual({
      type: 'stream-event',
      event: 'message_delta',
      usage: { inputTokens: 0, outputTokens: 42, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
    });
    expect(
      parseEvent(line({ type: 'stream_event', event: { type: 'message_start', message: { usage } } })),
    ).toEqual({ type: 'stream-event', event: 'message_start' });
  });

  it('a stream_event without an inner event has an empty event name', () => {
    expect(parseEvent(line({ type: 'stream_event', event: 'x' }))).toEqual({
      type: 'stream-event',
      event: '',
    });
  });
});

it('a user event is only its type (tool results are not read)', () => {
  expect(parseEvent(line({ type: 'user', message: { content: [{ type: 'tool_result' }] } }))).toEqual({
    type: 'user',
  });
});
