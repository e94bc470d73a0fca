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
import type { CodexProvider } from './launch.js';

export const OPENAI_API_BASE = 'https://api.openai.com/v1';

/** The variables a key is read from, in order. */
export const CODEX_KEY_SOURCES = ['CODEX_API_KEY', 'OPENAI_API_KEY'] as const;

/**
 * The provider a measured run uses: the base URL always (OPENAI_BASE_URL, else OpenAI's), and the
 * key with the variable it came from, or an empty key and the variable that is missing.
 */
export type ChosenCodexProvider =
  | { provider: CodexProvider; keySource: (typeof CODEX_KEY_SOURCES)[number] }
  | { provider: CodexProvider; missing: (typeof CODEX_KEY_SOURCES)[0] };

export function codexProviderFrom(env: NodeJS.ProcessEnv, model?: string): ChosenCodexProvider {
  const baseUrl = env.OPENAI_BASE_URL?.trim() || OPENAI_API_BASE;
  const withKey = (apiKey: string): CodexProvider => ({ baseUrl, apiKey, ...(model ? { model } : {}) });
  for (const source of CODEX_KEY_SOURCES) {
    const key = env[source]?.trim();
    if (key) return { provider: withKey(key), keySource: source };
  }
  return { provider: withKey(''), missing: CODEX_KEY_SOURCES[0] };
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
