import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readJsonBody } from '../../src/simulated/http.js';

const request = (...parts: string[]) =>
  Readable.from(parts.map((p) => Buffer.from(p))) as unknown as IncomingMessage;

describe('readJsonBody', () => {
  it('is the raw body and its JSON, however it was chunked', async () => {
    expect(await readJsonBody(request('{"model":', '"m"}'))).toEqual({
      raw: '{"model":"m"}',
      body: { model: 'm' },
    });
  });

  it('is undefined for a body that is not JSON', async () => {
    expect(await readJsonBody(request('{"model":'))).toBeUndefined();
    expect(await readJsonBody(request())).toBeUndefined();
  });
});
