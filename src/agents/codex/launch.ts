/**
 * How `codex` is launched for one measured run: the argv and the environment, pure. The spawning
 * is codex.ts. What each switch does, as codex-cli 0.169.0 showed it, is in docs/codex.md.
 */
import { foreignSecretVariables } from '../registry.js';
import { codexFacts } from './facts.js';

/** Where the runs' model calls go, as a user's gateway is configured for Codex. */
export interface CodexProvider {
  /** The Responses API base, ending in `/v1` (Codex appends `/responses`). */
  baseUrl: string;
  /** The key Codex sends as `Authorization: Bearer …`. */
  apiKey: string;
  /** The model id (`-m`); Codex's default when absent. */
  model?: string;
  /**
   * Codex's own retries (default 0: a failing request fails the run at once, recorded as an
   * error, never a miss; Codex retries a 500 about 30 times over ~26 s by default).
   */
  retries?: number;
}

/** The round-trip gate's prompt (the simulated model answers it with `pong`, as for claude). */
export const CODEX_ROUND_TRIP_QUERY = 'Reply with exactly: pong';

/** The provider's name in the generated config; it never meets the user's config.toml. */
export const CODEX_PROVIDER_ID = 'skilltrigger';

/** The variable the provider reads its key from (`env_key`), set only in the child's environment. */
export const CODEX_KEY_VARIABLE = 'CODEX_API_KEY';

/** A TOML basic string: JSON's escapes are TOML's for every character a URL or model id can hold. */
function tomlString(value: string): string {
  return JSON.stringify(value);
}

/** The run's config, `config.toml` in its throwaway CODEX_HOME (written by config-file.ts). */
export const CODEX_CONFIG_FILE = 'config.toml';

/**
 * The provider as the run's config.toml: a custom Responses provider with
 * `supports_websockets=false` goes straight to `POST /v1/responses` over HTTP (the built-in
 * provider first tries a WebSocket and loses seconds on a server without one), which is how a
 * user's gateway reaches Codex too. It goes in the throwaway CODEX_HOME rather than on the command
 * line: a gateway URL may carry a `user:password@` or an `?api-key=`, and any user of the machine
 * reads a process's argv (`ps`); the file is the run's own, mode 0600, removed with the run.
 */
export function codexConfigToml(provider: CodexProvider): string {
  const retries = Math.max(0, Math.trunc(provider.retries ?? 0));
  return [
    `model_provider = ${tomlString(CODEX_PROVIDER_ID)}`,
    '',
    `[model_providers.${CODEX_PROVIDER_ID}]`,
    `name = ${tomlString(CODEX_PROVIDER_ID)}`,
    `base_url = ${tomlString(provider.baseUrl)}`,
    'wire_api = "responses"',
    `env_key = ${tomlString(CODEX_KEY_VARIABLE)}`,
    'supports_websockets = false',
    `request_max_retries = ${retries}`,
    `stream_max_retries = ${retries}`,
    '',
  ].join('\n');
}

/**
 * The argv of one measured run: `exec --json`, the session rollout written into the throwaway
 * CODEX_HOME (the decision reads the response boundary from it; `ephemeral` for a start that only
 * needs the first request, the listing probe), the user's config.toml and rules left unread (the
 * throwaway CODEX_HOME holds only the run's own config, codexConfigToml, with the provider), no plugin sync
 * (`--disable plugins`: otherwise every start runs `git ls-remote` against github.com, whose
 * child is left a zombie under PID 1; the request the model gets is the same with or without it),
 * analytics off (`analytics_enabled: false` in the turn metadata then; the request is otherwise
 * the same), commands in the read-only sandbox, the model, and the query after `--` so a leading
 * `-` stays text. No URL and no key: the endpoint is in the config file, the key in the environment.
 * With `resume`, the run continues that thread (`exec … resume <id>`, docs/context.md).
 */
export function codexArgs(
  query: string,
  provider: CodexProvider,
  options: { ephemeral?: boolean; resume?: string } = {},
): string[] {
  return [
    'exec',
    '--json',
    ...(options.ephemeral === true ? ['--ephemeral'] : []),
    '--ignore-rules',
    '--disable',
    'plugins',
    '-c',
    'analytics.enabled=false',
    '--sandbox',
    'read-only',
    '--color',
    'never',
    ...(provider.model ? ['-m', provider.model] : []),
    // A context: the thread of the rollout placed in the run's CODEX_HOME (docs/context.md).
    ...(options.resume ? ['resume', options.resume] : []),
    '--',
    query,
  ];
}

/** Where one run's files go: all inside the run's temp folder, removed with it. */
export interface CodexRunFolders {
  /** The throwaway CODEX_HOME: Codex writes its databases, system skills and helpers here. */
  codexHome: string;
  /**
   * The run's TMPDIR. Codex puts its sandbox's mount lock here, and it refuses to create its helper
   * links in a CODEX_HOME under TMPDIR (printing a warning), so the two are siblings.
   */
  tmpDir: string;
  /** `run --roster`: the run's own HOME, holding the crowd's skills. */
  home?: string;
}

/** Variables of the user's environment the child never sees: another Codex home or key, another agent's secret. */
const DROPPED = new Set([
  'CODEX_HOME',
  'CODEX_API_KEY',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  ...foreignSecretVariables(codexFacts.id),
]);

/** The child's environment: the user's, minus Codex's own settings, plus the run's folders and key. */
export function codexEnv(
  base: NodeJS.ProcessEnv,
  folders: CodexRunFolders,
  provider: CodexProvider,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    if (value !== undefined && !DROPPED.has(key)) env[key] = value;
  }
  env.CODEX_HOME = folders.codexHome;
  env.TMPDIR = folders.tmpDir;
  if (folders.home) env.HOME = folders.home;
  env[CODEX_KEY_VARIABLE] = provider.apiKey;
  return env;
}

/** What one measured run's `codex` is spawned with, its executable and stdin aside. */
export interface CodexSpawnPlan {
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

/**
 * How one measured run's `codex` is spawned in its project, a cold start's (the query on argv) or
 * a standby's (`-`, the prompt on stdin): its environment starts from the one the run was handed
 * (the CLI's, the Action's with its inputs' keys), never from this process's own, so a variable
 * only the handed one holds reaches the run and one its caller removed does not; the run's folders,
 * its key and the drops go on top (`codexEnv`).
 */
export function codexSpawnPlan(
  query: string,
  run: { provider: CodexProvider; baseEnv: NodeJS.ProcessEnv; resume?: string },
  project: CodexRunFolders & { dir: string },
): CodexSpawnPlan {
  return {
    args: codexArgs(query, run.provider, run.resume === undefined ? {} : { resume: run.resume }),
    cwd: project.dir,
    env: codexEnv(run.baseEnv, project, run.provider),
  };
}

/** `codex --version` prints `codex-cli 0.169.0`. */
export function parseCodexVersion(output: string): string | undefined {
  return /codex-cli\s+(\d+\.\d+\.\d+\S*)/.exec(output)?.[1];
}

/**
 * The model a Codex version sends without `-m` (docs/codex.md "The model"): the request's `model`
 * as the loopback server received it. Codex prints no model in its `--json` events, so a version
 * not listed here runs a model skilltrigger cannot name (its runs are "price unknown").
 */
const DEFAULT_MODELS: Readonly<Record<string, string>> = { '0.169.0': 'gpt-6.1-sol' };

export function codexDefaultModel(version: string | undefined): string | undefined {
  return version === undefined ? undefined : DEFAULT_MODELS[version];
}
