import type { ErrorCause } from '../outcome.js';

/**
 * Map what the CLI says about a failed API call to a cause. The CLI reports API failures as a
 * synthetic assistant message plus a `result` with `is_error` (docs/claude-cli.md §6); older
 * versions printed only text, so the text patterns are kept as a fallback.
 */
export function classifyApiError(signal: { status?: number; error?: string; text?: string }): ErrorCause {
  const { status, error = '', text = '' } = signal;
  if (status === 401 || status === 403 || error === 'authentication_failed') return 'auth';
  if (
    /Not logged in|Please run \/login|Invalid API key|OAuth token (has )?expired|Failed to authenticate/i.test(
      text,
    )
  )
    return 'auth';
  if (/Credit balance is too low/i.test(text)) return 'auth';
  if (status === 429 || error === 'rate_limit') return 'rate-limit';
  // The number alone is read only when no status came with it: a 400 may quote 529 in its text.
  if (status === 529 || error === 'overloaded' || /Overloaded/i.test(text)) return 'overloaded';
  if (status === undefined && /\b529\b/.test(text)) return 'overloaded';
  if (status === 404 || error === 'model_not_found') return 'model';
  if (status === 400) return /\bmodel\b/i.test(text) ? 'model' : 'api';
  if (status !== undefined && status >= 400) return 'api';
  if (/Connection|ECONN|timed out|socket|network|fetch failed|ENOTFOUND|EAI_AGAIN/i.test(text))
    return 'network';
  return 'api';
}
