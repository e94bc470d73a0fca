import { describe, expect, it } from 'vitest';
import { classifyApiError } from '../../src/agents/api-error.js';
import { ERROR_CAUSES } from '../../src/outcome.js';

describe('classifyApiError', () => {
  it('reads a refused login from the status or the CLI’s error field', () => {
    expect(classifyApiError({ status: 401 })).toBe('auth');
    expect(classifyApiError({ status: 403 })).toBe('auth');
    expect(classifyApiError({ error: 'authentication_failed' })).toBe('auth');
  });

  it('reads a refused login from the text an older CLI printed, in any case', () => {
    for (const text of [
      'Not logged in · Please run /login',
      'Please run /login',
      'Invalid API key · Fix external API key',
      'invalid api key',
      'OAuth token expired',
      'OAuth token has expired. Please obtain a new token or refresh your existing token.',
      'Failed to authenticate. API Error: 401',
      'Credit balance is too low',
    ]) {
      expect(classifyApiError({ text }), text).toBe('auth');
    }
  });

  it('lets the login texts win over any status: the fix is the login', () => {
    expect(classifyApiError({ status: 429, text: 'Invalid API key' })).toBe('auth');
    expect(classifyApiError({ status: 500, text: 'Credit balance is too low' })).toBe('auth');
    expect(classifyApiError({ status: 400, error: 'invalid_request', text: 'Failed to authenticate' })).toBe(
      'auth',
    );
  });

  it('reads a rate limit from the status or the error field', () => {
    expect(classifyApiError({ status: 429 })).toBe('rate-limit');
    expect(classifyApiError({ error: 'rate_limit' })).toBe('rate-limit');
    expect(classifyApiError({ status: 429, text: 'Overloaded' })).toBe('rate-limit');
  });

  it('reads an overloaded API from the status, the error field or the text', () => {
    expect(classifyApiError({ status: 529 })).toBe('overloaded');
    expect(classifyApiError({ error: 'overloaded' })).toBe('overloaded');
    expect(classifyApiError({ text: 'API Error: 529 {"type":"overloaded_error"}' })).toBe('overloaded');
    expect(classifyApiError({ text: 'Repeated 529 Overloaded errors' })).toBe('overloaded');
    expect(classifyApiError({ text: 'overloaded' })).toBe('overloaded');
    // 529 only as a number of its own.
    expect(classifyApiError({ text: 'request req_5290 failed' })).toBe('api');
  });

  it('reads an unknown model from a 404, the error field, or a 400 that names the model', () => {
    expect(classifyApiError({ status: 404 })).toBe('model');
    expect(classifyApiError({ error: 'model_not_found' })).toBe('model');
    expect(classifyApiError({ status: 400, text: 'invalid model: claude-nope' })).toBe('model');
    expect(classifyApiError({ status: 400, text: 'The Model is not available' })).toBe('model');
    // A 400 about anything else (or about `models`, not the word `model`) is the API's.
    expect(classifyApiError({ status: 400, text: 'messages: text content blocks must be non-empty' })).toBe(
      'api',
    );
    expect(classifyApiError({ status: 400, text: 'too many models' })).toBe('api');
    expect(classifyApiError({ status: 400 })).toBe('api');
  });

  it('calls any other failing status the API’s, whatever its text says about the network', () => {
    expect(classifyApiError({ status: 500 })).toBe('api');
    expect(classifyApiError({ status: 502, text: 'Connection reset by peer' })).toBe('api');
    expect(classifyApiError({ status: 418 })).toBe('api');
  });

  it('reads a network failure from the text when no failing status came with it', () => {
    for (const text of [
      'Connection error.',
      'read ECONNRESET',
      'connect ECONNREFUSED 127.0.0.1:443',
      'Request timed out.',
      'socket hang up',
      'Network is unreachable',
      'TypeError: fetch failed',
      'getaddrinfo ENOTFOUND api.anthropic.com',
      'getaddrinfo EAI_AGAIN api.anthropic.com',
    ]) {
      expect(classifyApiError({ text }), text).toBe('network');
    }
    expect(classifyApiError({ status: 200, text: 'socket hang up' })).toBe('network');
  });

  it('falls back to `api` for nothing, or for what it does not know', () => {
    expect(classifyApiError({})).toBe('api');
    expect(classifyApiError({ text: '' })).toBe('api');
    expect(classifyApiError({ error: 'unknown', text: 'Something went wrong' })).toBe('api');
  });

  it('only answers with causes a report knows', () => {
    const signals = [
      {},
      { status: 401 },
      { status: 429 },
      { status: 529 },
      { status: 404 },
      { text: 'ECONNRESET' },
    ];
    for (const s of signals) expect(ERROR_CAUSES).toContain(classifyApiError(s));
  });

  it('keeps a 400 whose text holds the number 529 as `api`; the number alone, with no status, is overloaded', () => {
    expect(classifyApiError({ status: 400, text: 'max_tokens: 529 > 512' })).toBe('api');
    expect(classifyApiError({ text: 'API Error: 529 {"type":"error"}' })).toBe('overloaded');
    expect(classifyApiError({ status: 500, text: 'Overloaded' })).toBe('overloaded');
  });
});
