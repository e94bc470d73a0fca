/** The simulated model's HTTP answers, checked on the wire without the CLI (cheap, so exhaustive). */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type Behaviour,
  probabilistic,
  type SimulatedModel,
  type SimulatedModelOptions,
  seededRandom,
  startSimulatedModel,
} from '../../src/simulated/model.js';

const FIXTURE_QUERY = 'Summarise this session for handoff';
const STUB = 'demo-stub-0123abcd';
const CWD = '/tmp/skilltrigger-run/proj';

function rawFixture(name: string): string {
  return readFileSync(new URL(`../fixtures/simulated/${name}.json`, import.meta.url), 'utf8');
}

function escaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** A captured first-turn body with another query and stream flag. */
function firstTurn(query = FIXTURE_QUERY, stream = true): string {
  return rawFixture('format-a-first-turn')
    .replaceAll(escaped(FIXTURE_QUERY), escaped(query))
    .replace('"stream": true', `"stream": ${stream}`);
}

/** A captured follow-up body answering the tool_use id `id`. */
function followUp(id: string): string {
  return rawFixture('format-a-follow-up').replaceAll(/toolu_sim_[0-9a-f]+/g, id);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function field(value: unknown, ...path: string[]): unknown {
  let at = value;
  for (const key of path) at = isRecord(at) ? at[key] : undefined;
  return at;
}

interface Sse {
  event: string;
  data: Record<string, unknown>;
}

function parseSse(text: string): Sse[] {
  const events: Sse[] = [];
  for (const chunk of text.split('\n\n')) {
    const event = /^event: (.+)$/m.exec(chunk)?.[1];
    const data = /^data: (.+)$/m.exec(chunk)?.[1];
    if (event === undefined || data === undefined) continue;
    const parsed: unknown = JSON.parse(data);
    if (!isRecord(parsed)) throw new Error(`SSE data is not an object: ${data}`);
    expect(parsed.type).toBe(event);
    events.push({ event, data: parsed });
  }
  return events;
}

interface ToolUse {
  id: string;
  name: string;
  input: unknown;
}

/** The tool_use blocks of a streamed answer, with their inputs put back together from the deltas. */
function toolUses(events: Sse[]): ToolUse[] {
  const open = new Map<unknown, { id: string; name: string; json: string }>();
  const done: ToolUse[] = [];
  for (const { event, data } of events) {
    if (event === 'content_block_start' && field(data, 'content_block', 'type') === 'tool_use') {
      open.set(data.index, {
        id: String(field(data, 'content_block', 'id')),
        name: String(field(data, 'content_block', 'name')),
        json: '',
      });
    } else if (event === 'content_block_delta' && field(data, 'delta', 'type') === 'input_json_delta') {
      const block = open.get(data.index);
      if (block) block.json += String(field(data, 'delta', 'partial_json'));
    } else if (event === 'content_block_stop') {
      const block = open.get(data.index);
      if (block) done.push({ id: block.id, name: block.name, input: JSON.parse(block.json) });
    }
  }
  return done;
}

function streamedText(events: Sse[]): string {
  return events
    .filter((e) => field(e.data, 'delta', 'type') === 'text_delta')
    .map((e) => String(field(e.data, 'delta', 'text')))
    .join('');
}

let model: SimulatedModel | undefined;

async function start(options: SimulatedModelOptions = {}): Promise<SimulatedModel> {
  model = await startSimulatedModel({ chunkDelayMs: 0, ...options });
  return model;
}

function constant(behaviour: Behaviour): SimulatedModelOptions {
  return { script: () => behaviour };
}

afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function post(m: SimulatedModel, body: string): Promise<Response> {
  return fetch(`${m.url}/v1/messages?beta=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-stainless-retry-count': '0' },
    body,
  });
}

async function streamed(m: SimulatedModel, body: string): Promise<Sse[]> {
  const response = await post(m, body);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  return parseSse(await response.text());
}

describe('streamed answers', () => {
  it('skill: the real event sequence, Skill input in several small deltas, realistic usage', async () => {
    const m = await start(constant({ kind: 'skill' }));
    const events = await streamed(m, firstTurn());
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      ...Array<string>(events.length - 6).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events.length - 6).toBeGreaterThanOrEqual(3);
    expect(toolUses(events)).toEqual([
      { id: expect.stringMatching(/^toolu_sim_/), name: 'Skill', input: { skill: STUB } },
    ]);
    expect(field(events[0]?.data, 'message', 'id')).toMatch(/^msg_sim_/);
    expect(field(events[0]?.data, 'message', 'model')).toBe('claude-opus-5-5');
    expect(field(events[0]?.data, 'message', 'usage', 'input_tokens')).toBeGreaterThan(1000);
    const end = events.at(-2)?.data;
    expect(field(end, 'delta', 'stop_reason')).toBe('tool_use');
    expect(field(end, 'usage', 'output_tokens')).toBeGreaterThan(0);
    expect(m.requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/v1/messages',
        url: '/v1/messages?beta=true',
        behaviour: { kind: 'skill' },
        turn: 1,
        retryCount: 0,
      }),
    ]);
  });

  it('message and tool_use ids are unique across answers', async () => {
    const m = await start(constant({ kind: 'bash-and-skill' }));
    const a = await streamed(m, firstTurn());
    const b = await streamed(m, firstTurn());
    const messageIds = [a, b].map((events) => field(events[0]?.data, 'message', 'id'));
    expect(new Set(messageIds).size).toBe(2);
    const toolIds = [...toolUses(a), ...toolUses(b)].map((t) => t.id);
    expect(new Set(toolIds).size).toBe(4);
  });

  it.each([
    [{ kind: 'skill', leadingSlash: true }, [['Skill', { skill: `/${STUB}` }]]],
    [{ kind: 'skill', name: 'loop' }, [['Skill', { skill: 'loop' }]]],
    [{ kind: 'read-stub' }, [['Read', { file_path: `${CWD}/.claude/commands/${STUB}.md` }]]],
    [{ kind: 'toolsearch-then-skill' }, [['ToolSearch', { query: 'select:WebFetch', max_results: 5 }]]],
    [
      { kind: 'bash-and-skill' },
      [
        ['Bash', { command: 'echo hi', description: 'Print hi' }],
        ['Skill', { skill: STUB }],
      ],
    ],
    [{ kind: 'text-then-skill' }, [['Skill', { skill: STUB }]]],
    [{ kind: 'other-tool' }, [['Bash', { command: 'ls', description: 'List files' }]]],
    [{ kind: 'other-skill' }, [['Skill', { skill: 'dataviz' }]]],
    [{ kind: 'skill-then-work', turns: 1 }, [['Skill', { skill: STUB }]]],
  ] satisfies [Behaviour, [string, unknown][]][])('%j calls %j', async (behaviour, calls) => {
    const m = await start(constant(behaviour));
    const events = await streamed(m, firstTurn());
    expect(toolUses(events).map((t) => [t.name, t.input])).toEqual(calls);
  });

  it('read-stub with the skill layout reads SKILL.md', async () => {
    const m = await start({ ...constant({ kind: 'read-stub' }), stubLayout: 'skill' });
    const events = await streamed(m, firstTurn());
    expect(streamedText(events)).toBe('Let me look.');
    expect(toolUses(events)[0]?.input).toEqual({ file_path: `${CWD}/.claude/skills/${STUB}/SKILL.md` });
  });

  it('thinking-then-text: a signed thinking block, then text, end_turn', async () => {
    const m = await start(constant({ kind: 'thinking-then-text' }));
    const events = await streamed(m, firstTurn());
    const starts = events.filter((e) => e.event === 'content_block_start');
    expect(starts.map((e) => field(e.data, 'content_block', 'type'))).toEqual(['thinking', 'text']);
    const signature = events.find((e) => field(e.data, 'delta', 'type') === 'signature_delta');
    expect(String(field(signature?.data, 'delta', 'signature')).length).toBeGreaterThan(40);
    expect(field(events.at(-2)?.data, 'delta', 'stop_reason')).toBe('end_turn');
  });

  it('text: the gate query answers pong by default, other queries a plain answer', async () => {
    const m = await start();
    expect(streamedText(await streamed(m, firstTurn('Reply with exactly: pong')))).toBe('pong');
    expect(streamedText(await streamed(m, firstTurn()))).toBe('Here is a plain answer.');
    await m.close();
    const custom = await start(constant({ kind: 'text', text: 'Custom.' }));
    expect(streamedText(await streamed(custom, firstTurn()))).toBe('Custom.');
  });

  it('a script can override the gate query', async () => {
    const m = await start(constant({ kind: 'api-error', status: 401 }));
    expect((await post(m, firstTurn('Reply with exactly: pong'))).status).toBe(401);
  });
});

describe('later turns', () => {
  it('a tool_result answers "Done." with end_turn', async () => {
    const m = await start(constant({ kind: 'skill' }));
    const [skill] = toolUses(await streamed(m, firstTurn()));
    const events = await streamed(m, followUp(skill?.id ?? ''));
    expect(streamedText(events)).toBe('Done.');
    expect(field(events.at(-2)?.data, 'delta', 'stop_reason')).toBe('end_turn');
    expect(m.requests[1]).toEqual(expect.objectContaining({ behaviour: { kind: 'skill' }, turn: 2 }));
    expect(m.requests[1]?.view?.followUp).toBe(true);
  });

  it('toolsearch-then-skill: the second turn calls Skill, the third finishes', async () => {
    const m = await start(constant({ kind: 'toolsearch-then-skill' }));
    const [search] = toolUses(await streamed(m, firstTurn()));
    const [skill] = toolUses(await streamed(m, followUp(search?.id ?? '')));
    expect(skill).toEqual(expect.objectContaining({ name: 'Skill', input: { skill: STUB } }));
    expect(streamedText(await streamed(m, followUp(skill?.id ?? '')))).toBe('Done.');
    expect(m.requests.map((r) => r.turn)).toEqual([1, 2, 3]);
  });

  it('skill-then-work: Skill, then `turns` Bash turns after the delay, then Done', async () => {
    const m = await start(constant({ kind: 'skill-then-work', turns: 2, delayMs: 50 }));
    let [call] = toolUses(await streamed(m, firstTurn()));
    const commands: unknown[] = [call?.input];
    for (let turn = 0; turn < 2; turn += 1) {
      const before = Date.now();
      [call] = toolUses(await streamed(m, followUp(call?.id ?? '')));
      expect(Date.now() - before).toBeGreaterThanOrEqual(45);
      commands.push(call?.input);
    }
    expect(commands).toEqual([
      { skill: STUB },
      { command: 'echo step 1', description: 'Work step 1' },
      { command: 'echo step 2', description: 'Work step 2' },
    ]);
    expect(streamedText(await streamed(m, followUp(call?.id ?? '')))).toBe('Done.');
  });

  it('an unknown tool_result id just finishes', async () => {
    const m = await start(constant({ kind: 'hang' }));
    expect(streamedText(await streamed(m, followUp('toolu_unknown')))).toBe('Done.');
  });
});

describe('non-streaming (the fallback after a cut stream)', () => {
  it('answers one JSON message with the whole content', async () => {
    const m = await start(constant({ kind: 'text-then-skill' }));
    const response = await post(m, firstTurn(FIXTURE_QUERY, false));
    expect(response.headers.get('content-type')).toBe('application/json');
    const body: unknown = await response.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^msg_sim_/),
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-5-5',
      content: [
        { type: 'text', text: 'I will use the matching skill for this.' },
        { type: 'tool_use', id: expect.stringMatching(/^toolu_sim_/), name: 'Skill', input: { skill: STUB } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: expect.objectContaining({ input_tokens: expect.any(Number), output_tokens: expect.any(Number) }),
    });
    expect(m.requests[0]?.view?.stream).toBe(false);
  });
});

describe('errors', () => {
  it.each([
    [400, 'invalid_request_error', 'model: claude-opus-5-5'],
    [401, 'authentication_error', 'invalid x-api-key'],
    [403, 'permission_error', expect.stringContaining('permission')],
    [404, 'not_found_error', 'model: claude-opus-5-5'],
    [429, 'rate_limit_error', expect.stringContaining('rate limit')],
    [500, 'api_error', 'Internal server error'],
    [529, 'overloaded_error', 'Overloaded'],
  ] as const)('%i: a real-shaped error body', async (status, type, message) => {
    const m = await start(constant({ kind: 'api-error', status }));
    const response = await post(m, firstTurn());
    expect(response.status).toBe(status);
    expect(response.headers.get('x-should-retry')).toBeNull();
    const requestId = response.headers.get('request-id');
    expect(requestId).toMatch(/^req_sim_/);
    expect(await response.json()).toEqual({ type: 'error', error: { type, message }, request_id: requestId });
  });

  it('noRetry and a custom message', async () => {
    const m = await start(constant({ kind: 'api-error', status: 500, message: 'boom', noRetry: true }));
    const response = await post(m, firstTurn());
    expect(response.headers.get('x-should-retry')).toBe('false');
    expect(field(await response.json(), 'error', 'message')).toBe('boom');
  });

  it('a body that is not a Messages request is a 400', async () => {
    const m = await start();
    const response = await post(m, '{"model":"m"}');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(
      expect.objectContaining({
        error: { type: 'invalid_request_error', message: 'messages: Field required' },
      }),
    );
  });

  it('a script that throws answers 500 without retry', async () => {
    const m = await start({
      script: () => {
        throw new Error('bad scenario');
      },
    });
    const response = await post(m, firstTurn());
    expect(response.status).toBe(500);
    expect(response.headers.get('x-should-retry')).toBe('false');
    expect(field(await response.json(), 'error', 'message')).toMatch(/bad scenario/);
  });
});

describe('broken connections', () => {
  it('cut: message_start, a Skill block start and two deltas, then the socket is gone', async () => {
    const m = await start(constant({ kind: 'cut' }));
    const response = await post(m, firstTurn());
    let text = '';
    const decoder = new TextDecoder();
    await expect(
      (async () => {
        for await (const chunk of response.body ?? []) text += decoder.decode(chunk);
      })(),
    ).rejects.toThrow();
    const events = parseSse(text);
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
    ]);
    expect(field(events[1]?.data, 'content_block', 'name')).toBe('Skill');
  });

  it('reset: no response at all', async () => {
    const m = await start(constant({ kind: 'reset' }));
    await expect(post(m, firstTurn())).rejects.toThrow();
  });

  it('hang: no headers until close(), which ends the connection', async () => {
    const m = await start(constant({ kind: 'hang' }));
    const pending = post(m, firstTurn());
    const early = await Promise.race([pending.then(() => 'answered'), sleep(300).then(() => 'waiting')]);
    expect(early).toBe('waiting');
    await m.close();
    await expect(pending).rejects.toThrow();
  });

  it('stall: headers and message_start, then nothing until close()', async () => {
    const m = await start(constant({ kind: 'stall' }));
    const response = await post(m, firstTurn());
    expect(response.status).toBe(200);
    const reader = response.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toMatch(/^event: message_start\n/);
    const next = reader?.read();
    const early = await Promise.race([next?.then(() => 'more'), sleep(300).then(() => 'waiting')]);
    expect(early).toBe('waiting');
    await m.close();
    await expect(next).rejects.toThrow();
  });
});

describe('other routes', () => {
  it('HEAD /api/hello is 200; an unknown path is a 404 error body', async () => {
    const m = await start();
    expect((await fetch(`${m.url}/api/hello`, { method: 'HEAD' })).status).toBe(200);
    const missing = await fetch(`${m.url}/v2/nothing`);
    expect(missing.status).toBe(404);
    expect(field(await missing.json(), 'error', 'type')).toBe('not_found_error');
    expect(m.requests.map((r) => [r.method, r.path])).toEqual([
      ['HEAD', '/api/hello'],
      ['GET', '/v2/nothing'],
    ]);
  });
});

describe('scripts', () => {
  it('occurrence counts first turns per query; random is seeded by (seed, query, occurrence)', async () => {
    const seen: [number, number][] = [];
    const options: SimulatedModelOptions = {
      seed: 7,
      script: (_req, ctx) => {
        seen.push([ctx.occurrence, ctx.random()]);
        return undefined;
      },
    };
    const m = await start(options);
    for (let i = 0; i < 3; i += 1) await (await post(m, firstTurn())).text();
    await (await post(m, firstTurn('another query'))).text();
    expect(seen.map(([occurrence]) => occurrence)).toEqual([0, 1, 2, 0]);
    expect(seen.map(([, r]) => r)).toEqual([
      seededRandom(7, FIXTURE_QUERY, 0)(),
      seededRandom(7, FIXTURE_QUERY, 1)(),
      seededRandom(7, FIXTURE_QUERY, 2)(),
      seededRandom(7, 'another query', 0)(),
    ]);
  });

  it('probabilistic is deterministic for a seed and hits close to p', () => {
    const hit: Behaviour = { kind: 'skill' };
    const miss: Behaviour = { kind: 'text' };
    const script = probabilistic({ often: 0.8, rarely: 0.1, never: 0 }, hit, miss);
    const view = (query: string) => ({
      query,
      listing: [],
      model: 'm',
      stream: true,
      followUp: false,
      toolResultIds: [],
    });
    const outcomes = (seed: number, query: string, n: number): boolean[] =>
      Array.from({ length: n }, (_, occurrence) => {
        const ctx = { occurrence, random: seededRandom(seed, query, occurrence) };
        return script(view(query), ctx) === hit;
      });
    expect(outcomes(1, 'often', 200)).toEqual(outcomes(1, 'often', 200));
    expect(outcomes(1, 'often', 200)).not.toEqual(outcomes(2, 'often', 200));
    const rate = (query: string) => outcomes(3, query, 4000).filter(Boolean).length / 4000;
    expect(rate('often')).toBeCloseTo(0.8, 1);
    expect(rate('rarely')).toBeCloseTo(0.1, 1);
    expect(rate('never')).toBe(0);
    const ctx = { occurrence: 0, random: seededRandom(0, 'x', 0) };
    expect(script(view('unlisted'), ctx)).toBeUndefined();
    expect(probabilistic({}, hit, miss, { kind: 'hang' })(view('constructor'), ctx)).toEqual({
      kind: 'hang',
    });
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
