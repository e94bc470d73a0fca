import { describe, expect, it } from 'vitest';
import { GeminiDecider, geminiApiError, statusOfExit } from '../../../src/agents/gemini/decision.js';
import { type GeminiEvent, parseGeminiEvent } from '../../../src/agents/gemini/events.js';

const PROJECT = '/tmp/run/project';
const STUB = { name: 'pdf-stub-1a2b3c4d', filePath: `${PROJECT}/.agents/skills/pdf-stub-1a2b3c4d/SKILL.md` };
const SIBLING = {
  name: 'xlsx-stub-0badf00d',
  filePath: `${PROJECT}/.agents/skills/xlsx-stub-0badf00d/SKILL.md`,
  skillName: 'xlsx',
};

const call = (
  toolName: string,
  parameters: Record<string, unknown>,
  toolId = `${toolName}__1`,
): GeminiEvent => ({
  type: 'tool-use',
  toolName,
  toolId,
  parameters,
});
const result = (toolId: string): GeminiEvent => ({ type: 'tool-result', toolId, status: 'error' });
const text = (content: string): GeminiEvent => ({ type: 'message', role: 'assistant', content });
const ok: GeminiEvent = { type: 'result', status: 'success' };

function decide(events: GeminiEvent[]) {
  const decider = new GeminiDecider(STUB, PROJECT, [SIBLING]);
  let outcome: ReturnType<GeminiDecider['feed']>;
  for (const event of events) {
    outcome = decider.feed(event);
    if (outcome) break;
  }
  return { outcome: outcome ?? decider.finish({ exitCode: 0 }), loaded: decider.loaded };
}

describe('the Gemini decision', () => {
  it('activate_skill naming the stub is a hit at once', () => {
    expect(decide([call('activate_skill', { name: STUB.name })])).toEqual({
      outcome: { kind: 'triggered' },
      loaded: { kind: 'stub' },
    });
  });

  it('read_file of the SKILL.md is a hit, absolute or relative to the project', () => {
    expect(decide([call('read_file', { file_path: STUB.filePath })]).outcome.kind).toBe('triggered');
    const relative = `.agents/skills/${STUB.name}/SKILL.md`;
    expect(decide([call('read_file', { file_path: relative })]).outcome.kind).toBe('triggered');
  });

  it('text, then the activation in the same response, is a hit', () => {
    expect(decide([text('I will use it.'), call('activate_skill', { name: STUB.name })]).outcome.kind).toBe(
      'triggered',
    );
  });

  it('another call, then the activation before any tool result, is a hit', () => {
    const events = [
      call('list_directory', { dir_path: '.' }, 'a'),
      call('activate_skill', { name: STUB.name }),
    ];
    expect(decide(events).outcome.kind).toBe('triggered');
  });

  it('text alone is a miss when the run ends', () => {
    expect(decide([text('Here it is.'), ok])).toEqual({
      outcome: { kind: 'not-triggered' },
      loaded: { kind: 'none' },
    });
  });

  it('another tool is a miss at its result; an activation after it is late', () => {
    const events = [
      call('glob', { pattern: '*' }, 'g'),
      result('g'),
      call('activate_skill', { name: STUB.name }),
    ];
    expect(decide(events)).toEqual({ outcome: { kind: 'not-triggered' }, loaded: { kind: 'none' } });
  });

  it('another skill is a miss that names what was loaded', () => {
    expect(decide([call('activate_skill', { name: 'skill-creator' }, 'k'), result('k')]).loaded).toEqual({
      kind: 'other',
    });
    expect(decide([call('activate_skill', { name: SIBLING.name }, 'k'), result('k')]).loaded).toEqual({
      kind: 'sibling',
      name: 'xlsx',
    });
  });

  it('an end with neither text nor a call is no decision, never a miss', () => {
    expect(decide([ok]).outcome).toEqual({ kind: 'error', cause: 'no-decision' });
    expect(decide([]).outcome).toEqual({ kind: 'error', cause: 'no-decision' });
  });

  it('a failed result is an API error with the status its message quotes', () => {
    const failed: GeminiEvent = {
      type: 'result',
      status: 'error',
      errorMessage: '[API Error: {"error":{"code":500,"message":"x","status":"INTERNAL"}}]',
    };
    expect(decide([failed]).outcome).toEqual({ kind: 'error', cause: 'api', status: 500 });
  });

  it('a failed result without a status waits for the exit code (status modulo 256)', () => {
    const decider = new GeminiDecider(STUB, PROJECT);
    const failed: GeminiEvent = {
      type: 'result',
      status: 'error',
      errorMessage: '[API Error: quota]\nPlease wait',
    };
    expect(decider.feed(failed)).toBeUndefined();
    expect(decider.finish({ exitCode: 173 })).toEqual({ kind: 'error', cause: 'rate-limit', status: 429 });
  });

  it('a missing executable and a crash are errors', () => {
    expect(new GeminiDecider(STUB, PROJECT).finish({ spawnFailed: true })).toEqual({
      kind: 'error',
      cause: 'cli-missing',
    });
    expect(new GeminiDecider(STUB, PROJECT).finish({ exitCode: 1 })).toEqual({
      kind: 'error',
      cause: 'crash',
    });
  });

  it('maps an exit code back to its status, and nothing else', () => {
    expect([145, 173, 244, 247].map(statusOfExit)).toEqual([401, 429, 500, 503]);
    expect([0, 1, 41, 52].map(statusOfExit)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('reads a request that never reached a server as a network error', () => {
    expect(geminiApiError('[API Error: exception TypeError: fetch failed sending request]')).toEqual({
      kind: 'error',
      cause: 'network',
    });
  });
});

describe('the stream-json reader', () => {
  it('reads the events a run prints, from unknown', () => {
    expect(
      parseGeminiEvent(
        '{"type":"tool_use","tool_name":"activate_skill","tool_id":"activate_skill__x","parameters":{"name":"p"}}',
      ),
    ).toEqual({
      type: 'tool-use',
      toolName: 'activate_skill',
      toolId: 'activate_skill__x',
      parameters: { name: 'p' },
    });
    expect(parseGeminiEvent('{"type":"init","session_id":"s","model":"m"}')).toEqual({
      type: 'init',
      sessionId: 's',
      model: 'm',
    });
    expect(
      parseGeminiEvent(
        '{"type":"result","status":"success","stats":{"input_tokens":200,"output_tokens":10,"cached":50}}',
      ),
    ).toEqual({
      type: 'result',
      status: 'success',
      usage: { inputTokens: 150, outputTokens: 10, cacheReadInputTokens: 50, cacheCreationInputTokens: 0 },
    });
  });

  it('never throws on a line it does not know', () => {
    expect(parseGeminiEvent('not json')).toEqual({ type: 'unparseable' });
    expect(parseGeminiEvent('[1]')).toEqual({ type: 'unparseable' });
    expect(parseGeminiEvent('{"type":"constructor"}')).toEqual({ type: 'other', name: 'constructor' });
    expect(parseGeminiEvent('{"type":"tool_use","tool_name":5,"parameters":"x"}')).toEqual({
      type: 'tool-use',
      toolName: '',
      toolId: '',
      parameters: {},
    });
  });
});
