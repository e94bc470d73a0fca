/**
 * The simulated model driven by the REAL `claude` CLI: for each behaviour, the raw stream-json lines
 * show what docs/claude-cli.md says the CLI does with such an answer.
 * About 20 runs of the binary (~1.4 s CPU each); keep it that way.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Behaviour,
  type RecordedRequest,
  type Script,
  type SimulatedModelOptions,
  startSimulatedModel,
} from '../../src/simulated/model.js';
import { CLAUDE_BIN, makeClaudeEnv } from '../fakes/claude-env.js';

const STUB = 'demo-stub-0123abcd';
const DESCRIPTION = 'Summarise the current session into HANDOFF.md so the next session can resume the work';
const QUERY = 'Write a handoff note for the next session';

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface Run {
  events: Json[];
  code: number | null;
  signal: NodeJS.Signals | null;
  requests: RecordedRequest[];
}

interface RunOptions {
  query?: string;
  args?: string[];
  env?: Record<string, string>;
  /** SIGTERM this long after the first request reached the model (hang/stall); else a 60 s safety net. */
  killAfterRequestMs?: number;
}

let project = '';

beforeAll(async () => {
  // realpath: the CLI reports the resolved directory, and TMPDIR may sit behind a symlink.
  project = await realpath(await mkdtemp(join(tmpdir(), 'skilltrigger-sim-')));
  // git init stops the CLI from picking up `.claude/` folders of parent directories.
  execFileSync('git', ['init', '-q'], { cwd: project });
  await mkdir(join(project, '.claude', 'commands'), { recursive: true });
  await writeFile(
    join(project, '.claude', 'commands', `${STUB}.md`),
    `---\ndescription: ${DESCRIPTION}\n---\n\nStub body for ${STUB}. $ARGUMENTS\n`,
  );
});

afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

async function runClaude(options: SimulatedModelOptions, run: RunOptions = {}): Promise<Run> {
  const model = await startSimulatedModel(options);
  const { env, cleanup } = await makeClaudeEnv(model, run.env);
  try {
    const args = [
      '-p',
      run.query ?? QUERY,
      '--output-format',
      'stream-json',
      '--verbose',
      '--include-partial-messages',
      '--no-session-persistence',
      ...(run.args ?? []),
    ];
    const child = spawn(CLAUDE_BIN, args, {
      cwd: project,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.resume();
    const kill = () => {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    };
    const timers = [setTimeout(kill, 60_000)];
    const { killAfterRequestMs } = run;
    if (killAfterRequestMs !== undefined) {
      // Startup alone can take seconds on a busy machine: count from the request, not the spawn.
      const poll = setInterval(() => {
        if (model.requests.length === 0) return;
        clearInterval(poll);
        timers.push(setTimeout(kill, killAfterRequestMs));
      }, 50);
      timers.push(poll);
    }
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
      child.on('close', (c, s) => resolve([c, s]));
    });
    for (const timer of timers) clearTimeout(timer);
    const events: Json[] = [];
    for (const line of stdout.split('\n')) {
      if (line.trim() === '') continue;
      const parsed: unknown = JSON.parse(line);
      if (!isRecord(parsed)) throw new Error(`stream-json line is not an object: ${line}`);
      events.push(parsed);
    }
    return { events, code, signal, requests: model.requests };
  } finally {
    await model.close();
    await cleanup();
  }
}

function constant(behaviour: Behaviour, extra: SimulatedModelOptions = {}): SimulatedModelOptions {
  return { script: () => behaviour, ...extra };
}

interface Block {
  messageId: string;
  type: string;
  name?: unknown;
  input?: unknown;
  text?: unknown;
  signature?: unknown;
}

/** The content blocks of the model's own `assistant` events (the CLI emits one event per block). */
function assistantBlocks(run: Run): Block[] {
  const blocks: Block[] = [];
  for (const event of run.events) {
    if (event.type !== 'assistant' || event.is_api_error_message === true) continue;
    const message = event.message;
    if (!isRecord(message) || message.model === '<synthetic>' || !Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (!isRecord(block) || typeof block.type !== 'string') continue;
      blocks.push({
        messageId: String(message.id),
        type: block.type,
        name: block.name,
        input: block.input,
        text: block.text,
        signature: block.signature,
      });
    }
  }
  return blocks;
}

function toolCalls(run: Run): Block[] {
  return assistantBlocks(run).filter((b) => b.type === 'tool_use');
}

/** The text of every tool_result the CLI sent back, in order. */
function toolResults(run: Run): string[] {
  const results: string[] = [];
  for (const event of run.events) {
    if (event.type !== 'user' || !isRecord(event.message) || !Array.isArray(event.message.content)) continue;
    for (const block of event.message.content) {
      if (!isRecord(block) || block.type !== 'tool_result') continue;
      results.push(typeof block.content === 'string' ? block.content : JSON.stringify(block.content));
    }
  }
  return results;
}

function result(run: Run): Json | undefined {
  return run.events.find((e) => e.type === 'result');
}

function streamEventTypes(run: Run): unknown[] {
  return run.events
    .filter((e) => e.type === 'stream_event')
    .map((e) => (isRecord(e.event) ? e.event.type : undefined));
}

function firstTurns(run: Run): RecordedRequest[] {
  return run.requests.filter((r) => r.view !== undefined && !r.view.followUp);
}

describe('answers the real CLI acts on', () => {
  it('the gate query answers pong with the default script; the request is parsed', async () => {
    const run = await runClaude({}, { query: 'Reply with exactly: pong' });
    expect(run.code).toBe(0);
    expect(result(run)).toEqual(expect.objectContaining({ is_error: false, result: 'pong' }));
    // CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1: no HEAD /api/hello preflight, just the one turn.
    expect(run.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /v1/messages?beta=true']);
    const view = run.requests[0]?.view;
    expect(view).toEqual(
      expect.objectContaining({
        query: 'Reply with exactly: pong',
        cwd: project,
        model: 'claude-opus-5-5',
        stream: true,
        followUp: false,
        stub: { name: STUB, description: DESCRIPTION },
      }),
    );
    expect(view?.listing.map((e) => e.name)).toContain('dataviz');
  });

  it('skill: an assistant Skill call naming the stub, which the CLI launches', async () => {
    const run = await runClaude(constant({ kind: 'skill' }));
    expect(toolCalls(run)).toEqual([expect.objectContaining({ name: 'Skill', input: { skill: STUB } })]);
    expect(toolResults(run)).toEqual([`Launching skill: ${STUB}`]);
    expect(streamEventTypes(run).filter((t) => t === 'content_block_delta').length).toBeGreaterThanOrEqual(3);
    expect(result(run)).toEqual(expect.objectContaining({ is_error: false, result: 'Done.' }));
    expect(run.requests.map((r) => [r.view?.followUp, r.turn])).toEqual([
      [false, 1],
      [true, 2],
    ]);
  });

  it('skill with a leading slash, listing format B (claude-sonnet-4-5)', async () => {
    const run = await runClaude(constant({ kind: 'skill', leadingSlash: true }), {
      args: ['--model', 'claude-sonnet-4-5'],
    });
    expect(toolCalls(run)).toEqual([
      expect.objectContaining({ name: 'Skill', input: { skill: `/${STUB}` } }),
    ]);
    expect(toolResults(run)).toEqual([`Launching skill: ${STUB}`]);
    expect(run.requests[0]?.view).toEqual(
      expect.objectContaining({
        model: 'claude-sonnet-4-5',
        cwd: project,
        stub: { name: STUB, description: DESCRIPTION },
      }),
    );
  });

  it('read-stub: text, then Read of the stub file in the same message', async () => {
    const run = await runClaude(constant({ kind: 'read-stub' }));
    const blocks = assistantBlocks(run);
    expect(blocks.map((b) => b.type)).toEqual(['text', 'tool_use', 'text']);
    expect(blocks[0]?.text).toBe('Let me look.');
    expect(blocks[1]).toEqual(
      expect.objectContaining({
        name: 'Read',
        input: { file_path: join(project, '.claude', 'commands', `${STUB}.md`) },
      }),
    );
    expect(blocks[1]?.messageId).toBe(blocks[0]?.messageId);
    expect(toolResults(run)[0]).toContain(`description: ${DESCRIPTION}`);
  });

  it('toolsearch-then-skill: ToolSearch alone, then Skill in the next message', async () => {
    const run = await runClaude(constant({ kind: 'toolsearch-then-skill' }));
    const calls = toolCalls(run);
    expect(calls.map((c) => c.name)).toEqual(['ToolSearch', 'Skill']);
    expect(calls[1]?.input).toEqual({ skill: STUB });
    expect(calls[1]?.messageId).not.toBe(calls[0]?.messageId);
    expect(toolResults(run)[1]).toBe(`Launching skill: ${STUB}`);
    expect(run.requests.map((r) => r.turn)).toEqual([1, 2, 3]);
    expect(result(run)).toEqual(expect.objectContaining({ result: 'Done.' }));
  });

  it('bash-and-skill: Bash and Skill in one message; both run', async () => {
    const run = await runClaude(constant({ kind: 'bash-and-skill' }));
    const calls = toolCalls(run);
    expect(calls.map((c) => c.name)).toEqual(['Bash', 'Skill']);
    expect(calls[0]?.messageId).toBe(calls[1]?.messageId);
    expect(calls[1]?.input).toEqual({ skill: STUB });
    expect(toolResults(run)).toEqual(['hi', `Launching skill: ${STUB}`]);
  });

  it('text-then-skill: text and Skill share one message id', async () => {
    const run = await runClaude(constant({ kind: 'text-then-skill' }));
    const [text, skill] = assistantBlocks(run);
    expect(text?.type).toBe('text');
    expect(skill).toEqual(expect.objectContaining({ name: 'Skill', input: { skill: STUB } }));
    expect(skill?.messageId).toBe(text?.messageId);
  });

  it('thinking-then-text: a signed thinking event, then the text; no tool', async () => {
    const run = await runClaude(constant({ kind: 'thinking-then-text' }));
    const blocks = assistantBlocks(run);
    expect(blocks.map((b) => b.type)).toEqual(['thinking', 'text']);
    expect(typeof blocks[0]?.signature).toBe('string');
    expect(blocks[0]?.messageId).toBe(blocks[1]?.messageId);
    expect(result(run)).toEqual(
      expect.objectContaining({ is_error: false, result: 'Here is a plain answer.' }),
    );
  });

  it('other-tool: Bash ls and no Skill', async () => {
    const run = await runClaude(constant({ kind: 'other-tool' }));
    expect(toolCalls(run)).toEqual([
      expect.objectContaining({ name: 'Bash', input: expect.objectContaining({ command: 'ls' }) }),
    ]);
    expect(result(run)).toEqual(expect.objectContaining({ is_error: false, result: 'Done.' }));
  });

  it('other-skill: Skill naming a different listed skill', async () => {
    const run = await runClaude(constant({ kind: 'other-skill' }));
    const [call] = toolCalls(run);
    const listed = run.requests[0]?.view?.listing.map((e) => e.name) ?? [];
    expect(call?.name).toBe('Skill');
    expect(call?.input).not.toEqual({ skill: STUB });
    const name = isRecord(call?.input) ? call.input.skill : undefined;
    expect(listed).toContain(name);
    expect(toolResults(run)[0]).toBe(`Launching skill: ${String(name)}`);
  });

  it('skill-then-work: Skill, then more turns of tool calls with delays', async () => {
    const run = await runClaude(constant({ kind: 'skill-then-work', turns: 2, delayMs: 200 }));
    expect(toolCalls(run).map((c) => c.name)).toEqual(['Skill', 'Bash', 'Bash']);
    expect(toolResults(run)).toEqual([`Launching skill: ${STUB}`, 'step 1', 'step 2']);
    expect(run.requests.map((r) => r.turn)).toEqual([1, 2, 3, 4]);
    const at = run.requests.map((r) => r.at);
    expect((at[3] ?? 0) - (at[1] ?? 0)).toBeGreaterThanOrEqual(400);
    expect(result(run)).toEqual(expect.objectContaining({ result: 'Done.' }));
  });

  it('cut: the stream dies mid-Skill, then the Skill call comes from a non-streaming fallback', async () => {
    const script: Script = (_req, ctx) => (ctx.occurrence === 0 ? { kind: 'cut' } : { kind: 'skill' });
    const run = await runClaude({ script }, { env: { CLAUDE_CODE_MAX_RETRIES: '0' } });
    // The CLI may or may not print the phantom Skill block start, depending on how much it read
    // before the socket died (a race seen on a busy machine); the decision never reads partials.
    expect(run.events.some((e) => isRecord(e.event) && e.event.type === 'message_start')).toBe(true);
    const calls = toolCalls(run);
    expect(calls).toEqual([expect.objectContaining({ name: 'Skill', input: { skill: STUB } })]);
    // The decisive message came from the stream:false fallback: no stream_event carries its id.
    const streamedIds = run.events.filter((e) => e.type === 'stream_event').map((e) => e.api_message_id);
    expect(streamedIds).not.toContain(calls[0]?.messageId);
    expect(run.requests.map((r) => r.view?.stream)).toEqual([true, false, true]);
    expect(result(run)).toEqual(expect.objectContaining({ is_error: false }));
  });
});

describe('API errors surface as is_error results (CLAUDE_CODE_MAX_RETRIES=0)', () => {
  const noRetries = { env: { CLAUDE_CODE_MAX_RETRIES: '0' } };

  it.each([
    // 400: the CLI re-sends 5 times without betas, whatever the retry setting.
    [{ kind: 'api-error', status: 400 }, 400, 6, 'API Error: 400 model: claude-opus-5-5'],
    [{ kind: 'api-error', status: 401, noRetry: true }, 401, 1, 'Invalid API key'],
    // 404: one streaming and one non-streaming attempt.
    [{ kind: 'api-error', status: 404 }, 404, 2, 'issue with the selected model'],
    [{ kind: 'api-error', status: 429 }, 429, 1, 'Request rejected (429)'],
    [{ kind: 'api-error', status: 529 }, 529, 1, 'Overloaded'],
  ] satisfies [Behaviour, number, number, string][])('%j', async (behaviour, status, requests, text) => {
    const run = await runClaude(constant(behaviour), noRetries);
    expect(run.code).toBe(1);
    expect(result(run)).toEqual(
      expect.objectContaining({
        type: 'result',
        is_error: true,
        terminal_reason: 'api_error',
        api_error_status: status,
        result: expect.stringContaining(text),
      }),
    );
    expect(run.events).toContainEqual(
      expect.objectContaining({ type: 'assistant', is_api_error_message: true, api_error_status: status }),
    );
    expect(firstTurns(run)).toHaveLength(requests);
  });

  it('reset: a network error without a status', async () => {
    const run = await runClaude(constant({ kind: 'reset' }), noRetries);
    expect(run.code).toBe(1);
    expect(result(run)).toEqual(
      expect.objectContaining({
        is_error: true,
        api_error_status: null,
        result: expect.stringContaining('ECONNRESET'),
      }),
    );
    expect(toolCalls(run)).toEqual([]);
    expect(run.requests).toHaveLength(1);
  });
});

describe('no answer: the CLI waits until killed', () => {
  it('hang: no headers ever, no result', async () => {
    const run = await runClaude(constant({ kind: 'hang' }), { killAfterRequestMs: 2000 });
    expect(run.signal ?? run.code).toBeTruthy();
    expect(result(run)).toBeUndefined();
    expect(run.events.some((e) => e.type === 'stream_event')).toBe(false);
    expect(run.requests).toHaveLength(1);
  });

  it('stall: message_start arrives, then nothing, no result', async () => {
    const run = await runClaude(constant({ kind: 'stall' }), { killAfterRequestMs: 2000 });
    expect(result(run)).toBeUndefined();
    expect(streamEventTypes(run)).toEqual(['message_start']);
    expect(assistantBlocks(run)).toEqual([]);
    expect(run.requests).toHaveLength(1);
  });
});
