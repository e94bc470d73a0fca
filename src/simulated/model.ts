/**
 * The simulated model: a loopback fake of the Anthropic Messages API that the real `claude` CLI talks
 * to in tests and in `npm run demo`. It reads what the CLI sends (query, skill listing, working
 * directory), asks a scenario script how the "model" behaves, and answers in the real wire shapes,
 * including the failure modes of docs/claude-cli.md §6 (errors, hangs, cut streams).
 * This module is the server and its records; the Messages side is messages.ts, what it answers is
 * plan.ts, how it writes that is respond.ts. Node built-ins only: it ships with the package.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { geminiRoute, handleGemini } from './gemini.js';
import { readBody, sendError, sendJson, sleep } from './http.js';
import { handleMessages, type MessagesState } from './messages.js';
import type { Continuation } from './plan.js';
import { promptCache } from './prompt-cache.js';
import { isDefaultStub, type ListingEntry, type RequestView } from './request.js';
import type { AnswerUsage } from './respond.js';
import { handleResponses } from './responses.js';
import type { Behaviour, Script } from './script.js';
import type { RunState } from './turn.js';

export { probabilistic, seededRandom } from './random.js';
export { GATE_QUERY, type ListingEntry, parseRequestView, type RequestView } from './request.js';

// The script's vocabulary lives in a leaf module, so scripts (description-script.ts) need not import this file.
export type { Behaviour, CellShape, ErrorStatus, Script, ScriptContext, ToolCall } from './script.js';

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
  /**
   * How long the model thinks before it answers a model request (default 0), like a real model's
   * time to its first token: for `npm run bench`, which compares harnesses on a slow judge too.
   */
  answerDelayMs?: number;
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
  usage?: AnswerUsage;
  /** `x-stainless-retry-count` as sent; the 400 beta-stripping re-sends keep it at 0. */
  retryCount?: number;
  /** When the request arrived (`Date.now`). */
  at: number;
  /**
   * When its exchange ended (`Date.now`): the answer written out, or the connection closed by the
   * client (a run killed mid-answer). With `at`, what shows that no two runs talked to the model at
   * once (docs/speed.md, "A warm standby").
   */
  endedAt?: number;
}

export interface SimulatedModel {
  /** `http://127.0.0.1:<port>`: the value for ANTHROPIC_BASE_URL (and GOOGLE_GEMINI_BASE_URL). */
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Stops listening and ends every open connection, hung and stalled ones included. */
  close(): Promise<void>;
}

/** Starts the fake on 127.0.0.1, on a free port. */
export async function startSimulatedModel(options: SimulatedModelOptions = {}): Promise<SimulatedModel> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let closed = false;
  const state = serverState(options, () => closed);
  const server = createServer((req, res) => {
    handle(req, res, requests, state).catch(() => {
      if (!res.headersSent) sendError(res, 500, 'api_error', 'Internal server error');
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server);

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

/**
 * What every API side shares for the server's life: the scripts and the run state (Codex's
 * Responses API calls and Gemini CLI's generateContent calls share them too: docs/codex.md,
 * docs/gemini.md), the stub rules, the prompt cache and the pacing of streams.
 */
function serverState(options: SimulatedModelOptions, closed: () => boolean): MessagesState {
  const runs: RunState = {
    script: options.script ?? (() => undefined),
    seed: options.seed ?? 0,
    occurrences: new Map<string, number>(),
    continuations: new Map<string, Continuation>(),
  };
  return {
    ...runs,
    isStub: options.isStub ?? isDefaultStub,
    isCompetitor: options.isCompetitor,
    recordBodies: options.recordBodies === true,
    stream: { chunkDelayMs: options.chunkDelayMs ?? 5, closed },
    layout: options.stubLayout ?? 'command',
    cachedPrompt: promptCache(),
    answerDelayMs: options.answerDelayMs,
  };
}

/** Records one request and hands it to the API side its path names. */
async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  requests: RecordedRequest[],
  state: MessagesState,
): Promise<void> {
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
  res.once('close', () => {
    record.endedAt = Date.now();
  });
  if (method === 'POST' && path === '/v1/messages') {
    await handleMessages(req, res, record, state);
    return;
  }
  if (method === 'POST' && path === '/v1/responses') {
    await handleResponses(req, res, record, state);
    return;
  }
  const gemini = method === 'POST' ? geminiRoute(path) : undefined;
  if (gemini !== undefined) {
    if (state.answerDelayMs) await sleep(state.answerDelayMs);
    await handleGemini(req, res, gemini, record, state);
    return;
  }
  await readBody(req);
  answerOther(res, method, path);
}

/** The CLI's side requests: its reachability preflight, token counts and event logging. */
function answerOther(res: ServerResponse, method: string, path: string): void {
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

/** Listens on a free port of 127.0.0.1 and gives the port. */
async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('simulated model: no TCP address');
  return address.port;
}

export { type Routes, routeScript } from './route.js';
export { coverage, triggerProbability } from './text-rule.js';
