/**
 * How `claude` is launched: every argv and environment skilltrigger starts it with is built here,
 * so the measured runs, the gates, the listing probe and the author calls cannot drift apart.
 * Pure: the spawning is claude.ts (a measured run) and claude-command.ts (a short command).
 */
import path from 'node:path';
import { ROUND_TRIP_QUERY } from './gates/round-trip.js';
import { resumeArgs } from './transcript.js';

/**
 * `--claude ./node_modules/.bin/claude` names a file relative to where the user stands, but the
 * child starts in its temp project: a path with a separator is made absolute against the working
 * directory first. A bare name (`claude`) is still looked up on PATH.
 */
export function resolveClaudeBin(bin: string, cwd: string = process.cwd()): string {
  return bin.includes('/') || bin.includes(path.sep) ? path.resolve(cwd, bin) : bin;
}

/**
 * How a measured run answers tool calls. The CLI runs the model's tool calls while the message is
 * still streaming, before skilltrigger can decide and stop it (docs/claude-cli.md §4), with the
 * API key in its environment; an eval query is untrusted text (in CI it comes from a pull request).
 * `dontAsk` turns every "would ask for approval" into a denial, and as a command-line flag it
 * overrides a `defaultMode` (bypassPermissions, acceptEdits, …) from the user's settings. It changes
 * nothing the model is sent: the request's tools, system prompt and listing stay byte-identical, so
 * the measurement is the same (docs/security.md, __tests__/faults/security.e2e.test.ts).
 */
export const RUN_PERMISSION_ARGS: readonly string[] = ['--permission-mode', 'dontAsk'];

/**
 * The `-p` argv every prompt is sent with: stream-json (read by one parser), no session file, the
 * measured runs' permission mode, the prompt after `--` so a leading `-` stays text.
 */
function promptArgs(
  prompt: string,
  options: { partials?: boolean; oneTurn?: boolean; model?: string | undefined; resume?: string | undefined },
): string[] {
  return [
    '-p',
    '--output-format',
    'stream-json',
    '--verbose',
    ...(options.partials ? ['--include-partial-messages'] : []),
    '--no-session-persistence',
    ...RUN_PERMISSION_ARGS,
    ...(options.oneTurn ? ['--max-turns', '1'] : []),
    ...(options.model ? ['--model', options.model] : []),
    ...(options.resume ? resumeArgs(options.resume) : []),
    '--',
    prompt,
  ];
}

/**
 * The exact argv of one measured run (docs/claude-cli.md §1): partial messages on, so a decision
 * comes at once; with `resume`, the session id of the run's context transcript (docs/context.md).
 */
export function claudeArgs(query: string, model?: string, resume?: string): string[] {
  return promptArgs(query, { partials: true, model, resume });
}

/**
 * A standby's argv (docs/speed.md, "A warm standby"): a measured run's flags with the prompt left
 * out, read instead as one stream-json user message on stdin (`standbyMessage`). The CLI does its
 * whole start-up before the message arrives and sends no request until it has it, so the run's
 * claude can be started while the previous run still talks to the model.
 */
export function standbyArgs(model?: string, resume?: string): string[] {
  const args = promptArgs('', { partials: true, model, resume });
  // `-- <prompt>` out, the input format in: everything else is the measured run's argv.
  return [...args.slice(0, -2), '--input-format', 'stream-json'];
}

/**
 * The one line a standby reads as its prompt: a user message whose content is the query as plain
 * text, which the CLI turns into the same user message a `-p <query>` run sends.
 */
export function standbyMessage(query: string): string {
  return `${JSON.stringify({ type: 'user', message: { role: 'user', content: query } })}\n`;
}

/**
 * The round-trip's argv: a measured run's flags (permission mode included: it is the roster run
 * too) minus the partial messages, since the gate reads only the assistant text and the result.
 */
export function roundTripArgs(model?: string): string[] {
  return promptArgs(ROUND_TRIP_QUERY, { model });
}

/**
 * An author call's argv (`init`'s draft, `improve`'s rewrite): read by the same reader as the
 * round-trip gate, so an API failure is told apart from an answer; one turn, because the answer is
 * text and a tool call is no answer; the measured runs' permission mode, since the prompt carries
 * the user's own text.
 */
export function askArgs(prompt: string, model?: string): string[] {
  return promptArgs(prompt, { oneTurn: true, model });
}

/** The argv of a listing probe: one turn, no tools needed; only the first request is read. */
export function probeArgs(model?: string): string[] {
  return promptArgs('skilltrigger listing probe', { oneTurn: true, model });
}

/** The gates' short commands (docs/claude-cli.md §7), each run to completion by `runClaudeCommand`. */
export const GATE_COMMANDS = {
  version: ['--version'],
  authStatus: ['auth', 'status', '--json'],
  pluginList: ['plugin', 'list', '--json'],
} as const satisfies Record<string, readonly string[]>;

/**
 * The environment claude runs with: the user's, minus `CLAUDECODE` (set inside a Claude Code
 * session; claude refuses to nest with it), with retries capped so API failures surface as errors
 * inside the per-run timeout instead of ~3 minutes of backoff (docs/claude-cli.md §6).
 */
export function claudeEnvironment(base: NodeJS.ProcessEnv, maxRetries: number): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined || key === 'CLAUDECODE' || key === 'CLAUDE_CODE_ENTRYPOINT') continue;
    env[key] = value;
  }
  env.CLAUDE_CODE_MAX_RETRIES = String(maxRetries);
  // No telemetry or reachability probes: they add requests and leave files, and change nothing the model sees.
  env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC = '1';
  return env;
}

/** What of the user's environment reaches a listing probe's claude: nothing that logs in or configures. */
const PROBE_PASSED_THROUGH = ['PATH', 'TMPDIR', 'LANG', 'LC_ALL', 'LC_CTYPE', 'SYSTEMROOT'];

/**
 * A listing probe's environment: PATH, TMPDIR and the locale of the user's, a throwaway HOME, the
 * loopback simulated model and a dummy key, so the user's own key and settings never reach it.
 */
export function probeEnvironment(
  base: NodeJS.ProcessEnv,
  home: string,
  modelUrl: string,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of PROBE_PASSED_THROUGH) {
    const value = base[key];
    if (value !== undefined) env[key] = value;
  }
  Object.assign(env, {
    HOME: home,
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: 'sk-skilltrigger-listing-probe',
    CLAUDE_CODE_MAX_RETRIES: '0',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  });
  return env;
}
