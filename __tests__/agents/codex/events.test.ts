import { describe, expect, it } from 'vitest';
import { parseCodexEvent } from '../../../src/agents/codex/events.js';

// The parser of `codex exec --json` lines (docs/codex.md "What --json prints"), line by line;
// codex-decision.test.ts tests what the decision makes of them.
const line = (value: unknown): string => JSON.stringify(value);
const item = (phase: string, value: unknown) => parseCodexEvent(line({ type: `item.${phase}`, item: value }));

describe('lines that are not an event', () => {
  it('a line that is not JSON, or JSON that is not an object, is unparseable', () => {
    for (const raw of ['', 'Reading prompt from stdin...', '[{"type":"turn.started"}]', 'null', '1']) {
      expect(parseCodexEvent(raw), raw).toEqual({ type: 'unparseable' });
    }
  });

  it('an unknown type is other, named by its type', () => {
    expect(parseCodexEvent(line({ type: 'turn.paused' }))).toEqual({ type: 'other', name: 'turn.paused' });
    expect(parseCodexEvent(line({ msg: 'x' }))).toEqual({ type: 'other', name: '' });
  });

  it('a type named like an Object.prototype member ("constructor", "toString") is other, not an item', () => {
    for (const type of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(parseCodexEvent(line({ type, item: { id: 'i', type: 'reasoning' } })), type).toEqual({
        type: 'other',
        name: type,
      });
    }
  });
});

describe('thread and turn events', () => {
  it('thread.started keeps its thread id when it is a string', () => {
    expect(parseCodexEvent(line({ type: 'thread.started', thread_id: 't-1' }))).toEqual({
      type: 'thread-started',
      threadId: 't-1',
    });
    const bare = parseCodexEvent(line({ type: 'thread.started', thread_id: 5 }));
    expect(bare).toEqual({ type: 'thread-started' });
    expect(Object.keys(bare)).not.toContain('threadId');
  });

  it('turn.started is only its type', () => {
    expect(parseCodexEvent(line({ type: 'turn.started', extra: 1 }))).toEqual({ type: 'turn-started' });
  });

  it('turn.completed takes the cached tokens out of the input tokens', () => {
    const event = parseCodexEvent(
      line({
        type: 'turn.completed',
        usage: { input_tokens: 120, cached_input_tokens: 20, output_tokens: 7, reasoning_output_tokens: 3 },
      }),
    );
    expect(event).toEqual({
      type: 'turn-completed',
      usage: { inputTokens: 100, outputTokens: 7, cacheReadInputTokens: 20, cacheCreationInputTokens: 0 },
    });
  });

  it('usage never goes negative: more cached than input, or negative counts, read as zero', () => {
    const event = parseCodexEvent(
      line({
        type: 'turn.completed',
        usage: { input_tokens: 10, cached_input_tokens: 30, output_tokens: -4, cache_write_input_tokens: 6 },
      }),
    );
    expect(event).toEqual({
      type: 'turn-completed',
      usage: { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 30, cacheCreationInputTokens: 6 },
    });
  });

  it('turn.completed without a usage object has no usage key', () => {
    const event = parseCodexEvent(line({ type: 'turn.completed', usage: 'n/a' }));
    expect(event).toEqual({ type: 'turn-completed' });
    expect(Object.keys(event)).not.toContain('usage');
  });

  it('turn.failed and error carry their message, empty when absent', () => {
    expect(parseCodexEvent(line({ type: 'turn.failed', error: { message: 'stream disconnected' } }))).toEqual(
      {
        type: 'turn-failed',
        message: 'stream disconnected',
      },
    );
    expect(parseCodexEvent(line({ type: 'turn.failed', error: 'boom' }))).toEqual({
      type: 'turn-failed',
      message: '',
    });
    expect(parseCodexEvent(line({ type: 'error', message: 'Reconnecting... 1/5' }))).toEqual({
      type: 'error',
      message: 'Reconnecting... 1/5',
    });
    expect(parseCodexEvent(line({ type: 'error' }))).toEqual({ type: 'error', message: '' });
  });
});

describe('items', () => {
  it('each phase is kept with the item id', () => {
    for (const phase of ['started', 'updated', 'completed'] as const) {
      expect(item(phase, { id: 'item_3', type: 'reasoning', text: 'hm' })).toEqual({
        type: 'item',
        phase,
        id: 'item_3',
        item: { kind: 'reasoning' },
      });
    }
  });

  it('a command keeps its line, and its exit code only when it is a number', () => {
    expect(
      item('completed', { id: 'i', type: 'command_execution', command: "/bin/bash -lc 'ls'", exit_code: 2 }),
    ).toMatchObject({ item: { kind: 'command', command: "/bin/bash -lc 'ls'", exitCode: 2 } });
    const running = item('started', { id: 'i', type: 'command_execution', command: 'ls', exit_code: null });
    expect(running).toEqual({
      type: 'item',
      phase: 'started',
      id: 'i',
      item: { kind: 'command', command: 'ls' },
    });
  });

  it('messages, error items and plans', () => {
    expect(item('completed', { id: 'a', type: 'agent_message', text: 'Done.' })).toMatchObject({
      item: { kind: 'agent-message', text: 'Done.' },
    });
    expect(item('completed', { id: 'a', type: 'agent_message' })).toMatchObject({
      item: { kind: 'agent-message', text: '' },
    });
    expect(item('completed', { id: 'e', type: 'error', message: 'command refused' })).toMatchObject({
      item: { kind: 'error-item', message: 'command refused' },
    });
    expect(item('updated', { id: 'p', type: 'todo_list', items: [] })).toMatchObject({
      item: { kind: 'plan' },
    });
  });

  it('actions that are not commands are other-action, named by their type', () => {
    for (const type of ['file_change', 'mcp_tool_call', 'web_search', 'collab_tool_call']) {
      expect(item('started', { id: 'x', type })).toMatchObject({ item: { kind: 'other-action', type } });
    }
  });

  it('an item type this version does not know is unknown, never an action', () => {
    expect(item('completed', { id: 'x', type: 'image_view' })).toMatchObject({
      item: { kind: 'unknown', type: 'image_view' },
    });
  });

  it('an item that is missing or not an object is an unknown item with an empty id', () => {
    for (const value of [undefined, 'x', [1]]) {
      expect(item('completed', value)).toEqual({
        type: 'item',
        phase: 'completed',
        id: '',
        item: { kind: 'unknown', type: '' },
      });
    }
  });
});
