import { describe, expect, it } from 'vitest';
import { classifyFailure, errorStatus } from '../../src/system/github-failure.js';

// What Octokit throws is read as `unknown`: only a plain object's fields count (src/guards.ts).
// An array where an object is expected is as malformed as a string or null, whatever it carries.

/** An Octokit-like request error: an Error with a status and the response's headers. */
function requestError(status: number, message: string, headers: unknown): unknown {
  return Object.assign(new Error(message), { status, response: { status, headers } });
}

describe('classifyFailure', () => {
  it('a plain object with a status is read by its status (the control)', () => {
    expect(classifyFailure(Object.assign(new Error('Forbidden'), { status: 403 }), 1)).toEqual({
      failure: { kind: 'forbidden', status: 403, message: 'Forbidden' },
      retryable: false,
    });
    expect(errorStatus({ status: 404 })).toBe(404);
  });

  it('an array thrown in place of an error object has no status: "no answer", like a thrown string', () => {
    const array = Object.assign(['Forbidden'], { status: 403 });
    expect(errorStatus(array)).toBeUndefined();
    const classified = classifyFailure(array, 2);
    expect(classified).toEqual({
      failure: { kind: 'unavailable', message: 'Forbidden', attempts: 2 },
      retryable: true,
    });
    expect(classified).toEqual(classifyFailure('Forbidden', 2));
  });

  it('a 403 whose headers object says the rate limit is spent is a rate limit, not retried', () => {
    const error = requestError(403, 'Forbidden', { 'x-ratelimit-remaining': '0' });
    expect(classifyFailure(error, 1)).toMatchObject({
      failure: { kind: 'unavailable', status: 403 },
      retryable: false,
    });
  });

  it('headers that are an array are not read, however they are filled: the 403 stays "forbidden"', () => {
    const arrayHeaders = Object.assign([], { 'x-ratelimit-remaining': '0' });
    const fromArray = classifyFailure(requestError(403, 'Forbidden', arrayHeaders), 1);
    expect(fromArray).toMatchObject({ failure: { kind: 'forbidden', status: 403 }, retryable: false });
    // The same as any other malformed headers value.
    expect(fromArray).toEqual(classifyFailure(requestError(403, 'Forbidden', 'x-ratelimit-remaining: 0'), 1));
  });

  it('a response that is an array is not read either', () => {
    const response = Object.assign([], { headers: { 'x-ratelimit-remaining': '0' } });
    const error = Object.assign(new Error('Forbidden'), { status: 403, response });
    expect(classifyFailure(error, 1)).toMatchObject({ failure: { kind: 'forbidden', status: 403 } });
  });

  it('a message that names the rate limit still counts when the headers cannot be read', () => {
    const error = requestError(403, 'API rate limit exceeded', ['x-ratelimit-remaining']);
    expect(classifyFailure(error, 1)).toMatchObject({ failure: { kind: 'unavailable', status: 403 } });
  });
});
