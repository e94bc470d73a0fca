/**
 * The simulated model's prompt cache and the prompt side of an answer's usage, kept per server so
 * the first run of a session writes the cache and the later ones read it, as with the real API.
 */
import { createHash } from 'node:crypto';
import { isRecord } from '../guards.js';
import { type Answer, estimateTokens } from './sse.js';

/** The prompt side of a simulated answer's usage. */
export type SimulatedPrompt = Pick<Answer, 'inputTokens' | 'cacheReadTokens' | 'cacheCreationTokens'>;

/**
 * A prompt cache as the API keeps one: the request's tools (the start of every prompt, the same
 * from run to run; the system prompt names each run's own temp project, so it is not) are
 * written to the cache the first time they are seen and read from it afterwards; the rest of
 * the prompt is plain input. Token counts are estimates (4 characters a token).
 */
export function promptCache(): (body: unknown, chars: number) => SimulatedPrompt {
  const cachedPrefixes = new Set<string>();
  return (body, chars) => {
    const record = isRecord(body) ? body : {};
    const prefix = JSON.stringify(record.tools ?? null);
    const cached = Math.min(estimateTokens(prefix.length), estimateTokens(chars) - 1);
    const key = createHash('sha256').update(prefix).digest('hex');
    const seen = cachedPrefixes.has(key);
    cachedPrefixes.add(key);
    return {
      inputTokens: Math.max(1, estimateTokens(chars) - cached),
      ...(seen ? { cacheReadTokens: cached } : { cacheCreationTokens: cached }),
    };
  };
}
