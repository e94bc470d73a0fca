/**
 * Where a user's Codex runs send their model calls, and with which key, read from the environment
 * (docs/codex.md "The login"). Every measured run gets a throwaway CODEX_HOME, so nothing of the
 * user's `~/.codex` reaches it: not config.toml (their model, their `model_providers`), and not
 * auth.json (the API key or the ChatGPT sign-in `codex login` stored). The key therefore comes from
 * the environment, and the endpoint from OPENAI_BASE_URL (a gateway, an Azure deployment, the
 * tests' loopback model) or OpenAI's API.
 */
import { access } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CodexProvider } from './codex-launch.js';

export const OPENAI_API_BASE = 'https://api.openai.com/v1';

/** The variables a key is read from, in order. */
export const CODEX_KEY_SOURCES = ['CODEX_API_KEY', 'OPENAI_API_KEY'] as const;

/** The provider a measured run uses, or the variable that is missing. */
export function codexProviderFrom(
  env: NodeJS.ProcessEnv,
  model?: string,
): { provider: CodexProvider; keySource: (typeof CODEX_KEY_SOURCES)[number] } | undefined {
  for (const source of CODEX_KEY_SOURCES) {
    const key = env[source]?.trim();
    if (!key) continue;
    const baseUrl = env.OPENAI_BASE_URL?.trim() || OPENAI_API_BASE;
    return { provider: { baseUrl, apiKey: key, ...(model ? { model } : {}) }, keySource: source };
  }
  return undefined;
}

/**
 * Whether the user's own Codex home holds a login (`auth.json`, written by `codex login` for an
 * API key or a ChatGPT sign-in). Only its presence is looked at, never its content: the gate says
 * that this login does not reach a measured run.
 */
export async function hasCodexLogin(env: NodeJS.ProcessEnv): Promise<boolean> {
  const home = env.CODEX_HOME?.trim() || path.join(env.HOME ?? os.homedir(), '.codex');
  try {
    await access(path.join(home, 'auth.json'));
    return true;
  } catch {
    return false;
  }
}
