/**
 * An author call through the REAL `gemini` (pinned, node_modules/.bin/gemini) against the simulated
 * model's Gemini API: the answer read from `stream-json`, no skill listed and no tool offered, and
 * each way a call ends without an answer named as `AskResult` names it.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { askGemini, geminiAskArgs } from '../../../src/agents/gemini/ask.js';
import type { Behaviour } from '../../../src/simulated/model.js';
import { useAskWorld } from '../../fakes/ask-world.js';

const GEMINI_BIN = resolve('node_modules/.bin/gemini');
const KEY = 'gemini-ask-key-0123456789';

const BEHAVIOURS: Record<string, Behaviour> = {
  'ask: answer': { kind: 'text', text: 'the drafted answer' },
  'ask: 429': { kind: 'api-error', status: 429 },
  'ask: hang': { kind: 'hang' },
};

const world = useAskWorld(GEMINI_BIN, BEHAVIOURS, (url) => ({
  ...process.env,
  GOOGLE_GEMINI_BASE_URL: url,
  GEMINI_API_KEY: KEY,
}));
const { settings, requestsFor } = world;

describe('askGemini', () => {
  it('reads the answer and its tokens; the request lists no skill and offers no tool', async () => {
    const result = await askGemini('ask: answer', settings({ model: 'gemini-2.5-flash' }));
    expect(result).toMatchObject({ kind: 'answer', text: 'the drafted answer' });
    expect(result.kind === 'answer' ? result.usage?.inputTokens : 0).toBeGreaterThan(0);
    const [request] = requestsFor('ask: answer');
    expect(request?.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent');
    const body = request?.body as { tools?: { functionDeclarations?: unknown[] }[] };
    expect((body.tools ?? []).flatMap((t) => t.functionDeclarations ?? [])).toEqual([]);
    const text = JSON.stringify(body);
    expect(text).not.toContain('<available_skills>');
    expect(text).not.toContain('skill-creator');
  });

  it('names an API error by the status its exit code gives, and ends a hang at its timeout', async () => {
    expect(await askGemini('ask: 429', settings())).toMatchObject({ kind: 'api-error', cause: 'rate-limit' });
    expect(requestsFor('ask: 429')).toHaveLength(1);
    expect(await askGemini('ask: hang', settings({ timeoutMs: 8_000 }))).toEqual({
      kind: 'timeout',
      seconds: 8,
    });
  });

  it('says when the CLI cannot start, and when no key is set, before any model call', async () => {
    expect(await askGemini('ask: answer', settings({ bin: '/nonexistent/gemini' }))).toMatchObject({
      kind: 'spawn-failed',
    });
    const before = world.model.requests.length;
    const env: NodeJS.ProcessEnv = { ...process.env, GOOGLE_GEMINI_BASE_URL: world.model.url };
    delete env.GEMINI_API_KEY;
    delete env.GOOGLE_API_KEY;
    expect(await askGemini('ask: answer', settings({ env }))).toMatchObject({
      kind: 'api-error',
      cause: 'auth',
      said: 'no API key in GEMINI_API_KEY or GOOGLE_API_KEY',
    });
    expect(world.model.requests.length).toBe(before);
  });

  it('names the model and glues the prompt to --prompt=, without yolo', () => {
    expect(geminiAskArgs('-m x', 'm1')).toEqual([
      '--output-format',
      'stream-json',
      '-m',
      'm1',
      '--prompt=-m x',
    ]);
  });
});
