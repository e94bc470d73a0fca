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
  type SseEvent,
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

async function writeEvents(res: ServerResponse, events: SseEvent[], stream: AnswerStream): Promise<void> {
  for (const [i, event] of events.entries()) {
    if (i > 0) await sleep(stream.chunkDelayMs);
    if (stream.closed() || res.destroyed) return;
    res.write(formatSse(event));
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
          if (i > 0) await sleep(stream.chunkDelayMs);
          await flush(res, formatSse(event));
        }
      } else {
        res.writeHead(200, { 'content-type': 'application/json', 'request-id': requestId });
        await flush(res, '{"id":"msg_sim_cut","type":"message","role":"assistant","content":[{"type":');
      }
      await sleep(stream.chunkDelayMs);
      res.destroy();
      return;
    }
    case 'answer': {
      await sleep(plan.delayMs);
      if (stream.closed() || res.destroyed) return;
      const stopReason: StopReason = plan.blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
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
      await writeEvents(res, answerEvents(full), stream);
      if (!res.destroyed) res.end();
      return;
    }
  }
}
