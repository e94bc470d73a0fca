import { describe, expect, it } from 'vitest';
import { parseCodexEvent } from '../../../src/agents/codex/events.js';

// The parser of `codex exec --json` lines (docs/codex.md "What --json prints"), line by line;
// decision.test.ts tests what the decision keeps of them.
const line = (value: unknown): string => JSON.stringify(value);

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

  it('a type named like an Object.prototype member ("constructor", "toString") is other', () => {
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
  it('item lines are other: the decision reads commands from the rollout, not from stdout', () => {
    for (const phase of ['started', 'updated', 'completed']) {
      const value = { type: `item.${phase}`, item: { id: 'i', type: 'command_execution', command: 'ls' } };
      expect(parseCodexEvent(line(value))).toEqual({ type: 'other', name: `item.${phase}` });
    }
  });
});
