import { messageOf } from '../errors.js';
import { isRecord } from '../guards.js';

/**
 * How a GitHub call failed, for the caller to act on (see github.ts): `forbidden`, `too-large`,
 * `unavailable` (retried first, unless rate-limited) or `rejected`.
 */
export type GitHubFailure =
  | { kind: 'forbidden'; status: number; message: string }
  | { kind: 'too-large'; status: number; message: string }
  | { kind: 'unavailable'; status?: number; message: string; attempts: number }
  | { kind: 'rejected'; status: number; message: string };

export function errorStatus(error: unknown): number | undefined {
  return isRecord(error) && typeof error.status === 'number' ? error.status : undefined;
}

export function errorMessage(error: unknown): string {
  return messageOf(error);
}

function rateLimited(error: unknown, status: number | undefined): boolean {
  if (status === 429) return true;
  if (status !== 403 || !isRecord(error) || !isRecord(error.response))
    return /rate limit/i.test(errorMessage(error));
  const headers = error.response.headers;
  return (
    (isRecord(headers) && headers['x-ratelimit-remaining'] === '0') || /rate limit/i.test(errorMessage(error))
  );
}

export type Classified = { failure: GitHubFailure; retryable: boolean };

/**
 * What a failed GitHub call means (pure): the status Octokit attached, a rate limit told by status,
 * headers or message, and whether the whole operation is worth retrying. A thrown value that is
 * not an object of the expected shape (a string, null, an array) has no status: it is classified
 * as "no answer", like a network failure.
 */
export function classifyFailure(error: unknown, attempts: number): Classified {
  const status = errorStatus(error);
  const message = errorMessage(error);
  // Octokit reports a network failure or an abort (our timeout) as status 500.
  if (status === undefined || status >= 500) {
    return {
      failure: { kind: 'unavailable', ...(status === undefined ? {} : { status }), message, attempts },
      retryable: true,
    };
  }
  if (rateLimited(error, status)) {
    return { failure: { kind: 'unavailable', status, message, attempts }, retryable: false };
  }
  if (status === 401 || status === 403 || status === 404) {
    return { failure: { kind: 'forbidden', status, message }, retryable: false };
  }
  if (status === 422 && /too long/i.test(message)) {
    return { failure: { kind: 'too-large', status, message }, retryable: false };
  }
  return { failure: { kind: 'rejected', status, message }, retryable: false };
}
