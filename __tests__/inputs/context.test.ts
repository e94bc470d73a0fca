import { describe, expect, it } from 'vitest';
import { InputErrors } from '../../src/errors.js';
import { describeContext, parseContextText, readInlineTurns } from '../../src/inputs/context.js';
import { Problems } from '../../src/inputs/problems.js';

const TURNS = [
  { role: 'user', content: 'Fix the build' },
  { role: 'assistant', content: 'Fixed: a missing import.' },
] as const;

/** The message a refusal carries (every refusal is an InputErrors). */
function refusal(text: string, file = 'ctx.json'): string {
  try {
    parseContextText(text, file);
  } catch (error) {
    expect(error).toBeInstanceOf(InputErrors);
    return (error as InputErrors).message;
  }
  throw new Error('expected a refusal');
}

describe('a JSON array of turns', () => {
  it('is read as it is', () => {
    expect(parseContextText(JSON.stringify(TURNS, null, 2), 'ctx.json')).toEqual({
      turns: TURNS,
      format: 'turns',
    });
  });

  it('is refused with the line of a syntax error', () => {
    expect(
      refusal('[\n  {"role": "user", "content": "a"},\n  {"role": "assistant" "content": "b"}\n]'),
    ).toMatch(/^ctx\.json:line 3: is not valid JSON.*Fix: fix the syntax at line 3/);
  });

  it('names the turn, its line and the fix of a bad role, an empty text, or a tool call', () => {
    const text = [
      '[',
      '  {"role": "user", "content": "a"},',
      '  {"role": "system", "content": "b"},',
      '  {"role": "user", "content": ""},',
      '  {"role": "assistant", "content": "c", "tool_calls": []}',
      ']',
    ].join('\n');
    const message = refusal(text);
    expect(message).toContain(
      'ctx.json:line 3 (turn #2): has the role the string "system". Fix: give "role"',
    );
    expect(message).toContain('ctx.json:line 4 (turn #3): has the content the string "". Fix:');
    expect(message).toContain('ctx.json:line 5 (turn #4): has "tool_calls"');
  });

  it('must start with the user, alternate, and end with the assistant', () => {
    expect(refusal('[{"role": "assistant", "content": "a"}]')).toContain(
      '(turn #1): is a assistant turn where a user turn belongs',
    );
    expect(refusal('[{"role": "user", "content": "a"}]')).toContain(
      "(turn #1): ends the context with a user turn; the query is the next user message. Fix: end the context with the assistant's answer",
    );
    expect(refusal('[]')).toContain('holds no turns');
    expect(refusal('{"role": "user"}')).toMatch(/^ctx\.json:line 1: is neither/);
  });
});

describe('a transcript read as messages', () => {
  it("reads a Claude Code session's main chain, text only, joining one role's neighbours", () => {
    const lines = [
      { type: 'queue-operation', operation: 'enqueue' },
      { type: 'user', message: { role: 'user', content: 'Fix the build' } },
      { type: 'attachment', attachment: {} },
      { type: 'api-request-blob', message: { role: 'user', content: 'not a turn' } },
      { type: 'user', isMeta: true, message: { role: 'user', content: 'a caveat' } },
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm' }] } },
      {
        type: 'assistant',
        message: { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'Bash', input: {} }] },
      },
      {
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'ok' }] },
      },
      {
        type: 'assistant',
        isSidechain: true,
        message: { role: 'assistant', content: [{ type: 'text', text: 'x' }] },
      },
      {
        type: 'assistant',
        message: { role: 'assistant', content: [{ type: 'text', text: 'Fixed: a missing' }] },
      },
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'import.' }] } },
    ];
    const parsed = parseContextText(lines.map((l) => JSON.stringify(l)).join('\n'), 'session.jsonl');
    expect(parsed).toEqual({
      format: 'claude-session',
      turns: [
        { role: 'user', content: 'Fix the build' },
        { role: 'assistant', content: 'Fixed: a missing\n\nimport.' },
      ],
    });
  });

  it("reads a Codex rollout's user and assistant messages, without what Codex injects", () => {
    const item = (role: string, type: string, text: string) => ({
      type: 'response_item',
      payload: { type: 'message', role, content: [{ type, text }] },
    });
    const lines = [
      { type: 'session_meta', payload: { id: 'x' } },
      item('developer', 'input_text', 'You are Codex'),
      item('user', 'input_text', '<environment_context>\n  <cwd>/p</cwd>\n</environment_context>'),
      item('user', 'input_text', 'Fix the build'),
      { type: 'event_msg', payload: { type: 'task_started' } },
      item('assistant', 'output_text', 'Fixed: a missing import.'),
    ];
    const parsed = parseContextText(lines.map((l) => JSON.stringify(l)).join('\n'), 'rollout.jsonl');
    expect(parsed).toEqual({ format: 'codex-rollout', turns: TURNS });
  });

  it('refuses a line that is not JSON, with its line', () => {
    const text = `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'a' } })}\n{oops\n`;
    expect(refusal(text, 'session.jsonl')).toMatch(/^session\.jsonl:line 2: is not a JSON object: .*Fix: /);
  });

  it('refuses a session that ends with the user', () => {
    const text = JSON.stringify({ type: 'user', message: { role: 'user', content: 'a' } });
    expect(refusal(text, 'session.jsonl')).toContain('ends the context with a user turn');
  });
});

describe('inline turns and the summary', () => {
  it('checks inline turns at the entry', () => {
    const problems = new Problems();
    const location = { file: 'evals.json', line: 4, entry: 'entry #2' };
    expect(readInlineTurns([...TURNS], location, problems)).toEqual(TURNS);
    expect(readInlineTurns([{ role: 'user', content: 'a' }], location, problems)).toBeUndefined();
    expect(problems.errors.map((e) => e.message)).toEqual([
      "evals.json:line 4 (entry #2, turn #1): ends the context with a user turn; the query is the next user message. Fix: end the context with the assistant's answer",
    ]);
  });

  it('says the hash, the turns and the characters, never the text; the same turns hash alike', () => {
    const summary = describeContext(TURNS);
    expect(summary).toEqual({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/), turns: 2, chars: 37 });
    expect(JSON.stringify(summary)).not.toContain('build');
    const fromSession = parseContextText(
      [
        { type: 'user', message: { role: 'user', content: 'Fix the build' } },
        {
          type: 'assistant',
          message: { role: 'assistant', content: [{ type: 'text', text: 'Fixed: a missing import.' }] },
        },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
      'session.jsonl',
    );
    expect(describeContext(fromSession.turns).sha256).toBe(summary.sha256);
    expect(describeContext([{ role: 'user', content: 'é✓' }]).chars).toBe(2);
  });
});
