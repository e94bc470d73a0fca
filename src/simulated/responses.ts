/**
 * The simulated model's Responses API side: `POST /v1/responses` as Codex calls it, answered with
 * the same per-query scripts and plans as the Messages side (plan.ts, script.ts, the text rule),
 * written as the Responses SSE stream (`response.created`, `response.output_item.added`/`.done`,
 * `response.completed`), an OpenAI error body, or a broken connection. docs/codex.md records the
 * shapes Codex sends and accepts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { flush, readJsonBody, sleep } from './http.js';
import type { Plan } from './plan.js';
import type { RequestView, StubRules } from './request.js';
import { type AnswerStream, type AnswerUsage, writePaced, writePlan } from './respond.js';
import { itemId, type OutputItem, toOutputItems } from './responses-items.js';
import { parseResponsesView, type ResponsesView } from './responses-request.js';
import type { ErrorStatus } from './script.js';
import { estimateTokens } from './sse.js';
import { planTurn, type RunState, type TurnRecord } from './turn.js';

/** What the server shares with this handler: the scripts, the run state, how streams are paced. */
export interface ResponsesState extends RunState, StubRules {
  recordBodies: boolean;
  stream: AnswerStream;
}

/** The fields of a recorded request this handler fills in (model.ts's RecordedRequest). */
export interface ResponsesRecord extends TurnRecord {
  view?: RequestView;
  body?: unknown;
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

/** Each chunk reaches the socket before the next is written. */
function writeAll(res: ServerResponse, chunks: string[], stream: AnswerStream): Promise<void> {
  return writePaced(res, chunks, stream, (chunk) => flush(res, chunk));
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
  return writePlan(res, plan, stream, {
    error(p) {
      const shape = ERRORS[p.status];
      sendOpenAiError(res, p.status, shape.type, shape.code, p.message || shape.message);
    },
    stall() {
      res.writeHead(200, SSE);
      res.write(created);
    },
    async cut(p) {
      res.writeHead(200, SSE);
      const before = p.before === undefined ? [] : toOutputItems([p.before], view);
      const [call] = toOutputItems([p.block], view);
      const chunks = [created, ...before.flatMap(itemEvents)];
      if (call !== undefined)
        chunks.push(
          event('response.output_item.added', { output_index: before.length, item: { ...call, input: '' } }),
        );
      await writeAll(res, chunks, stream);
    },
    answer: (p) => writeResponse(res, p, { id, created, view, inputTokens, record, stream }),
  });
}

/** The whole response: its items (each later one after `gapMs`, when set), then `response.completed`. */
async function writeResponse(
  res: ServerResponse,
  p: Extract<Plan, { kind: 'answer' }>,
  exchange: {
    id: string;
    created: string;
    view: ResponsesView;
    inputTokens: number;
    record: ResponsesRecord;
    stream: AnswerStream;
  },
): Promise<void> {
  const { id, created, view, inputTokens, record, stream } = exchange;
  const items = toOutputItems(p.blocks, view, p.cell);
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
  const perItem = items.map(itemEvents);
  const [head, ...rest] = perItem;
  if (p.gapMs === undefined) {
    await writeAll(res, [created, ...perItem.flat(), completed], stream);
  } else {
    // Each later item after a pause: the agent has run the earlier calls by then.
    await writeAll(res, [created, ...(head ?? [])], stream);
    for (const events of rest) {
      await sleep(p.gapMs);
      if (res.destroyed) return;
      await writeAll(res, events, stream);
    }
    await writeAll(res, [completed], stream);
  }
  if (!res.destroyed) res.end();
}

/** Answers one `POST /v1/responses`; the record gets the view, the behaviour, the turn and the usage. */
export async function handleResponses(
  req: IncomingMessage,
  res: ServerResponse,
  record: ResponsesRecord,
  state: ResponsesState,
): Promise<void> {
  const request = await readJsonBody(req);
  if (request === undefined) {
    sendOpenAiError(
      res,
      400,
      'invalid_request_error',
      null,
      'We could not parse the JSON body of your request.',
    );
    return;
  }
  const { raw, body } = request;
  if (state.recordBodies) record.body = body;
  const view = parseResponsesView(body, state);
  if (typeof view === 'string') {
    sendOpenAiError(res, 400, 'invalid_request_error', null, view);
    return;
  }
  record.view = view;

  const turn = planTurn(view, state, record, 'skill');
  if (turn.kind === 'script-failed') {
    sendOpenAiError(res, 500, 'server_error', null, turn.message);
    return;
  }
  await respondResponses(res, turn.plan, view, estimateTokens(raw.length), record, state.stream);
}
