import { describe, expect, it } from 'vitest';
import { parseInitPlugins, readRoundTrip } from '../../../src/agents/claude/one-turn.js';

// The reader of a one-turn stream; gates/round-trip.test.ts tests the gate's judgement of a reading.
const line = (value: unknown): string => JSON.stringify(value);
const init = (extra: Record<string, unknown> = {}) =>
  line({
    type: 'system',
    subtype: 'init',
    model: 'claude-opus-5-5',
    claude_code_version: '2.1.328',
    slash_commands: ['dataviz'],
    skills: ['dataviz'],
    mcp_servers: [],
    ...extra,
  });
const assistant = (text: string, extra: Record<string, unknown> = {}, model = 'claude-opus-5-5-20260101') =>
  line({
    type: 'assistant',
    message: { id: 'm', model, content: [{ type: 'text', text }] },
    parent_tool_use_id: null,
    ...extra,
  });
const synthetic = (text: string, extra: Record<string, unknown> = {}) =>
  assistant(text, { is_api_error_message: true, ...extra }, '<synthetic>');
const result = (extra: Record<string, unknown>) => line({ type: 'result', is_error: false, ...extra });
const read = (...lines: string[]) => readRoundTrip(lines.join('\n'));

describe('parseInitPlugins', () => {
  it('keeps name and source of each well-formed entry, source only when it is a string', () => {
    const plugins = parseInitPlugins(
      init({
        plugins: [
          { name: 'stubplug', source: 'stubplug@local-mkt', path: '/x' },
          { name: 'inline', source: 7 },
          { source: 'nameless@mkt' },
          null,
          'junk',
        ],
      }),
    );
    expect(plugins).toEqual([{ name: 'stubplug', source: 'stubplug@local-mkt' }, { name: 'inline' }]);
    expect(Object.keys(plugins[1] ?? {})).toEqual(['name']);
  });

  it('is empty for a line that is not JSON, not an object, or has no plugin list', () => {
    expect(parseInitPlugins('not json')).toEqual([]);
    expect(parseInitPlugins('[{"name":"x"}]')).toEqual([]);
    expect(parseInitPlugins(init())).toEqual([]);
    expect(parseInitPlugins(init({ plugins: { name: 'x' } }))).toEqual([]);
  });
});

describe('readRoundTrip', () => {
  it('an empty stream reads as nothing: no init, no answer, no error', () => {
    expect(readRoundTrip('')).toEqual({ initPlugins: [] });
    expect(readRoundTrip('\n  \nnot json\n')).toEqual({ initPlugins: [] });
  });

  it('reads init, the answer, the answering model and the usage with the CLI cost', () => {
    const reading = read(
      init({ plugins: [{ name: 'p', source: 'p@m' }] }),
      assistant('pong'),
      result({ result: 'pong', usage: { input_tokens: 900, output_tokens: 3 }, total_cost_usd: 0.0042 }),
    );
    expect(reading).toEqual({
      init: {
        model: 'claude-opus-5-5',
        cliVersion: '2.1.328',
        slashCommands: ['dataviz'],
        skills: ['dataviz'],
        mcpServers: 0,
      },
      initPlugins: [{ name: 'p', source: 'p@m' }],
      answer: 'pong',
      messageModel: 'claude-opus-5-5-20260101',
      usage: {
        inputTokens: 900,
        outputTokens: 3,
        cacheReadInputTokens: 0,
        cacheCreationInputTokens: 0,
        costUsd: 0.0042,
      },
    });
  });

  it('an init without model or version has no such keys', () => {
    const reading = read(line({ type: 'system', subtype: 'init' }));
    expect(reading.init).toEqual({ slashCommands: [], skills: [], mcpServers: 0 });
  });

  it('usage without a reported cost has no cost key', () => {
    const reading = read(result({ result: 'pong', usage: { input_tokens: 5 } }));
    expect(reading.usage).toEqual({
      inputTokens: 5,
      outputTokens: 0,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
    });
  });

  it('without a result, the answer is the text blocks joined; lines may carry spaces or \\r', () => {
    expect(read(` ${assistant('po')}\r`, assistant('ng')).answer).toBe('pong');
  });

  it('the result text is the answer even when empty, over the text blocks', () => {
    expect(read(assistant('draft'), result({ result: 'final' })).answer).toBe('final');
    expect(read(assistant('draft'), result({ result: '' })).answer).toBe('');
  });

  it('a subagent message neither answers nor names the model', () => {
    const reading = read(
      assistant('from the subagent', { parent_tool_use_id: 'toolu_1' }, 'claude-haiku'),
      assistant('pong'),
    );
    expect(reading.answer).toBe('pong');
    expect(reading.messageModel).toBe('claude-opus-5-5-20260101');
  });

  it('the first answering model is kept', () => {
    expect(read(assistant('a', {}, 'first'), assistant('b', {}, 'second')).messageModel).toBe('first');
  });

  it('an API error dressed as a message is the error, with its status, code and text; it answers nothing', () => {
    const reading = read(
      init(),
      synthetic('API Error: 400 model not found', { error: 'invalid_request', api_error_status: 400 }),
    );
    expect(reading.answer).toBeUndefined();
    expect(reading.messageModel).toBeUndefined();
    expect(reading.apiError).toEqual({
      status: 400,
      error: 'invalid_request',
      text: 'API Error: 400 model not found',
    });
  });

  it('a message with an error field fails even when it is not marked synthetic', () => {
    const reading = read(assistant('Please run /login', { error: 'authentication_failed' }));
    expect(reading.answer).toBeUndefined();
    expect(reading.apiError).toEqual({ error: 'authentication_failed', text: 'Please run /login' });
  });

  it('the first status and code are kept; an error result’s text replaces the message’s', () => {
    const reading = read(
      synthetic('first', { error: 'overloaded', api_error_status: 529 }),
      synthetic('second', { error: 'rate_limit', api_error_status: 429 }),
      result({ is_error: true, api_error_status: 401, result: 'API Error: Repeated 529 Overloaded errors.' }),
    );
    expect(reading.apiError).toEqual({
      status: 529,
      error: 'overloaded',
      text: 'API Error: Repeated 529 Overloaded errors.',
    });
  });

  it('an error result without text keeps the message’s text', () => {
    const reading = read(synthetic('Invalid API key'), result({ is_error: true, result: '' }));
    expect(reading.apiError).toEqual({ text: 'Invalid API key' });
  });

  it('an error result alone is an error, its status taken from it, and no answer', () => {
    const reading = read(result({ is_error: true, api_error_status: 401, result: 'Invalid API key' }));
    expect(reading.apiError).toEqual({ status: 401, text: 'Invalid API key' });
    expect(reading.answer).toBeUndefined();
    expect(read(result({ is_error: true })).apiError).toEqual({});
  });

  it('a synthetic message with empty text has no text in the error', () => {
    expect(read(synthetic('', { api_error_status: 500 })).apiError).toEqual({ status: 500 });
  });
});
