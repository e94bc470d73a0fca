/**
 * The simulated model: a loopback fake of the Anthropic Messages API that the real `claude` CLI talks
 * to in tests and in `npm run demo`. It reads what the CLI sends (query, skill listing, working
 * directory), asks a scenario script how the "model" behaves, and answers in the real wire shapes,
 * including the failure modes recorded in reference/claude-cli-facts.md (errors, hangs, cut streams).
 * Node built-ins only: it ships with the package.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { messageOf } from '../errors.js';
import {
  GATE_QUERY,
  isDefaultStub,
  type ListingEntry,
  parseRequestView,
  type RequestView,
} from './request.js';
import type { Behaviour, ErrorStatus, Script, ToolCall } from './script.js';
import {
  type Answer,
  type AnswerBlock,
  answerEvents,
  answerMessage,
  estimateTokens,
  formatSse,
  messageStart,
  newId,
  newSignature,
  openBlockEvents,
  outputTokens,
  type SseEvent,
  type StopReason,
} from './sse.js';

export { GATE_QUERY, type ListingEntry, parseRequestView, type RequestView } from './request.js';

// The script's vocabulary lives in a leaf module, so scripts (description-script.ts) need not import this file.
export type { Behaviour, ErrorStatus, Script, ScriptContext, ToolCall } from './script.js';

export interface SimulatedModelOptions {
  /** Default: the default answer for every query. */
  script?: Script;
  /** Seed of `ScriptContext.random` (default 0). */
  seed?: number;
  /** Picks the stub from the listing (default: a name ending in `-stub-<8 hex>`). */
  isStub?: (entry: ListingEntry) => boolean;
  /**
   * Which other listed entries are stubs too (siblings of the skill layout, listed by their real
   * names); `-stub-<8 hex>` names always are. Default: none. See `RequestView.stubs`.
   */
  isCompetitor?: (entry: ListingEntry) => boolean;
  /** Where the stub file lives, for `read-stub` (default `command`). */
  stubLayout?: 'command' | 'skill';
  /** Delay between SSE events (default 5 ms). */
  chunkDelayMs?: number;
  /** Keep each request's parsed JSON body in `RecordedRequest.body` (large: ~100 kB per request). */
  recordBodies?: boolean;
}

export interface RecordedRequest {
  method: string;
  /** The path without the query string. */
  path: string;
  /** The request target as sent, e.g. `/v1/messages?beta=true`. */
  url: string;
  view?: RequestView;
  /** The parsed body, with `recordBodies` only. */
  body?: unknown;
  /** For a first turn the script's choice; for a follow-up the first-turn behaviour it continues. */
  behaviour?: Behaviour;
  /** 1 for a first turn, 2… for the follow-ups of the same run (0 when unknown). */
  turn?: number;
  /**
   * The usage the answer carried (message_start's prompt counts; `output` as message_delta gives
   * it), for answers only. A run stopped at its decision has read only part of it.
   */
  usage?: { input: number; cacheRead: number; cacheCreation: number; output: number };
  /** `x-stainless-retry-count` as sent; the 400 beta-stripping re-sends keep it at 0. */
  retryCount?: number;
  at: number;
}

export interface SimulatedModel {
  /** `http://127.0.0.1:<port>`: the value for ANTHROPIC_BASE_URL. */
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Stops listening and ends every open connection, hung and stalled ones included. */
  close(): Promise<void>;
}

/** The prompt side of a simulated answer's usage. */
type SimulatedPrompt = Pick<Answer, 'inputTokens' | 'cacheReadTokens' | 'cacheCreationTokens'>;

/** What the next turn of a run does. */
type NextStep =
  | { kind: 'done' }
  | { kind: 'skill'; name: string }
  /** More Bash turns (`remaining`), then Skill naming `name`. */
  | { kind: 'look-then-skill'; remaining: number; name: string }
  | { kind: 'work'; remaining: number; step: number; delayMs: number }
  | { kind: 'calls'; calls: ToolCall[] };

/** Keyed by the tool_use ids the previous turn emitted: the CLI answers them in the next request. */
interface Continuation {
  origin: Behaviour;
  turn: number;
  next: NextStep;
}

type Plan =
  | { kind: 'answer'; blocks: AnswerBlock[]; delayMs: number; next?: Continuation }
  | { kind: 'error'; status: ErrorStatus; message: string; noRetry: boolean }
  | { kind: 'hang' }
  | { kind: 'stall' }
  | { kind: 'cut'; block: AnswerBlock; before?: AnswerBlock }
  | { kind: 'reset' };

const ERROR_TYPES: Record<ErrorStatus, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

function defaultErrorMessage(status: ErrorStatus, model: string): string {
  switch (status) {
    case 400:
    case 404:
      // The real API names the model this way when it does not know it.
      return `model: ${model}`;
    case 401:
      return 'invalid x-api-key';
    case 403:
      return 'Your API key does not have permission to use the specified resource.';
    case 429:
      return 'Number of request tokens has exceeded your per-minute rate limit (https://docs.claude.com/en/api/rate-limits); see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later.';
    case 500:
      return 'Internal server error';
    case 529:
      return 'Overloaded';
  }
}

const DEFAULT_TEXT = 'Here is a plain answer.';
const DEFAULT_WORK_DELAY_MS = 300;

function defaultText(view: RequestView): string {
  return view.query === GATE_QUERY ? 'pong' : DEFAULT_TEXT;
}

/** sfc32 seeded from SHA-256, so the sequence depends only on (seed, query, occurrence). */
export function seededRandom(seed: number, query: string, occurrence: number): () => number {
  const digest = createHash('sha256').update(`${seed}\u0000${occurrence}\u0000${query}`).digest();
  let a = digest.readUInt32LE(0);
  let b = digest.readUInt32LE(4);
  let c = digest.readUInt32LE(8);
  let d = digest.readUInt32LE(12);
  return () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

/** Hit with probability `p[query]` (seeded), else miss; queries not in the table get `fallback`. */
export function probabilistic(
  p: Record<string, number>,
  hit: Behaviour,
  miss: Behaviour,
  fallback?: Behaviour,
): Script {
  return (req, ctx) => {
    if (!Object.hasOwn(p, req.query)) return fallback;
    const probability = p[req.query] ?? 0;
    return ctx.random() < probability ? hit : miss;
  };
}

function text(value: string): AnswerBlock {
  return { type: 'text', text: value };
}

function tool(name: string, input: Record<string, unknown>): AnswerBlock & { type: 'tool_use' } {
  return { type: 'tool_use', id: newId('toolu_sim_'), name, input };
}

function bash(command: string, description: string): AnswerBlock & { type: 'tool_use' } {
  return tool('Bash', { command, description });
}

/** Every tool call of a message gets the same continuation: whichever result comes back leads on. */
function answer(blocks: AnswerBlock[], origin: Behaviour, turn: number, next: NextStep, delayMs = 0): Plan {
  const hasTool = blocks.some((b) => b.type === 'tool_use');
  return { kind: 'answer', blocks, delayMs, ...(hasTool ? { next: { origin, turn: turn + 1, next } } : {}) };
}

function stubPath(view: RequestView, stub: string, layout: 'command' | 'skill'): string {
  const relative = layout === 'skill' ? `.claude/skills/${stub}/SKILL.md` : `.claude/commands/${stub}.md`;
  return view.cwd === undefined ? relative : `${view.cwd.replace(/\/+$/, '')}/${relative}`;
}

function planFirstTurn(behaviour: Behaviour, view: RequestView, layout: 'command' | 'skill'): Plan {
  const stub = view.stub?.name;
  const reply = (blocks: AnswerBlock[], next: NextStep = { kind: 'done' }): Plan =>
    answer(blocks, behaviour, 1, next);
  // Without a stub in the listing a real model has nothing to call; answer text, like a miss.
  const noStub = (): Plan => reply([text('No listed skill fits this request.')]);
  switch (behaviour.kind) {
    case 'skill': {
      const name = behaviour.name ?? stub;
      if (name === undefined) return noStub();
      return reply([tool('Skill', { skill: behaviour.leadingSlash === true ? `/${name}` : name })]);
    }
    case 'read-stub':
      if (stub === undefined) return noStub();
      return reply([text('Let me look.'), tool('Read', { file_path: stubPath(view, stub, layout) })]);
    case 'toolsearch-then-skill':
      if (stub === undefined) return noStub();
      return reply([tool('ToolSearch', { query: 'select:WebFetch', max_results: 5 })], {
        kind: 'skill',
        name: stub,
      });
    case 'bash-and-skill':
      if (stub === undefined) return noStub();
      return reply([bash('echo hi', 'Print hi'), tool('Skill', { skill: stub })]);
    case 'text-then-skill':
      if (stub === undefined) return noStub();
      return reply([text('I will use the matching skill for this.'), tool('Skill', { skill: stub })]);
    case 'thinking-then-text':
      return reply([
        {
          type: 'thinking',
          thinking: 'The user asks a question; a direct answer fits.',
          signature: newSignature(),
        },
        text(defaultText(view)),
      ]);
    case 'text':
      return reply([text(behaviour.text ?? defaultText(view))]);
    case 'other-tool':
      return reply([bash('ls', 'List files')]);
    case 'late-skill': {
      if (stub === undefined) return noStub();
      const after = Math.max(1, behaviour.after ?? 1);
      return reply([bash('ls', 'List files')], { kind: 'look-then-skill', remaining: after - 1, name: stub });
    }
    case 'other-skill': {
      const name = behaviour.name ?? view.listing.find((entry) => entry.name !== stub)?.name;
      if (name === undefined) return reply([text(DEFAULT_TEXT)]);
      return reply([tool('Skill', { skill: name })]);
    }
    case 'skill-then-work': {
      if (stub === undefined) return noStub();
      const delayMs = behaviour.delayMs ?? DEFAULT_WORK_DELAY_MS;
      const next: NextStep =
        behaviour.turns > 0
          ? { kind: 'work', remaining: behaviour.turns, step: 1, delayMs }
          : { kind: 'done' };
      return reply([tool('Skill', { skill: stub })], next);
    }
    case 'api-error':
      return {
        kind: 'error',
        status: behaviour.status,
        message: behaviour.message ?? defaultErrorMessage(behaviour.status, view.model),
        noRetry: behaviour.noRetry === true,
      };
    case 'hang':
    case 'stall':
    case 'reset':
      return { kind: behaviour.kind };
    case 'cut':
      return {
        kind: 'cut',
        block: tool('Skill', { skill: stub ?? 'skill' }),
        ...(behaviour.afterText === undefined ? {} : { before: text(behaviour.afterText) }),
      };
    case 'tool-calls':
      return reply(
        behaviour.calls.map((call) => tool(call.name, call.input)),
        behaviour.afterwards === undefined
          ? { kind: 'done' }
          : { kind: 'calls', calls: behaviour.afterwards },
      );
  }
}

/** `NAME=value` as a line of any tool result the CLI sent back (an `env` listing, a file). */
function valueIn(texts: string[], name: string): string | undefined {
  const pattern = new RegExp(`(?:^|\\n)${name.replace(/[^A-Za-z0-9_]/g, '')}=([^\\n]*)`);
  for (const text of texts) {
    const match = pattern.exec(text);
    if (match?.[1] !== undefined) return match[1];
  }
  return undefined;
}

/** Replaces `{{NAME}}` in every string of a tool input with what the tool results revealed. */
function fillPlaceholders(value: unknown, texts: string[]): unknown {
  if (typeof value === 'string') {
    return value.replace(/\{\{([A-Za-z0-9_]+)\}\}/g, (whole, name: string) => valueIn(texts, name) ?? whole);
  }
  if (Array.isArray(value)) return value.map((v) => fillPlaceholders(v, texts));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillPlaceholders(v, texts)]));
  }
  return value;
}

function planFollowUp({ origin, turn, next }: Continuation, view: RequestView): Plan {
  switch (next.kind) {
    case 'done':
      return answer([text('Done.')], origin, turn, next);
    case 'skill':
      return answer([tool('Skill', { skill: next.name })], origin, turn, { kind: 'done' });
    case 'look-then-skill':
      if (next.remaining <= 0)
        return answer([tool('Skill', { skill: next.name })], origin, turn, { kind: 'done' });
      return answer([bash('ls -a', 'List all files')], origin, turn, {
        ...next,
        remaining: next.remaining - 1,
      });
    case 'work': {
      const after: NextStep =
        next.remaining > 1
          ? { ...next, remaining: next.remaining - 1, step: next.step + 1 }
          : { kind: 'done' };
      return answer(
        [bash(`echo step ${next.step}`, `Work step ${next.step}`)],
        origin,
        turn,
        after,
        next.delayMs,
      );
    }
    case 'calls': {
      const blocks = next.calls.map((call) =>
        tool(
          call.name,
          Object.fromEntries(
            Object.entries(call.input).map(([key, value]) => [
              key,
              fillPlaceholders(value, view.toolResultTexts ?? []),
            ]),
          ),
        ),
      );
      return answer(blocks, origin, turn, { kind: 'done' });
    }
  }
}

function sleep(ms: number): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Resolves once the chunk reached the socket (or the response is gone), so a cut comes after it. */
function flush(res: ServerResponse, chunk: string): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) {
      resolve();
      return;
    }
    res.write(chunk, () => resolve());
  });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  requestId = newId('req_sim_'),
): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': requestId, ...headers });
  res.end(JSON.stringify(body));
}

/** The API's error shape; the body's request_id repeats the `request-id` header. */
function sendError(
  res: ServerResponse,
  status: number,
  type: string,
  message: string,
  noRetry = false,
): void {
  const requestId = newId('req_sim_');
  const body = { type: 'error', error: { type, message }, request_id: requestId };
  sendJson(res, status, body, noRetry ? { 'x-should-retry': 'false' } : {}, requestId);
}

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };

/** Starts the fake on 127.0.0.1, on a free port. */
export async function startSimulatedModel(options: SimulatedModelOptions = {}): Promise<SimulatedModel> {
  const script: Script = options.script ?? (() => undefined);
  const seed = options.seed ?? 0;
  const isStub = options.isStub ?? isDefaultStub;
  const layout = options.stubLayout ?? 'command';
  const chunkDelayMs = options.chunkDelayMs ?? 5;

  const requests: RecordedRequest[] = [];
  const occurrences = new Map<string, number>();
  const continuations = new Map<string, Continuation>();
  const sockets = new Set<Socket>();
  let closed = false;
  const cachedPrefixes = new Set<string>();

  /**
   * A prompt cache as the API keeps one: the request's tools (the start of every prompt, the same
   * from run to run; the system prompt names each run's own temp project, so it is not) are
   * written to the cache the first time they are seen and read from it afterwards; the rest of
   * the prompt is plain input. Token counts are estimates (4 characters a token).
   */
  function cachedPrompt(body: unknown, chars: number): SimulatedPrompt {
    const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const prefix = JSON.stringify(record.tools ?? null);
    const cached = Math.min(estimateTokens(prefix.length), estimateTokens(chars) - 1);
    const key = createHash('sha256').update(prefix).digest('hex');
    const seen = cachedPrefixes.has(key);
    cachedPrefixes.add(key);
    return {
      inputTokens: Math.max(1, estimateTokens(chars) - cached),
      ...(seen ? { cacheReadTokens: cached } : { cacheCreationTokens: cached }),
    };
  }

  async function writeEvents(res: ServerResponse, events: SseEvent[]): Promise<void> {
    for (const [i, event] of events.entries()) {
      if (i > 0) await sleep(chunkDelayMs);
      if (closed || res.destroyed) return;
      res.write(formatSse(event));
    }
  }

  async function respond(
    res: ServerResponse,
    plan: Plan,
    view: RequestView,
    prompt: SimulatedPrompt,
    record: RecordedRequest,
  ): Promise<void> {
    const { inputTokens } = prompt;
    const requestId = newId('req_sim_');
    switch (plan.kind) {
      case 'error':
        sendError(res, plan.status, ERROR_TYPES[plan.status], plan.message, plan.noRetry);
        return;
      case 'hang':
        return;
      case 'reset':
        res.destroy();
        return;
      case 'stall': {
        res.writeHead(
          200,
          view.stream ? { ...SSE_HEADERS, 'request-id': requestId } : { 'content-type': 'application/json' },
        );
        if (view.stream)
          res.write(formatSse(messageStart({ id: newId('msg_sim_'), model: view.model, ...prompt })));
        else res.flushHeaders();
        return;
      }
      case 'cut': {
        if (view.stream) {
          res.writeHead(200, { ...SSE_HEADERS, 'request-id': requestId });
          const first = plan.before === undefined ? 0 : 1;
          const events = [
            messageStart({ id: newId('msg_sim_'), model: view.model, ...prompt }),
            ...(plan.before === undefined
              ? []
              : [
                  ...openBlockEvents(0, plan.before),
                  { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
                ]),
            ...openBlockEvents(first, plan.block).slice(0, 3),
          ];
          for (const [i, event] of events.entries()) {
            if (i > 0) await sleep(chunkDelayMs);
            await flush(res, formatSse(event));
          }
        } else {
          res.writeHead(200, { 'content-type': 'application/json', 'request-id': requestId });
          await flush(res, '{"id":"msg_sim_cut","type":"message","role":"assistant","content":[{"type":');
        }
        await sleep(chunkDelayMs);
        res.destroy();
        return;
      }
      case 'answer': {
        const { next } = plan;
        if (next !== undefined) {
          for (const block of plan.blocks) if (block.type === 'tool_use') continuations.set(block.id, next);
        }
        await sleep(plan.delayMs);
        if (closed || res.destroyed) return;
        const stopReason: StopReason = plan.blocks.some((b) => b.type === 'tool_use')
          ? 'tool_use'
          : 'end_turn';
        const full: Answer = {
          id: newId('msg_sim_'),
          model: view.model,
          blocks: plan.blocks,
          stopReason,
          ...prompt,
        };
        record.usage = {
          input: inputTokens,
          cacheRead: prompt.cacheReadTokens ?? 0,
          cacheCreation: prompt.cacheCreationTokens ?? 0,
          output: outputTokens(plan.blocks),
        };
        if (!view.stream) {
          sendJson(res, 200, answerMessage(full));
          return;
        }
        res.writeHead(200, { ...SSE_HEADERS, 'request-id': requestId });
        await writeEvents(res, answerEvents(full));
        if (!res.destroyed) res.end();
        return;
      }
    }
  }

  async function handleMessages(
    req: IncomingMessage,
    res: ServerResponse,
    record: RecordedRequest,
  ): Promise<void> {
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      sendError(res, 400, 'invalid_request_error', 'The request body is not valid JSON.');
      return;
    }
    if (options.recordBodies === true) record.body = body;
    const view = parseRequestView(body, isStub, options.isCompetitor);
    if (typeof view === 'string') {
      sendError(res, 400, 'invalid_request_error', view);
      return;
    }
    record.view = view;
    const prompt = cachedPrompt(body, raw.length);

    let plan: Plan;
    if (view.followUp) {
      const id = view.toolResultIds.find((candidate) => continuations.has(candidate));
      const next = id === undefined ? undefined : continuations.get(id);
      // Every tool call of the previous message shares one continuation; drop them all once used.
      for (const candidate of view.toolResultIds) continuations.delete(candidate);
      // A tool_result the fake did not issue (another server's run): just finish the run.
      const resolved: Continuation = next ?? { origin: { kind: 'text' }, turn: 0, next: { kind: 'done' } };
      record.behaviour = resolved.origin;
      record.turn = resolved.turn;
      plan = planFollowUp(resolved, view);
    } else {
      const occurrence = occurrences.get(view.query) ?? 0;
      occurrences.set(view.query, occurrence + 1);
      let behaviour: Behaviour;
      try {
        behaviour = script(view, { occurrence, random: seededRandom(seed, view.query, occurrence) }) ?? {
          kind: 'text',
        };
      } catch (error) {
        const message = messageOf(error);
        sendError(res, 500, 'api_error', `simulated model script failed: ${message}`, true);
        return;
      }
      record.behaviour = behaviour;
      record.turn = 1;
      plan = planFirstTurn(behaviour, view, layout);
      if (plan.kind === 'error' && behaviour.kind === 'api-error' && behaviour.echoApiKey === true) {
        const key = req.headers['x-api-key'];
        plan = {
          ...plan,
          message: `${plan.message} (gateway: upstream refused the credential ${String(key ?? 'none')})`,
        };
      }
    }
    await respond(res, plan, view, prompt, record);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    const path = url.split('?')[0] ?? '/';
    const method = req.method ?? 'GET';
    const retry = Number(req.headers['x-stainless-retry-count']);
    const record: RecordedRequest = {
      method,
      path,
      url,
      ...(Number.isInteger(retry) ? { retryCount: retry } : {}),
      at: Date.now(),
    };
    requests.push(record);
    if (method === 'POST' && path === '/v1/messages') {
      await handleMessages(req, res, record);
      return;
    }
    await readBody(req);
    if (method === 'HEAD') {
      // `HEAD /api/hello` is the CLI's reachability preflight.
      res.writeHead(200).end();
    } else if (method === 'POST' && path === '/v1/messages/count_tokens') {
      sendJson(res, 200, { input_tokens: 100 });
    } else if (path === '/' || path === '/api/hello' || path.startsWith('/api/event_logging')) {
      sendJson(res, 200, {});
    } else {
      sendError(res, 404, 'not_found_error', `Not found: ${method} ${path}`);
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendError(res, 500, 'api_error', 'Internal server error');
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('simulated model: no TCP address');
  const { port } = address;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        closed = true;
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
      }),
  };
}

export {
  type AuthorPromptKind,
  authorPromptKind,
  type DescriptionRuleOptions,
  descriptionRule,
} from './description-script.js';
export { type Routes, routeScript } from './route.js';
export { coverage, triggerProbability } from './text-rule.js';
