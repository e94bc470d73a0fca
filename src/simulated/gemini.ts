/**
 * The simulated model's Gemini API side: `POST /v1beta/models/<model>:streamGenerateContent?alt=sse`
 * (and `:generateContent`) as Gemini CLI calls it, with the key in `x-goog-api-key`, answered with
 * the same per-query scripts and plans as the Messages and Responses sides, written as Gemini's SSE
 * chunks (`data: {"candidates":[…]}`), a Google error body, or a broken connection. docs/gemini.md
 * records the shapes Gemini CLI sends and accepts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type GeminiPart, toGeminiParts } from './gemini-parts.js';
import { type GeminiView, parseGeminiView } from './gemini-request.js';
import { flush, readJsonBody, SSE_HEADERS } from './http.js';
import type { Plan } from './plan.js';
import type { RequestView, StubRules } from './request.js';
import { type AnswerStream, type AnswerUsage, writePaced, writePlan } from './respond.js';
import type { ErrorStatus } from './script.js';
import { estimateTokens } from './sse.js';
import { planTurn, type RunState, type TurnRecord } from './turn.js';

/** What the server shares with this handler: the scripts, the run state, how streams are paced. */
export interface GeminiState extends RunState, StubRules {
  recordBodies: boolean;
  stream: AnswerStream;
}

/** The fields of a recorded request this handler fills in (model.ts's RecordedRequest). */
export interface GeminiRecord extends TurnRecord {
  view?: RequestView;
  body?: unknown;
  usage?: AnswerUsage;
}

/** `/v1beta/models/<model>:<method>`: the model and the method, or undefined for another path. */
export function geminiRoute(path: string): { model: string; stream: boolean } | undefined {
  const match = /^\/v1beta\/models\/([^/:]+):(streamGenerateContent|generateContent)$/.exec(path);
  if (match?.[1] === undefined) return undefined;
  return { model: decodeURIComponent(match[1]), stream: match[2] === 'streamGenerateContent' };
}

/** Google's status names; 529 (Anthropic's overload) is Gemini's 503. */
const STATUS: Record<ErrorStatus, { code: number; status: string; message: string }> = {
  400: { code: 400, status: 'INVALID_ARGUMENT', message: 'Request contains an invalid argument.' },
  401: {
    code: 401,
    status: 'UNAUTHENTICATED',
    message: 'Request had invalid authentication credentials.',
  },
  403: { code: 403, status: 'PERMISSION_DENIED', message: "Method doesn't allow unregistered callers." },
  404: { code: 404, status: 'NOT_FOUND', message: 'models/unknown is not found for API version v1beta.' },
  429: {
    code: 429,
    status: 'RESOURCE_EXHAUSTED',
    message: 'Resource has been exhausted (e.g. check quota).',
  },
  500: { code: 500, status: 'INTERNAL', message: 'An internal error has occurred.' },
  529: { code: 503, status: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' },
};

function sendGoogleError(res: ServerResponse, code: number, status: string, message: string): void {
  if (res.destroyed) return;
  res.writeHead(code, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify({ error: { code, message, status } }));
}

function chunk(data: Record<string, unknown>): string {
  return `data: ${JSON.stringify(data)}\r\n\r\n`;
}

function candidate(parts: GeminiPart[], finish: boolean): Record<string, unknown> {
  return { content: { role: 'model', parts }, index: 0, ...(finish ? { finishReason: 'STOP' } : {}) };
}

/** One chunk per part, as the real stream sends text and calls; the last carries the usage. */
function answerChunks(
  parts: GeminiPart[],
  model: string,
  usage: Record<string, number>,
  id: string,
): string[] {
  const all = parts.length === 0 ? [{ text: '' }] : parts;
  return all.map((part, i) => {
    const last = i === all.length - 1;
    return chunk({
      candidates: [candidate([part], last)],
      ...(last ? { usageMetadata: usage } : {}),
      modelVersion: model,
      responseId: id,
    });
  });
}

async function respondGemini(
  res: ServerResponse,
  plan: Plan,
  view: GeminiView,
  stream: { sse: boolean; wire: AnswerStream },
  inputTokens: number,
  record: GeminiRecord,
): Promise<void> {
  const id = `sim${Math.random().toString(36).slice(2, 12)}`;
  return writePlan(res, plan, stream.wire, {
    error(p) {
      const shape = STATUS[p.status];
      sendGoogleError(res, shape.code, shape.status, p.message || shape.message);
    },
    stall() {
      res.writeHead(200, SSE_HEADERS);
      res.flushHeaders();
    },
    async cut(p) {
      res.writeHead(200, SSE_HEADERS);
      const before =
        p.before === undefined ? [] : answerChunks(toGeminiParts([p.before], view), view.model, {}, id);
      for (const text of before) await flush(res, text);
      // The call's chunk breaks off in the middle of its JSON.
      const [call] = toGeminiParts([p.block], view);
      const whole = chunk({ candidates: [candidate(call === undefined ? [] : [call], false)] });
      await flush(res, whole.slice(0, Math.floor(whole.length / 2)));
    },
    async answer(p) {
      const parts = toGeminiParts(p.blocks, view);
      const output = estimateTokens(JSON.stringify(parts).length);
      record.usage = { input: inputTokens, cacheRead: 0, cacheCreation: 0, output };
      const usage = {
        promptTokenCount: inputTokens,
        candidatesTokenCount: output,
        totalTokenCount: inputTokens + output,
      };
      if (!stream.sse) {
        res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
        res.end(
          JSON.stringify({
            candidates: [candidate(parts, true)],
            usageMetadata: usage,
            modelVersion: view.model,
            responseId: id,
          }),
        );
        return;
      }
      res.writeHead(200, SSE_HEADERS);
      const chunks = answerChunks(parts, view.model, usage, id);
      await writePaced(res, chunks, stream.wire, (text) => flush(res, text));
      if (!res.destroyed) res.end();
    },
  });
}

/** Answers one generateContent request; the record gets the view, the behaviour, the turn and the usage. */
export async function handleGemini(
  req: IncomingMessage,
  res: ServerResponse,
  route: { model: string; stream: boolean },
  record: GeminiRecord,
  state: GeminiState,
): Promise<void> {
  const request = await readJsonBody(req);
  if (request === undefined) {
    sendGoogleError(res, 400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
    return;
  }
  const { raw, body } = request;
  if (state.recordBodies) record.body = body;
  const view = parseGeminiView(body, route.model, state);
  if (typeof view === 'string') {
    sendGoogleError(res, 400, 'INVALID_ARGUMENT', view);
    return;
  }
  record.view = view;
  const turn = planTurn(view, state, record, 'skill');
  if (turn.kind === 'script-failed') {
    sendGoogleError(res, 500, 'INTERNAL', turn.message);
    return;
  }
  let { plan } = turn;
  const { behaviour } = record;
  if (!view.followUp && plan.kind === 'error' && behaviour?.kind === 'api-error' && behaviour.echoApiKey) {
    // A gateway that echoes the credential it refused, as the Messages side does with x-api-key.
    const key = String(req.headers['x-goog-api-key'] ?? 'none');
    plan = { ...plan, message: `${plan.message} (gateway: upstream refused the credential ${key})` };
  }
  const stream = { sse: route.stream, wire: state.stream };
  await respondGemini(res, plan, view, stream, estimateTokens(raw.length), record);
}
