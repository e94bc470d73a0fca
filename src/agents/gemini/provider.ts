/**
 * Where a user's Gemini runs send their model calls, and with which key, read from the environment
 * (docs/gemini.md "The login"). Every measured run gets a throwaway GEMINI_CLI_HOME, so nothing of
 * the user's `~/.gemini` reaches it: not settings.json (their auth type, their model) and not the
 * Google sign-in `gemini` stored (oauth_creds.json). The key therefore comes from the environment,
 * and the endpoint from GOOGLE_GEMINI_BASE_URL (a gateway, the tests' loopback model) or Google's.
 */
import { access } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { GeminiProvider } from './launch.js';

/** The variables a key is read from, in order (Gemini CLI reads both). */
export const GEMINI_KEY_SOURCES = ['GEMINI_API_KEY', 'GOOGLE_API_KEY'] as const;

/** The variables a run takes from the user's environment: the key (masked everywhere) and the endpoint. */
export const GEMINI_PASSED_VARIABLES = [...GEMINI_KEY_SOURCES, 'GOOGLE_GEMINI_BASE_URL'] as const;

export type ChosenGeminiProvider =
  | { provider: GeminiProvider; keySource: (typeof GEMINI_KEY_SOURCES)[number] }
  | { provider: GeminiProvider; missing: (typeof GEMINI_KEY_SOURCES)[0] };

export function geminiProviderFrom(env: NodeJS.ProcessEnv, model?: string): ChosenGeminiProvider {
  const baseUrl = env.GOOGLE_GEMINI_BASE_URL?.trim();
  const withKey = (apiKey: string): GeminiProvider => ({
    apiKey,
    ...(baseUrl ? { baseUrl } : {}),
    ...(model ? { model } : {}),
  });
  for (const source of GEMINI_KEY_SOURCES) {
    const key = env[source]?.trim();
    if (key) return { provider: withKey(key), keySource: source };
  }
  return { provider: withKey(''), missing: GEMINI_KEY_SOURCES[0] };
}

/**
 * Whether the user's own Gemini home holds a Google sign-in (`oauth_creds.json`, written by the
 * "Login with Google" flow). Only its presence is looked at, never its content.
 */
export async function hasGeminiGoogleLogin(env: NodeJS.ProcessEnv): Promise<boolean> {
  const home = env.GEMINI_CLI_HOME?.trim() || env.HOME || os.homedir();
  try {
    await access(path.join(home, '.gemini', 'oauth_creds.json'));
    return true;
  } catch {
    return false;
  }
}
