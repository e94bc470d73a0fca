/**
 * How `gemini` is launched for one measured run: the argv, the environment, and the two files of its
 * throwaway GEMINI_CLI_HOME (settings.json and the policy), pure. The spawning is process/group.ts,
 * the files are written by stub.ts. What each switch does, as Gemini CLI 0.61.0 showed it, is in
 * docs/gemini.md "Launch".
 */
import { foreignSecretVariables } from '../registry.js';
import { geminiFacts } from './facts.js';

/** Where the runs' model calls go, and with which key. */
export interface GeminiProvider {
  /** The Gemini API base (GOOGLE_GEMINI_BASE_URL); Google's when absent. */
  baseUrl?: string;
  /** The key Gemini CLI sends as `x-goog-api-key`. */
  apiKey: string;
  /**
   * The model id (`-m`). Without it Gemini CLI's `auto` model first asks a router model which
   * model to use, a second request per run that no report counts (docs/gemini.md "The model").
   */
  model?: string;
}

/** The round-trip gate's prompt (the simulated model answers it with `pong`, as for the others). */
export const GEMINI_ROUND_TRIP_QUERY = 'Reply with exactly: pong';

/**
 * The argv of one measured run: headless (`-p`) with the JSON-lines stream, in yolo mode so the
 * model is offered the tools an interactive session offers (docs/gemini.md "Which tools the model
 * sees"); the policy in the throwaway home then denies every call, so nothing the model asks for
 * runs. The query is glued to `--prompt=`: as `-p <query>`, a query starting with `-` was read as
 * options (exit 1).
 */
export function geminiArgs(query: string, provider: GeminiProvider): string[] {
  return [
    '--output-format',
    'stream-json',
    '--approval-mode',
    'yolo',
    ...(provider.model ? ['-m', provider.model] : []),
    `--prompt=${query}`,
  ];
}

/**
 * settings.json of the throwaway home:
 * - the API-key login (without a selected auth type the CLI exits 41, "Invalid auth method");
 * - no usage statistics (else it looks up play.googleapis.com), no update check or notice;
 * - one attempt per request and no retry of a failed fetch: a failing request fails the run at
 *   once, recorded as an error (the default retries up to 10 times, with backoff, for a minute).
 */
export function geminiSettings(): string {
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    general: {
      enableAutoUpdate: false,
      enableAutoUpdateNotification: false,
      maxAttempts: 1,
      retryFetchErrors: false,
    },
  };
  return `${JSON.stringify(settings, null, 2)}\n`;
}

/**
 * The policy of the throwaway home (`.gemini/policies/skilltrigger.toml`). A rule with an
 * `argsPattern` does not take a tool out of the request's tool list (only a rule without one
 * does), but it applies to every call, whose arguments are never empty JSON: so the model sees
 * yolo's tools, and every call it makes is refused ("Tool execution denied by policy.").
 */
export function geminiPolicy(): string {
  return [
    '# skilltrigger: the model sees the tools; none of its calls runs.',
    '[[rule]]',
    'toolName = "*"',
    'argsPattern = "."',
    'decision = "deny"',
    'priority = 100',
    '',
  ].join('\n');
}

/** Where one run's files go: all inside the run's temp folder, removed with it. */
export interface GeminiRunFolders {
  /** GEMINI_CLI_HOME and HOME: Gemini keeps its state in `<home>/.gemini`. */
  home: string;
  /** The run's TMPDIR (an API error writes a report there). */
  tmpDir: string;
}

/**
 * Variables of the user's environment the child never sees: another Gemini home, key, endpoint or
 * login, the Google Cloud settings that would switch the run to Vertex AI, and another agent's secret.
 */
const DROPPED = new Set([
  'GEMINI_CLI_HOME',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'GOOGLE_GEMINI_BASE_URL',
  'GOOGLE_VERTEX_BASE_URL',
  'GOOGLE_GENAI_USE_VERTEXAI',
  'GOOGLE_GENAI_USE_GCA',
  'GOOGLE_CLOUD_PROJECT',
  'GOOGLE_CLOUD_LOCATION',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'GEMINI_MODEL',
  'GEMINI_SANDBOX',
  'GEMINI_CLI_SYSTEM_SETTINGS_PATH',
  'GEMINI_CLI_SYSTEM_DEFAULTS_PATH',
  ...foreignSecretVariables(geminiFacts.id),
]);

/**
 * The child's environment: the user's, minus Gemini's own settings, plus the run's folders, the
 * key and endpoint, a trusted workspace (else the project's skills are not read), and no relaunch
 * (else the CLI re-spawns itself as a second node process to raise its heap limit).
 */
export function geminiEnv(
  base: NodeJS.ProcessEnv,
  folders: GeminiRunFolders,
  provider: GeminiProvider,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    if (value !== undefined && !DROPPED.has(key)) env[key] = value;
  }
  env.GEMINI_CLI_HOME = folders.home;
  env.HOME = folders.home;
  env.TMPDIR = folders.tmpDir;
  env.GEMINI_API_KEY = provider.apiKey;
  if (provider.baseUrl) env.GOOGLE_GEMINI_BASE_URL = provider.baseUrl;
  env.GEMINI_CLI_TRUST_WORKSPACE = 'true';
  env.GEMINI_CLI_NO_RELAUNCH = 'true';
  return env;
}

/** `gemini --version` prints the bare version, `0.61.0`. */
export function parseGeminiVersion(output: string): string | undefined {
  return /^\s*v?(\d+\.\d+\.\d+\S*)\s*$/m.exec(output)?.[1];
}
