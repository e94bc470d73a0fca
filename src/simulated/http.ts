/**
 * The HTTP side of the simulated model: reading a request body, and the JSON, error and
 * event-stream responses in the shapes the real API sends.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { newId } from './sse.js';

export function sleep(ms: number): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Resolves once the chunk reached the socket (or the response is gone), so a cut comes after it. */
export function flush(res: ServerResponse, chunk: string): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) {
      resolve();
      return;
    }
    res.write(chunk, () => resolve());
  });
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

/** A request's body and its JSON; undefined when the body is not JSON (the API answers 400). */
export async function readJsonBody(
  req: IncomingMessage,
): Promise<{ raw: string; body: unknown } | undefined> {
  const raw = await readBody(req);
  try {
    return { raw, body: JSON.parse(raw) };
  } catch {
    return undefined;
  }
}

export function sendJson(
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
export function sendError(
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

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
};
