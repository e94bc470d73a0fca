/**
 * The simulated model's Responses API side: `POST /v1/responses` as Codex calls it, answered with
 * the same per-query scripts and plans as the Messages side (plan.ts, script.ts, the text rule),
 * written as the Responses SSE stream (`response.created`, `response.output_item.added`/`.done`,
 * `response.completed`), an OpenAI error body, or a broken connection. docs/codex.md records the
 * shapes Codex sends and accepts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { messageOf } from '../errors.js';
import { flush, readBody, sleep } from './http.js';
import { type Continuation, type Plan, planFirstTurn, planFollowUp } from './plan.js';
import { seededRandom } from './random.js';
import type { ListingEntry, RequestView } from './request.js';
import type { AnswerStream, AnswerUsage } from './respond.js';
import { itemId, type OutputItem, toOutputItems } from './responses-items.js';
import { parseResponsesView, type ResponsesView } from './responses-request.js';
import type { Behaviour, ErrorStatus, Script } from './script.js';
import { estimateTokens } from './sse.js';

/** What the server shares with this handler: the scripts, the run state, how streams are paced. */
export interface ResponsesState {
  script: Script;
  seed: number;
  isStub: (entry: ListingEntry) => boolean;
  isCompetitor?: ((entry: ListingEntry) => boolean) | undefined;
  recordBodies: boolean;
  occurrences: Map<string, number>;
  continuations: Map<string, Continuation>;
  stream: AnswerStream;
}

/** The fields of a recorded request this handler fills in (model.ts's RecordedRequest). */
export interface ResponsesRecord {
  view?: RequestView;
  body?: unknown;
  behaviour?: Behaviour;
  turn?: number;
  usage?: AnswerUsage;
}

const ERRORS: Record<ErrorStatus, { type: string; code: string | null; message: string }> = {
  400: {
    type: 'invalid_request_error',
    code: 'model_not_found',
    message: 'The requested model does not exist.',
  },
  401: {
    type: 'invalid_request_error',
    code: 'invalid_api_key',
    message:
      'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
  },
  403: {
    type: 'invalid_request_error',
    code: null,
    message: 'You are not allowed to sample from this model.',
  },
  404: { type: 'invalid_request_error', code: 'model_not_found', message: 'The model does not exist.' },
  429: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached for requests.' },
  500: {
    type: 'server_error',
    code: null,
    message: 'The server had an error while processing your request.',
  },
  529: { type: 'server_error', code: null, message: 'The engine is currently overloaded.' },
};

function sendOpenAiError(
  res: ServerResponse,
  status: number,
  type: string,
  code: string | null,
  message: string,
): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message, type, param: null, code } }));
}

const SSE = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };

function event(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/** A message item's text arrives as deltas before the item is done, as the real stream sends it. */
function itemEvents(item: OutputItem, index: number): string[] {
  const added = { ...item, ...(item.type === 'message' ? { content: [], status: 'in_progress' } : {}) };
  const out = [event('response.output_item.added', { output_index: index, item: added })];
  if (item.type === 'message' && Array.isArray(item.content)) {
    const text = String((item.content[0] as { text?: unknown } | undefined)?.text ?? '');
    for (let at = 0; at < text.length; at += 16) {
      out.push(
        event('response.output_text.delta', {
          item_id: item.id,
          output_index: index,
          content_index: 0,
          delta: text.slice(at, at + 16),
        }),
      );
    }
  }
  out.push(event('response.output_item.done', { output_index: index, item }));
  return out;
}

async function writeAll(res: ServerResponse, chunks: string[], stream: AnswerStream): Promise<void> {
  for (const [i, chunk] of chunks.entries()) {
    if (i > 0) await sleep(stream.chunkDelayMs);
    if (stream.closed() || res.destroyed) return;
    await flush(res, chunk);
  }
}

async function respondResponses(
  res: ServerResponse,
  plan: Plan,
  view: ResponsesView,
  inputTokens: number,
  record: ResponsesRecord,
  stream: AnswerStream,
): Promise<void> {
  const id = itemId('resp');
  const created = event('response.created', { response: { id, status: 'in_progress', model: view.model } });
  switch (plan.kind) {
    case 'error': {
      const shape = ERRORS[plan.status];
      sendOpenAiError(res, plan.status, shape.type, shape.code, plan.message || shape.message);
      return;
    }
    case 'hang':
      return;
    case 'reset':
      res.destroy();
      return;
    case 'stall':
      res.writeHead(200, SSE);
      res.write(created);
      return;
    case 'cut': {
      res.writeHead(200, SSE);
      const before = plan.before === undefined ? [] : toOutputItems([plan.before], view);
      const [call] = toOutputItems([plan.block], view);
      const chunks = [created, ...before.flatMap(itemEvents)];
      if (call !== undefined)
        chunks.push(
          event('response.output_item.added', { output_index: before.length, item: { ...call, input: '' } }),
        );
      await writeAll(res, chunks, stream);
      await sleep(stream.chunkDelayMs);
      res.destroy();
      return;
    }
    case 'answer': {
      await sleep(plan.delayMs);
      if (stream.closed() || res.destroyed) return;
      const items = toOutputItems(plan.blocks, view);
      const output = estimateTokens(JSON.stringify(items).length);
      record.usage = { input: inputTokens, cacheRead: 0, cacheCreation: 0, output };
      const usage = {
        input_tokens: inputTokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: output,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: inputTokens + output,
      };
      res.writeHead(200, SSE);
      const completed = event('response.completed', {
        response: { id, status: 'completed', model: view.model, output: items, usage },
      });
      await writeAll(res, [created, ...items.flatMap(itemEvents), completed], stream);
      if (!res.destroyed) res.end();
      return;
    }
  }
}

/** Answers one `POST /v1/responses`; the record gets the view, the behaviour, the turn and the usage. */
export async function handleResponses(
  req: IncomingMessage,
  res: ServerResponse,
  record: ResponsesRecord,
  state: ResponsesState,
): Promise<void> {
  const raw = await readBody(req);
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    sendOpenAiError(
      res,
      400,
      'invalid_request_error',
      null,
      'We could not parse the JSON body of your request.',
    );
    return;
  }
  if (state.recordBodies) record.body = body;
  const view = parseResponsesView(body, state.isStub, state.isCompetitor);
  if (typeof view === 'string') {
    sendOpenAiError(res, 400, 'invalid_request_error', null, view);
    return;
  }
  record.view = view;

  let plan: Plan;
  if (view.followUp) {
    const callId = view.toolResultIds.find((candidate) => state.continuations.has(candidate));
    const next = callId === undefined ? undefined : state.continuations.get(callId);
    for (const candidate of view.toolResultIds) state.continuations.delete(candidate);
    const resolved: Continuation = next ?? { origin: { kind: 'text' }, turn: 0, next: { kind: 'done' } };
    record.behaviour = resolved.origin;
    record.turn = resolved.turn;
    plan = planFollowUp(resolved, view);
  } else {
    const occurrence = state.occurrences.get(view.query) ?? 0;
    state.occurrences.set(view.query, occurrence + 1);
    let behaviour: Behaviour;
    try {
      const random = seededRandom(state.seed, view.query, occurrence);
      behaviour = state.script(view, { occurrence, random }) ?? { kind: 'text' };
    } catch (error) {
      sendOpenAiError(res, 500, 'server_error', null, `simulated model script failed: ${messageOf(error)}`);
      return;
    }
    record.behaviour = behaviour;
    record.turn = 1;
    plan = planFirstTurn(behaviour, view, 'skill');
  }
  // Registered before the answer is written: Codex runs a call as soon as its item is done.
  if (plan.kind === 'answer' && plan.next !== undefined) {
    for (const block of plan.blocks)
      if (block.type === 'tool_use') state.continuations.set(block.id, plan.next);
  }
  await respondResponses(res, plan, view, estimateTokens(raw.length), record, state.stream);
}
