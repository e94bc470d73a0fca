/**
 * The simulated model's wire writer: a `Plan` (plan.ts) written to the HTTP response as the real API
 * would, an SSE stream or one JSON message, an error body, or a broken connection (hang, stall,
 * cut, reset) as docs/claude-cli.md §6 describes them.
 */
import type { ServerResponse } from 'node:http';
import { flush, SSE_HEADERS, sendError, sendJson, sleep } from './http.js';
import { ERROR_TYPES, type Plan } from './plan.js';
import type { SimulatedPrompt } from './prompt-cache.js';
import type { RequestView } from './request.js';
import {
  type Answer,
  answerEvents,
  answerMessage,
  formatSse,
  messageStart,
  newId,
  openBlockEvents,
  outputTokens,
  type StopReason,
} from './sse.js';

/** The usage an answer carried: message_start's prompt counts; `output` as message_delta gives it. */
export interface AnswerUsage {
  input: number;
  cacheRead: number;
  cacheCreation: number;
  output: number;
}

/** How the server paces and stops the streams it writes. */
export interface AnswerStream {
  /** Delay between SSE events. */
  chunkDelayMs: number;
  /** True once the server is closing: a stream stops writing. */
  closed: () => boolean;
}

/** True once the exchange is over: the server is closing, or the client went. */
function gone(res: ServerResponse, stream: AnswerStream): boolean {
  return stream.closed() || res.destroyed;
}

/**
 * Writes an answer's chunks `chunkDelayMs` apart, as the real stream trickles in, until the exchange
 * is over. `write` sends one chunk (and may wait until it reached the socket).
 */
export async function writePaced(
  res: ServerResponse,
  chunks: readonly string[],
  stream: AnswerStream,
  write: (chunk: string) => unknown,
): Promise<void> {
  for (const [i, chunk] of chunks.entries()) {
    if (i > 0) await sleep(stream.chunkDelayMs);
    if (gone(res, stream)) return;
    await write(chunk);
  }
}

type PlanOf<K extends Plan['kind']> = Extract<Plan, { kind: K }>;

/**
 * How one API writes the plans whose bytes differ between APIs (the Messages API here, the
 * Responses API in responses.ts); a hang and a reset are alike on every wire.
 */
export interface Wire {
  /** The API's error body. */
  error(plan: PlanOf<'error'>): void;
  /** The headers and the stream's first event, then nothing more. */
  stall(): void;
  /** What the stream carries before it is cut. */
  cut(plan: PlanOf<'cut'>): Promise<void>;
  /** The whole answer, once the model has thought. */
  answer(plan: PlanOf<'answer'>): Promise<void>;
}

/** Writes a plan to the response through the API's wire. */
export async function writePlan(
  res: ServerResponse,
  plan: Plan,
  stream: AnswerStream,
  wire: Wire,
): Promise<void> {
  switch (plan.kind) {
    case 'error':
      wire.error(plan);
      return;
    case 'hang':
      // Read and never answered.
      return;
    case 'reset':
      res.destroy();
      return;
    case 'stall':
      wire.stall();
      return;
    case 'cut':
      await wire.cut(plan);
      // The connection breaks a chunk's delay after the last byte written.
      await sleep(stream.chunkDelayMs);
      res.destroy();
      return;
    case 'answer':
      // The model thinks before it answers; the exchange may be over by then.
      await sleep(plan.delayMs);
      if (!gone(res, stream)) await wire.answer(plan);
      return;
  }
}

/** Writes a plan to the response; an answer's usage goes into `record` before its first byte. */
export async function respond(
  res: ServerResponse,
  plan: Plan,
  view: RequestView,
  prompt: SimulatedPrompt,
  record: { usage?: AnswerUsage },
  stream: AnswerStream,
): Promise<void> {
  const exchange: Exchange = { res, view, prompt, requestId: newId('req_sim_'), stream };
  return writePlan(res, plan, stream, {
    error: (p) => sendError(res, p.status, ERROR_TYPES[p.status], p.message, p.noRetry),
    stall() {
      res.writeHead(
        200,
        view.stream
          ? { ...SSE_HEADERS, 'request-id': exchange.requestId }
          : { 'content-type': 'application/json' },
      );
      if (view.stream)
        res.write(formatSse(messageStart({ id: newId('msg_sim_'), model: view.model, ...prompt })));
      else res.flushHeaders();
    },
    cut: (p) => writeCut(exchange, p),
    answer: (p) => writeAnswer(exchange, p, record),
  });
}

/** One Messages exchange as the wire writes it: the response, the request, the prompt's usage, its id. */
interface Exchange {
  res: ServerResponse;
  view: RequestView;
  prompt: SimulatedPrompt;
  requestId: string;
  stream: AnswerStream;
}

/** The stream up to its cut: message_start, an optional whole text block, the start of a tool block. */
async function writeCut({ res, view, prompt, requestId, stream }: Exchange, p: PlanOf<'cut'>): Promise<void> {
  if (!view.stream) {
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': requestId });
    await flush(res, '{"id":"msg_sim_cut","type":"message","role":"assistant","content":[{"type":');
    return;
  }
  res.writeHead(200, { ...SSE_HEADERS, 'request-id': requestId });
  const first = p.before === undefined ? 0 : 1;
  const events = [
    messageStart({ id: newId('msg_sim_'), model: view.model, ...prompt }),
    ...(p.before === undefined
      ? []
      : [
          ...openBlockEvents(0, p.before),
          { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
        ]),
    ...openBlockEvents(first, p.block).slice(0, 3),
  ];
  for (const [i, event] of events.entries()) {
    if (i > 0) await sleep(stream.chunkDelayMs);
    await flush(res, formatSse(event));
  }
}

/** The whole answer, as one JSON message or a paced stream; its usage recorded first. */
async function writeAnswer(
  { res, view, prompt, requestId, stream }: Exchange,
  p: PlanOf<'answer'>,
  record: { usage?: AnswerUsage },
): Promise<void> {
  const stopReason: StopReason = p.blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  const full: Answer = {
    id: newId('msg_sim_'),
    model: view.model,
    blocks: p.blocks,
    stopReason,
    ...prompt,
  };
  record.usage = {
    input: prompt.inputTokens,
    cacheRead: prompt.cacheReadTokens ?? 0,
    cacheCreation: prompt.cacheCreationTokens ?? 0,
    output: outputTokens(p.blocks),
  };
  if (!view.stream) {
    sendJson(res, 200, answerMessage(full));
    return;
  }
  res.writeHead(200, { ...SSE_HEADERS, 'request-id': requestId });
  await writePaced(res, answerEvents(full).map(formatSse), stream, (chunk) => res.write(chunk));
  if (!res.destroyed) res.end();
}
