/**
 * An author call through the REAL `codex` (pinned, node_modules/.bin/codex) against the simulated
 * model's Responses API: the answer read from `--json`, no skill listed and no shell tool offered,
 * and each way a call ends without an answer named as `AskResult` names it.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { askCodex, codexAskArgs } from '../../../src/agents/codex/ask.js';
import type { Behaviour } from '../../../src/simulated/model.js';
import { useAskWorld } from '../../fakes/ask-world.js';

const CODEX_BIN = resolve('node_modules/.bin/codex');
const KEY = 'sk-codex-ask-0123456789';

const BEHAVIOURS: Record<string, Behaviour> = {
  'ask: answer': { kind: 'text', text: 'the drafted answer' },
  'ask: 401': { kind: 'api-error', status: 401, message: `bad key ${KEY}`, echoApiKey: true },
  'ask: hang': { kind: 'hang' },
  'ask: interrupted': { kind: 'hang' },
};

const world = useAskWorld(CODEX_BIN, BEHAVIOURS, (url) => ({
  ...process.env,
  OPENAI_BASE_URL: `${url}/v1`,
  OPENAI_API_KEY: KEY,
}));
const { settings, requestsFor } = world;

describe('askCodex', () => {
  it('reads the answer and its tokens; the request lists no skill and offers no shell', async () => {
    const result = await askCodex('ask: answer', settings());
    expect(result).toMatchObject({ kind: 'answer', text: 'the drafted answer' });
    expect(result.kind === 'answer' ? result.usage?.inputTokens : 0).toBeGreaterThan(0);
    const [request] = requestsFor('ask: answer');
    const body = JSON.stringify(request?.body);
    // Each tool `exec` can call has a section of its own: the shell's are gone, as is the listing.
    expect(body).not.toContain('skills_instructions');
    // The system skills Codex installs and lists by default: neither installed nor listed.
    expect(body).not.toContain('skill-installer');
    expect(body).not.toContain('imagegen');
    expect(body).not.toContain('### `exec_command`');
    expect(body).not.toContain('### `write_stdin`');
    expect(body).toContain('### `view_image`');
  });

  it('names an API error by its cause, and never quotes the key', async () => {
    const result = await askCodex('ask: 401', settings());
    expect(result).toMatchObject({ kind: 'api-error', cause: 'auth' });
    expect(JSON.stringify(result)).not.toContain(KEY);
    expect(requestsFor('ask: 401')).toHaveLength(1);
  });

  it('ends a call that hangs at its timeout, and one aborted as interrupted', async () => {
    expect(await askCodex('ask: hang', settings({ timeoutMs: 5_000 }))).toEqual({
      kind: 'timeout',
      seconds: 5,
    });
    const controller = new AbortController();
    const asked = askCodex('ask: interrupted', settings({ signal: controller.signal }));
    while (requestsFor('ask: interrupted').length === 0) await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    expect(await asked).toEqual({ kind: 'interrupted' });
  });

  it('says when the CLI cannot start, and when no key is set, before any model call', async () => {
    expect(await askCodex('ask: answer', settings({ bin: '/nonexistent/codex' }))).toMatchObject({
      kind: 'spawn-failed',
    });
    const before = world.model.requests.length;
    const env: NodeJS.ProcessEnv = { ...process.env, OPENAI_BASE_URL: `${world.model.url}/v1` };
    delete env.OPENAI_API_KEY;
    delete env.CODEX_API_KEY;
    expect(await askCodex('ask: answer', settings({ env }))).toMatchObject({
      kind: 'api-error',
      cause: 'auth',
      said: 'no API key in CODEX_API_KEY or OPENAI_API_KEY',
    });
    expect(world.model.requests.length).toBe(before);
  });

  it('puts the prompt after `--`, the model before it, with the shell tool and the skills off', () => {
    const args = codexAskArgs('-x prompt', { baseUrl: 'http://x/v1', apiKey: 'k', model: 'm' });
    expect(args.slice(-4)).toEqual(['-m', 'm', '--', '-x prompt']);
    expect(args.join(' ')).toContain('--disable shell_tool');
    expect(args.join(' ')).toContain('-c skills.include_instructions=false -c skills.bundled.enabled=false');
  });
});
