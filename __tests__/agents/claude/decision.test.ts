import { describe, expect, it } from 'vitest';
import { classifyApiError } from '../../../src/agents/api-error.js';
import { Decider, namesStub } from '../../../src/agents/claude/decision.js';
import { parseEvent } from '../../../src/agents/claude/events.js';
import type { StubIdentity } from '../../../src/agents/runs.js';
import type { Outcome } from '../../../src/outcome.js';

const STUB: StubIdentity = {
  name: 'handoff-stub-ab12cd34',
  filePath: '/tmp/run/proj/.claude/commands/handoff-stub-ab12cd34.md',
  projectDir: '/tmp/run/proj',
};

// Init and turn lines shaped as docs/claude-cli.md describes them (trimmed to the fields that matter).
const init = (slash: string[] = [STUB.name, 'dataviz']) =>
  JSON.stringify({
    type: 'system',
    subtype: 'init',
    model: 'claude-opus-5-5',
    claude_code_version: '2.1.328',
    slash_commands: slash,
    skills: ['dataviz'],
    mcp_servers: [],
  });
const status = () => JSON.stringify({ type: 'system', subtype: 'status', status: 'requesting' });
const block = (type: string, extra: Record<string, unknown>) => ({ type, ...extra });
const assistant = (id: string, content: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: 'assistant',
    message: {
      id,
      model: 'claude-opus-5-5',
      role: 'assistant',
      content,
      usage: { input_tokens: 100, output_tokens: 7 },
    },
    parent_tool_use_id: null,
    ...extra,
  });
const tool = (name: string, input: Record<string, unknown>) =>
  block('tool_use', { id: `t_${name}`, name, input });
const text = (t: string) => block('text', { text: t });
const thinking = () => block('thinking', { thinking: 'hmm', signature: 'sig' });
const user = () => JSON.stringify({ type: 'user', message: { role: 'user', content: [] } });
const partial = (event: unknown) => JSON.stringify({ type: 'stream_event', event });
const result = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 'result', subtype: 'success', is_error: false, ...extra });
const synthetic = (textLine: string, extra: Record<string, unknown>) =>
  JSON.stringify({
    type: 'assistant',
    message: { id: 'd27256b0', model: '<synthetic>', role: 'assistant', content: [text(textLine)] },
    parent_tool_use_id: null,
    is_api_error_message: true,
    ...extra,
  });

/** Feed lines until decided; also report after how many lines the decision came. */
function run(lines: string[], exit: { exitCode?: number; signal?: string } = { exitCode: 0 }) {
  const decider = new Decider(STUB);
  for (const [i, line] of lines.entries()) {
    const outcome = decider.feed(parseEvent(line));
    if (outcome) return { outcome, at: i, decider };
  }
  return { outcome: decider.finish(exit), at: lines.length, decider };
}

const TRIGGERED: Outcome = { kind: 'triggered' };
const MISS: Outcome = { kind: 'not-triggered' };

describe('the decision rule', () => {
  it('a Skill call naming the stub triggers at once, before the message ends', () => {
    const lines = [
      init(),
      status(),
      assistant('m1', [tool('Skill', { skill: STUB.name })]),
      user(),
      result(),
    ];
    const r = run(lines);
    expect(r.outcome).toEqual(TRIGGERED);
    expect(r.at).toBe(2);
  });

  it('accepts a leading slash and a plugin prefix, never a substring', () => {
    expect(namesStub(`/${STUB.name}`, STUB.name)).toBe(true);
    expect(namesStub(`plug:${STUB.name}`, STUB.name)).toBe(true);
    expect(namesStub(`/${STUB.name} with args`, STUB.name)).toBe(true);
    expect(namesStub(`${STUB.name}x`, STUB.name)).toBe(false);
    expect(namesStub(`x${STUB.name}`, STUB.name)).toBe(false);
    expect(namesStub('handoff', STUB.name)).toBe(false);
  });

  it('counts an old SlashCommand call naming the stub', () => {
    expect(
      run([init(), assistant('m1', [tool('SlashCommand', { command: `/${STUB.name}` })])]).outcome,
    ).toEqual(TRIGGERED);
  });

  it('a Read of the stub file triggers; a Read of another file is a miss once the message ends', () => {
    expect(
      run([
        init(),
        assistant('m1', [text('Let me look.')]),
        assistant('m1', [tool('Read', { file_path: STUB.filePath })]),
      ]).outcome,
    ).toEqual(TRIGGERED);
    expect(
      run([
        init(),
        assistant('m1', [tool('Read', { file_path: '.claude/commands/handoff-stub-ab12cd34.md' })]),
      ]).outcome,
    ).toEqual(TRIGGERED);
    const other = run([
      init(),
      assistant('m1', [tool('Read', { file_path: '/tmp/run/proj/handoff-stub-ab12cd34.txt' })]),
      user(),
      status(),
    ]);
    expect(other.outcome).toEqual(MISS);
  });

  it('groups events by message id: Bash then Skill in one message still triggers, even with a tool result between', () => {
    const lines = [
      init(),
      status(),
      assistant('m1', [tool('Bash', { command: 'echo hi' })]),
      user(), // Bash ran mid-message (claude-cli-facts.md §0.3): not the end of the message
      assistant('m1', [tool('Skill', { skill: STUB.name })]),
    ];
    expect(run(lines).outcome).toEqual(TRIGGERED);
  });

  it('text then Skill in one message triggers', () => {
    expect(
      run([init(), assistant('m1', [text('Sure.')]), assistant('m1', [tool('Skill', { skill: STUB.name })])])
        .outcome,
    ).toEqual(TRIGGERED);
  });

  it('a ToolSearch-only message does not decide; the next message does', () => {
    const hit = [
      init(),
      status(),
      assistant('m1', [tool('ToolSearch', { query: 'select:WebFetch' })]),
      user(),
      status(),
      assistant('m2', [tool('Skill', { skill: STUB.name })]),
    ];
    expect(run(hit).outcome).toEqual(TRIGGERED);
    const miss = [
      init(),
      status(),
      assistant('m1', [tool('ToolSearch', { query: 'x' })]),
      user(),
      status(),
      assistant('m2', [text('No skill needed.')]),
      result(),
    ];
    expect(run(miss).outcome).toEqual(MISS);
  });

  it('a thinking-only event does not decide; thinking then text is a miss when the message ends', () => {
    const lines = [
      init(),
      assistant('m1', [thinking()]),
      assistant('m1', [text('Plain answer.')]),
      partial({ type: 'message_stop' }),
      result(),
    ];
    const r = run(lines);
    expect(r.outcome).toEqual(MISS);
    expect(r.at).toBe(4);
  });

  it('a miss waits for the real end of the message, not for the next event', () => {
    const decider = new Decider(STUB);
    for (const line of [
      init(),
      assistant('m1', [text('Plain.')]),
      partial({ type: 'message_stop' }),
      user(),
    ]) {
      expect(decider.feed(parseEvent(line))).toBeUndefined();
    }
    expect(decider.feed(parseEvent(status()))).toEqual(MISS);
  });

  describe('a streamed message that asks for tools ends at its message_delta: a miss is decided there', () => {
    const start = (id: string) =>
      JSON.stringify({
        type: 'stream_event',
        api_message_id: id,
        event: { type: 'message_start', message: { id } },
      });
    const ended = (id: string, stop = 'end_turn') =>
      JSON.stringify({
        type: 'stream_event',
        api_message_id: id,
        event: { type: 'message_delta', delta: { stop_reason: stop }, usage: { output_tokens: 9 } },
      });

    it('a plain answer waits for its result, which carries the CLI’s own cost', () => {
      const r = run([
        init(),
        start('m1'),
        assistant('m1', [text('Plain.')]),
        ended('m1'),
        result({ total_cost_usd: 0.0123, usage: { input_tokens: 100, output_tokens: 9 } }),
      ]);
      expect(r.outcome).toEqual(MISS);
      expect(r.at).toBe(4);
      expect(r.decider.usage.costUsd).toBe(0.0123);
    });

    it('a message that ran a tool is a miss at its message_delta, not once the tool ran and the next turn began', () => {
      const r = run([
        init(),
        start('m1'),
        assistant('m1', [text('Let me look.')]),
        assistant('m1', [tool('Bash', { command: 'ls' })]),
        ended('m1', 'tool_use'),
        user(),
        status(),
      ]);
      expect(r.outcome).toEqual(MISS);
      expect(r.at).toBe(4);
    });

    it('a Skill call after a Bash call in the same message still triggers: it comes before the message ends', () => {
      const r = run([
        init(),
        start('m1'),
        assistant('m1', [tool('Bash', { command: 'ls' })]),
        user(),
        assistant('m1', [tool('Skill', { skill: STUB.name })]),
        ended('m1', 'tool_use'),
      ]);
      expect(r.outcome).toEqual(TRIGGERED);
      expect(r.at).toBe(4);
    });

    it('a ToolSearch-only or thinking-only message that ended does not decide; the next message does', () => {
      const r = run([
        init(),
        start('m1'),
        assistant('m1', [thinking()]),
        assistant('m1', [tool('ToolSearch', { query: 'select:Skill' })]),
        ended('m1', 'tool_use'),
        user(),
        status(),
        start('m2'),
        assistant('m2', [tool('Skill', { skill: STUB.name })]),
      ]);
      expect(r.outcome).toEqual(TRIGGERED);
    });

    it('the end of another message does not end the current one', () => {
      const decider = new Decider(STUB);
      for (const line of [
        init(),
        start('m1'),
        assistant('m1', [tool('Bash', { command: 'ls' })]),
        ended('m0', 'tool_use'),
      ]) {
        expect(decider.feed(parseEvent(line))).toBeUndefined();
      }
      expect(decider.feed(parseEvent(ended('m1', 'tool_use')))).toEqual(MISS);
    });

    it('a message cut before its end (a synthetic message_stop, no message_delta) is still no miss', () => {
      const decider = new Decider(STUB);
      for (const line of [
        init(),
        start('m1'),
        assistant('m1', [text('Half an ans')]),
        partial({ type: 'message_stop' }),
      ]) {
        expect(decider.feed(parseEvent(line))).toBeUndefined();
      }
      expect(decider.feed(parseEvent(result()))).toEqual({ kind: 'error', cause: 'network' });
    });
  });

  it('a new message id ends the previous decisive message', () => {
    expect(
      run([
        init(),
        assistant('m1', [tool('Bash', { command: 'ls' })]),
        assistant('m2', [tool('Skill', { skill: STUB.name })]),
      ]).outcome,
    ).toEqual(MISS);
  });

  it('another skill first is a miss', () => {
    expect(
      run([init(), assistant('m1', [tool('Skill', { skill: 'dataviz' })]), user(), status()]).outcome,
    ).toEqual(MISS);
  });

  it('never decides on stream_event partials alone (a cut stream shows a phantom Skill start)', () => {
    const lines = [
      init(),
      partial({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', name: 'Skill', input: {} },
      }),
      partial({ type: 'message_stop' }),
      JSON.stringify({
        type: 'system',
        subtype: 'api_retry',
        attempt: 1,
        error_status: null,
        error: 'unknown',
      }),
      assistant('m9', [text('Here is an answer instead.')]),
      result(),
    ];
    expect(run(lines).outcome).toEqual(MISS);
  });

  it('ignores subagent events', () => {
    const sub = JSON.stringify({
      type: 'assistant',
      message: { id: 's1', model: 'x', content: [tool('Skill', { skill: STUB.name })] },
      parent_tool_use_id: 'toolu_1',
    });
    expect(run([init(), sub, assistant('m1', [text('done')]), result()]).outcome).toEqual(MISS);
  });

  it('no stub in the init roster is an error, decided at init', () => {
    const r = run([init(['dataviz']), assistant('m1', [tool('Skill', { skill: STUB.name })])]);
    expect(r.outcome).toEqual({ kind: 'error', cause: 'no-stub' });
    expect(r.at).toBe(0);
  });

  it('synthetic API-error messages are errors with a cause, never misses', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      [
        'Invalid API key · Fix external API key',
        { error: 'authentication_failed', api_error_status: 401 },
        'auth',
      ],
      ['Not logged in · Please run /login', { error: 'authentication_failed' }, 'auth'],
      ['API Error: 400 model: bogus-model-x', { error: 'unknown', api_error_status: 400 }, 'model'],
      ['API Error: Request rejected (429)', { error: 'rate_limit', api_error_status: 429 }, 'rate-limit'],
      [
        'API Error: Repeated 529 Overloaded errors.',
        { error: 'server_error', api_error_status: 529 },
        'overloaded',
      ],
      ['API Error: 500 Internal server error.', { error: 'server_error', api_error_status: 500 }, 'api'],
      ['API Error: Connection refused (ECONNREFUSED)', { error: 'server_error' }, 'network'],
      [
        "There's an issue with the selected model",
        { error: 'model_not_found', api_error_status: 404 },
        'model',
      ],
    ];
    for (const [line, extra, cause] of cases) {
      const r = run([init(), synthetic(line, extra), result({ is_error: true })]);
      expect(r.outcome, line).toMatchObject({ kind: 'error', cause });
    }
  });

  it('a synthetic error after a decisive message that loaded nothing is an error (the message was cut)', () => {
    const lines = [
      init(),
      assistant('m1', [tool('Bash', { command: 'ls' })]),
      synthetic('API Error: Connection lost mid-response.', {
        error: 'server_error',
        api_error: 'connection_failed',
      }),
    ];
    expect(run(lines).outcome).toMatchObject({ kind: 'error', cause: 'network' });
  });

  it('result.is_error is an error even with subtype success', () => {
    expect(
      run([init(), result({ is_error: true, api_error_status: 500, result: 'API Error: 500' })]).outcome,
    ).toMatchObject({ kind: 'error', cause: 'api', status: 500 });
  });

  it('a stream that ends with no decisive message is an error, and a crash is a crash', () => {
    expect(run([init(), result()]).outcome).toEqual({ kind: 'error', cause: 'no-decision' });
    expect(run([init()], { exitCode: 1 }).outcome).toEqual({ kind: 'error', cause: 'crash' });
    expect(run([init(), assistant('m1', [text('half')])], { signal: 'SIGKILL' }).outcome).toEqual({
      kind: 'error',
      cause: 'crash',
    });
    expect(run([], { exitCode: 0 }).outcome).toEqual({ kind: 'error', cause: 'no-decision' });
    const d = new Decider(STUB);
    expect(d.finish({ spawnFailed: true })).toEqual({ kind: 'error', cause: 'cli-missing' });
  });

  it('a crash after API retries is classified by the retries', () => {
    const retry = JSON.stringify({
      type: 'system',
      subtype: 'api_retry',
      attempt: 1,
      error_status: 429,
      error: 'rate_limit',
    });
    expect(run([init(), retry], { exitCode: 1 }).outcome).toMatchObject({
      kind: 'error',
      cause: 'rate-limit',
    });
  });

  it('tolerates garbage lines and unknown events', () => {
    const lines = [
      'not json',
      '{"type":"brand_new_event"}',
      '[1,2]',
      init(),
      '{"type":"assistant"}',
      assistant('m1', [tool('Skill', { skill: STUB.name })]),
    ];
    expect(run(lines).outcome).toEqual(TRIGGERED);
  });

  it('records usage per message up to the decision, and prefers the result usage and cost', () => {
    const r = run([
      init(),
      assistant('m1', [tool('ToolSearch', { query: 'x' })]),
      status(),
      assistant('m2', [tool('Skill', { skill: STUB.name })]),
    ]);
    expect(r.decider.usage).toMatchObject({ inputTokens: 200, outputTokens: 14 });
    expect(r.decider.usage.costUsd).toBeUndefined();
    const withResult = run([
      init(),
      assistant('m1', [text('x')]),
      result({ usage: { input_tokens: 5, output_tokens: 3 }, total_cost_usd: 0.01 }),
    ]);
    expect(withResult.decider.usage).toMatchObject({ inputTokens: 5, outputTokens: 3, costUsd: 0.01 });
  });

  it('records the init event', () => {
    const r = run([init(), assistant('m1', [text('x')]), result()]);
    expect(r.decider.init).toMatchObject({ model: 'claude-opus-5-5', cliVersion: '2.1.328', mcpServers: 0 });
  });
});

describe('classifyApiError', () => {
  it('maps statuses and texts', () => {
    expect(classifyApiError({ status: 403 })).toBe('auth');
    expect(classifyApiError({ text: 'OAuth token has expired' })).toBe('auth');
    expect(classifyApiError({ status: 400, text: 'messages: text content blocks must be non-empty' })).toBe(
      'api',
    );
    expect(classifyApiError({ text: 'Request timed out.' })).toBe('network');
    expect(classifyApiError({ status: 502 })).toBe('api');
  });
});

describe('usage from message_delta', () => {
  it('takes the final output tokens of a message that ended, which the assistant events do not carry', () => {
    const delta = JSON.stringify({
      type: 'stream_event',
      api_message_id: 'm1',
      event: { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 42 } },
    });
    const start = JSON.stringify({
      type: 'stream_event',
      api_message_id: 'm1',
      event: { type: 'message_start', message: { id: 'm1' } },
    });
    const r = run([init(), start, assistant('m1', [text('Plain answer.')]), delta, status()]);
    expect(r.outcome).toEqual(MISS);
    expect(r.decider.usage.outputTokens).toBe(42);
    expect(r.decider.usage.inputTokens).toBe(100);
  });
});

describe('what the first decisive message loaded (siblings, issue 11)', () => {
  const XLSX = {
    name: 'xlsx-stub-11112222',
    filePath: '/tmp/run/proj/.claude/commands/xlsx-stub-11112222.md',
    projectDir: '/tmp/run/proj',
    skillName: 'xlsx',
  };
  const PDF = {
    name: 'pdf-stub-33334444',
    filePath: '/tmp/run/proj/.claude/commands/pdf-stub-33334444.md',
    projectDir: '/tmp/run/proj',
    skillName: 'pdf',
  };
  const slash = [STUB.name, XLSX.name, PDF.name, 'dataviz'];
  function runWith(lines: string[]) {
    const decider = new Decider(STUB, [XLSX, PDF]);
    for (const line of lines) {
      const outcome = decider.feed(parseEvent(line));
      if (outcome) return { outcome, loaded: decider.loaded };
    }
    return { outcome: decider.finish({ exitCode: 0 }), loaded: decider.loaded };
  }

  it('a message loading a sibling and then the stub is triggered, and loaded the stub', () => {
    const r = runWith([
      init(slash),
      assistant('m1', [tool('Skill', { skill: XLSX.name })]),
      assistant('m1', [tool('Skill', { skill: STUB.name })]),
      result(),
    ]);
    expect(r.outcome).toEqual(TRIGGERED);
    expect(r.loaded).toEqual({ kind: 'stub' });
  });

  it('a message loading only a sibling is not-triggered, with that sibling named', () => {
    const r = runWith([init(slash), assistant('m1', [tool('Skill', { skill: XLSX.name })]), status()]);
    expect(r.outcome).toEqual(MISS);
    expect(r.loaded).toEqual({ kind: 'sibling', name: 'xlsx' });
  });

  it('a Read of a sibling file counts as loading it; the first sibling of the message is the one named', () => {
    const r = runWith([
      init(slash),
      assistant('m1', [text('Let me look.')]),
      assistant('m1', [tool('Read', { file_path: '.claude/commands/pdf-stub-33334444.md' })]),
      assistant('m1', [tool('Skill', { skill: XLSX.name })]),
      result(),
    ]);
    expect(r.outcome).toEqual(MISS);
    expect(r.loaded).toEqual({ kind: 'sibling', name: 'pdf' });
  });

  it('another skill is `other`, a plain answer `none`, and a sibling wins over another skill in the same message', () => {
    expect(
      runWith([init(slash), assistant('m1', [tool('Skill', { skill: 'dataviz' })]), status()]).loaded,
    ).toEqual({
      kind: 'other',
    });
    expect(runWith([init(slash), assistant('m1', [text('Plain answer.')]), result()]).loaded).toEqual({
      kind: 'none',
    });
    const both = runWith([
      init(slash),
      assistant('m1', [tool('Skill', { skill: 'dataviz' }), tool('Skill', { skill: `/${PDF.name}` })]),
      status(),
    ]);
    expect(both.outcome).toEqual(MISS);
    expect(both.loaded).toEqual({ kind: 'sibling', name: 'pdf' });
  });

  it('a sibling loaded only after the decisive message does not count, and an error records nothing', () => {
    const late = runWith([
      init(slash),
      assistant('m1', [tool('Bash', { command: 'ls' })]),
      status(),
      assistant('m2', [tool('Skill', { skill: XLSX.name })]),
      result(),
    ]);
    expect(late.outcome).toEqual(MISS);
    expect(late.loaded).toEqual({ kind: 'none' });
    const lost = runWith([init(slash), result({ is_error: true, result: 'API Error: 500 boom' })]);
    expect(lost.outcome.kind).toBe('error');
    expect(lost.loaded).toBeUndefined();
  });

  it('without siblings, a Skill call naming a sibling-shaped name is just another skill', () => {
    const decider = new Decider(STUB);
    for (const line of [init(slash), assistant('m1', [tool('Skill', { skill: XLSX.name })]), status()])
      decider.feed(parseEvent(line));
    expect(decider.decided).toEqual(MISS);
    expect(decider.loaded).toEqual({ kind: 'other' });
  });
});
