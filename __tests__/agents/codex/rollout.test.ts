import { describe, expect, it } from 'vitest';
import { parseRolloutLine } from '../../../src/agents/codex/rollout.js';
import { codexListingBytes, codexStubListing } from '../../../src/agents/codex/run-listing.js';

// The rollout lines the decision reads, shaped as codex-cli 0.169.0 writes them (docs/codex.md
// "The session rollout"); decision.test.ts feeds whole recorded rollouts.
const line = (type: string, payload: unknown): string =>
  JSON.stringify({ timestamp: 't', ordinal: 1, type, payload });

describe('rollout lines', () => {
  it('a line that is not a JSON object is unparseable; one without a payload is other', () => {
    for (const raw of ['', '{"type":"response_item"', '[1]', 'null']) {
      expect(parseRolloutLine(raw), raw).toEqual({ kind: 'unparseable' });
    }
    expect(parseRolloutLine(JSON.stringify({ type: 'response_item', payload: 'x' }))).toEqual({
      kind: 'other',
      type: 'response_item',
    });
    expect(parseRolloutLine(line('token_usage_record', {}))).toEqual({
      kind: 'other',
      type: 'token_usage_record',
    });
  });

  it('session_meta gives the session id', () => {
    expect(parseRolloutLine(line('session_meta', { id: 'abc', cwd: '/p' }))).toEqual({
      kind: 'session',
      id: 'abc',
    });
    expect(parseRolloutLine(line('session_meta', { id: 5 }))).toEqual({
      kind: 'other',
      type: 'session_meta',
    });
  });

  it("the model's items: assistant messages with their phase, reasoning, calls and their outputs", () => {
    expect(
      parseRolloutLine(line('response_item', { type: 'message', role: 'assistant', phase: 'commentary' })),
    ).toEqual({ kind: 'message', phase: 'commentary' });
    expect(parseRolloutLine(line('response_item', { type: 'message', role: 'assistant' }))).toEqual({
      kind: 'message',
    });
    // The prompt's own messages are not the model's.
    expect(parseRolloutLine(line('response_item', { type: 'message', role: 'developer' }))).toMatchObject({
      kind: 'other',
    });
    expect(parseRolloutLine(line('response_item', { type: 'reasoning' }))).toEqual({ kind: 'reasoning' });
    for (const type of ['custom_tool_call', 'function_call']) {
      expect(parseRolloutLine(line('response_item', { type, call_id: 'c1', name: 'exec' }))).toEqual({
        kind: 'call',
        callId: 'c1',
        name: 'exec',
      });
      expect(parseRolloutLine(line('response_item', { type, name: 'exec' }))).toEqual({
        kind: 'other',
        type,
      });
    }
    for (const type of ['custom_tool_call_output', 'function_call_output']) {
      expect(parseRolloutLine(line('response_item', { type, call_id: 'c1' }))).toEqual({
        kind: 'call-output',
        callId: 'c1',
      });
    }
  });

  it('a completed command keeps its argv, its working folder as a path and its exit code', () => {
    const item = {
      type: 'CommandExecution',
      command: ['/bin/bash', '-lc', 'ls', 7],
      cwd: 'file:///tmp/skilltrigger-x/project',
      exit_code: 1,
    };
    expect(parseRolloutLine(line('event_msg', { type: 'item_completed', item }))).toEqual({
      kind: 'command',
      argv: ['/bin/bash', '-lc', 'ls'],
      cwd: '/tmp/skilltrigger-x/project',
      exitCode: 1,
    });
    const bare = parseRolloutLine(
      line('event_msg', {
        type: 'item_completed',
        item: { type: 'CommandExecution', command: ['ls'], cwd: 'r1' },
      }),
    );
    expect(bare).toEqual({ kind: 'command', argv: ['ls'] });
    const empty = { type: 'CommandExecution', command: 'ls' };
    expect(parseRolloutLine(line('event_msg', { type: 'item_completed', item: empty }))).toMatchObject({
      kind: 'other',
    });
  });

  it('other completed items: actions that run no command, and the rest never decisive', () => {
    for (const type of ['FileChange', 'McpToolCall', 'WebSearch']) {
      expect(parseRolloutLine(line('event_msg', { type: 'item_completed', item: { type } }))).toEqual({
        kind: 'action',
        type,
      });
    }
    for (const type of ['AgentMessage', 'UserMessage', 'Reasoning', 'constructor', 'FutureKind']) {
      expect(parseRolloutLine(line('event_msg', { type: 'item_completed', item: { type } }))).toEqual({
        kind: 'other',
        type: `item:${type}`,
      });
    }
  });

  it('usage totals and the end of the turn, with its error when it failed', () => {
    const total = { input_tokens: 10, cached_input_tokens: 4, output_tokens: 2 };
    expect(
      parseRolloutLine(line('event_msg', { type: 'token_count', info: { total_token_usage: total } })),
    ).toEqual({
      kind: 'usage',
      usage: { inputTokens: 6, cacheReadInputTokens: 4, outputTokens: 2, cacheCreationInputTokens: 0 },
    });
    expect(parseRolloutLine(line('event_msg', { type: 'token_count', info: null }))).toMatchObject({
      kind: 'other',
    });
    expect(parseRolloutLine(line('event_msg', { type: 'task_complete', error: null }))).toEqual({
      kind: 'turn-end',
    });
    expect(
      parseRolloutLine(line('event_msg', { type: 'task_complete', error: { message: 'boom' } })),
    ).toEqual({
      kind: 'turn-end',
      error: 'boom',
    });
    expect(parseRolloutLine(line('event_msg', { type: 'task_complete', error: {} }))).toEqual({
      kind: 'turn-end',
      error: '',
    });
  });
});

describe('the listing in the rollout', () => {
  const listing =
    '<skills_instructions>\n## Skills\n### Available skills\n- pdf-stub-ab12: Extract text from PDF (file: r1/pdf-stub-ab12/SKILL.md)\n</skills_instructions>';

  it('the developer message holding the skill listing is read as the listing; another developer message is other', () => {
    const content = [
      { type: 'input_text', text: 'permissions' },
      { type: 'input_text', text: listing },
    ];
    expect(parseRolloutLine(line('response_item', { type: 'message', role: 'developer', content }))).toEqual({
      kind: 'listing',
      text: listing,
    });
    expect(
      parseRolloutLine(
        line('response_item', {
          type: 'message',
          role: 'developer',
          content: [{ type: 'input_text', text: 'x' }],
        }),
      ),
    ).toEqual({ kind: 'other', type: 'message:developer' });
  });

  it("the stub's state is whole, cut with its length, or bare, against its description as Codex reads it", () => {
    expect(codexStubListing(listing, 'pdf-stub-ab12', 'Extract text from PDF')).toEqual({
      state: 'whole',
      chars: 21,
    });
    expect(codexStubListing(listing, 'pdf-stub-ab12', 'Extract text from PDF files and forms')).toEqual({
      state: 'cut',
      chars: 21,
    });
    const bare = listing.replace('Extract text from PDF ', '');
    expect(codexStubListing(bare, 'pdf-stub-ab12', 'Extract text from PDF')).toEqual({
      state: 'bare',
      chars: 0,
    });
    expect(codexStubListing(listing, 'other-stub', 'x')).toBeUndefined();
    expect(codexListingBytes(listing)).toBe(
      Buffer.byteLength('- pdf-stub-ab12: Extract text from PDF (file: r1/pdf-stub-ab12/SKILL.md)'),
    );
  });
});
