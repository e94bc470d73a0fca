import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as core from '@actions/core';
import { type ClaudeExit, spawnClaude } from '../adapters/claude.js';
import { initRepository } from '../adapters/git.js';
import type { InitInfo } from '../decide/decision.js';
import { parseEvent } from '../decide/events.js';
import { maskSecrets } from '../mask.js';
import { claudeEnvironment } from '../measure/run-once.js';

/**
 * The gates the Action runs before measuring (SPEC §2.4), each in its own log group.
 *
 * TODO(gates): this is a stand-in until `src/gates/preflight.ts` (`runPreflight`) lands; then
 * `runGates` should call it and map its findings to `GateFinding`. Until then it checks what a
 * CI runner needs: the CLI answers (`cli`), it is authenticated (`auth`), and a real request with
 * the chosen model answers `pong` (`round-trip`), whose init event gives the roster. The plugin
 * conflict check is reported as skipped rather than pretended.
 */

export type GateStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** The same shape as `GateResult` of src/gates/gate.ts, so switching to `runPreflight` is a mapping of names only. */
export interface GateFinding {
  gate: 'cli' | 'auth' | 'round-trip' | 'conflict' | 'sleep' | 'roster';
  status: GateStatus;
  reason: string;
  /** How to fix anything not ok. */
  fix?: string;
}

export interface GateResults {
  passed: boolean;
  findings: GateFinding[];
  /** `claude --version`. */
  cliVersion?: string;
  /** The roster, model and CLI version of a stub-less run (the round-trip's init event). */
  rosterInit?: InitInfo;
}

export interface GateOptions {
  claudeBin: string;
  /** The step's environment with the API key in it; cleaned by `claudeEnvironment`. */
  env: NodeJS.ProcessEnv;
  model?: string;
  maxRetries: number;
  timeoutSeconds: number;
  /** The version the Action installed, to warn when `claude --version` says otherwise. */
  expectedVersion?: string;
  /** Said in the auth fix: a fork's pull_request run gets no secrets. */
  fromFork: boolean;
}

const ROUND_TRIP_QUERY = 'Reply with exactly: pong';

interface ClaudeCall {
  lines: string[];
  exit?: ClaudeExit;
  timedOut: boolean;
}

/** Runs `claude <args>` to its end (or the timeout), collecting stdout lines. */
async function callClaude(
  bin: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
  timeoutMs: number,
): Promise<ClaudeCall> {
  const proc = spawnClaude({ bin, args, cwd, env });
  const lines: string[] = [];
  const read = (async () => {
    for await (const line of proc.lines) lines.push(line);
  })();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const first = await Promise.race([proc.exited, timeout]);
  clearTimeout(timer);
  await proc.stop();
  await read.catch(() => undefined);
  return first === 'timeout' ? { lines, timedOut: true } : { lines, exit: first, timedOut: false };
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? ''
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function cliGate(opts: GateOptions, env: Record<string, string>, cwd: string) {
  const call = await callClaude(opts.claudeBin, ['--version'], env, cwd, 30_000);
  if (call.exit?.spawnFailed) {
    return {
      finding: {
        gate: 'cli',
        status: 'fail',
        reason: `${opts.claudeBin} could not be started`,
        fix: 'leave claude-path empty to install the pinned CLI, or point it at an executable claude',
      } satisfies GateFinding,
    };
  }
  const version = /(\d+\.\d+\.\d+\S*)/.exec(call.lines.join('\n'))?.[1];
  if (call.timedOut || version === undefined) {
    return {
      finding: {
        gate: 'cli',
        status: 'fail',
        reason: call.timedOut
          ? 'claude --version did not answer within 30 s'
          : `claude --version printed no version (${JSON.stringify(firstLine(call.lines.join('\n')).slice(0, 80))})`,
        fix: 'reinstall the CLI (clear the Actions cache entry skilltrigger-claude-*), or set claude-path',
      } satisfies GateFinding,
    };
  }
  if (opts.expectedVersion !== undefined && version !== opts.expectedVersion) {
    return {
      version,
      finding: {
        gate: 'cli',
        status: 'warn',
        reason: `claude ${version} answered, not the ${opts.expectedVersion} installed`,
        fix: 'clear the Actions cache entry skilltrigger-claude-* so the pinned version is installed again',
      } satisfies GateFinding,
    };
  }
  return {
    version,
    finding: { gate: 'cli', status: 'ok', reason: `claude ${version}` } satisfies GateFinding,
  };
}

function authFix(fromFork: boolean): string {
  return fromFork
    ? 'this pull request comes from a fork, and GitHub passes no secrets to its pull_request runs: a maintainer can measure it from a branch of this repository'
    : // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression the user copies
      'pass a key from a secret: `anthropic-api-key: ${{ secrets.ANTHROPIC_API_KEY }}` (or set ANTHROPIC_API_KEY / CLAUDE_CODE_OAUTH_TOKEN in the step env)';
}

/** Variables that authenticate the CLI without a login; with one set, `claude auth status` adds nothing. */
const CREDENTIAL_VARIABLES = [
  'ANTHROPIC_API_KEY',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'ANTHROPIC_AUTH_TOKEN',
  'CLAUDE_CODE_USE_BEDROCK',
  'CLAUDE_CODE_USE_VERTEX',
];

async function authGate(opts: GateOptions, env: Record<string, string>, cwd: string): Promise<GateFinding> {
  const credential = CREDENTIAL_VARIABLES.find((name) => (env[name] ?? '') !== '');
  if (credential !== undefined) {
    // The round-trip that follows proves the credential works; this only says where it comes from.
    return { gate: 'auth', status: 'ok', reason: `credentials from ${credential}` };
  }
  const call = await callClaude(opts.claudeBin, ['auth', 'status', '--json'], env, cwd, 30_000);
  let parsed: unknown;
  try {
    parsed = JSON.parse(call.lines.join('\n'));
  } catch {
    parsed = undefined;
  }
  if (!isRecord(parsed) || typeof parsed.loggedIn !== 'boolean') {
    // A shape this version does not know: the round-trip decides.
    return {
      gate: 'auth',
      status: 'warn',
      reason: `claude auth status answered in an unknown shape (${JSON.stringify(firstLine(call.lines.join('\n')).slice(0, 80))}); the round-trip decides`,
    };
  }
  if (!parsed.loggedIn) {
    return {
      gate: 'auth',
      status: 'fail',
      reason: 'no credentials: claude is not logged in and no API key is set',
      fix: authFix(opts.fromFork),
    };
  }
  const method = typeof parsed.authMethod === 'string' ? parsed.authMethod : 'unknown method';
  return { gate: 'auth', status: 'ok', reason: `logged in (${method})` };
}

async function roundTripGate(
  opts: GateOptions,
  env: Record<string, string>,
  cwd: string,
): Promise<{ finding: GateFinding; init?: InitInfo }> {
  const args = [
    '-p',
    '--output-format',
    'stream-json',
    '--verbose',
    '--no-session-persistence',
    ...(opts.model ? ['--model', opts.model] : []),
    '--',
    ROUND_TRIP_QUERY,
  ];
  const timeoutMs = Math.max(60, opts.timeoutSeconds * 2) * 1000;
  const call = await callClaude(opts.claudeBin, args, env, cwd, timeoutMs);
  let init: InitInfo | undefined;
  let result: { text: string; isError: boolean; status?: number } | undefined;
  let apiError: { text: string; status?: number } | undefined;
  for (const line of call.lines) {
    const event = parseEvent(line);
    if (event.type === 'init' && init === undefined) {
      const { type: _type, ...info } = event;
      init = info;
    } else if (event.type === 'assistant' && event.synthetic && apiError === undefined) {
      const text = event.blocks.flatMap((b) => (b.kind === 'text' ? [b.text] : [])).join(' ');
      apiError = { text, ...(event.apiErrorStatus === undefined ? {} : { status: event.apiErrorStatus }) };
    } else if (event.type === 'result') {
      result = {
        text: event.text ?? '',
        isError: event.isError,
        ...(event.apiErrorStatus === undefined ? {} : { status: event.apiErrorStatus }),
      };
    }
  }
  const model = opts.model ?? init?.model ?? 'the default model';
  if (result && !result.isError && /\bpong\b/i.test(result.text)) {
    return {
      finding: { gate: 'round-trip', status: 'ok', reason: `${model} answered pong` },
      ...(init ? { init } : {}),
    };
  }
  const status = result?.status ?? apiError?.status;
  // A gateway may echo the key in its error body (src/mask.ts).
  const said = maskSecrets(firstLine(apiError?.text || result?.text || '')).slice(0, 160);
  const reason = call.timedOut
    ? `no answer within ${timeoutMs / 1000} s`
    : said
      ? `the request failed${status ? ` (HTTP ${status})` : ''}: ${said}`
      : `claude ended without an answer (exit ${call.exit?.exitCode ?? call.exit?.signal ?? 'unknown'})`;
  const fix =
    status === 401 || status === 403
      ? `the API key was refused: ${authFix(opts.fromFork)}`
      : status === 400 || status === 404
        ? `check the model input (${model}) against the models your key can use`
        : 'check the API status and the network; ANTHROPIC_BASE_URL, if set, must reach the Messages API';
  return { finding: { gate: 'round-trip', status: 'fail', reason, fix }, ...(init ? { init } : {}) };
}

function logFinding(finding: GateFinding): void {
  core.info(`${finding.status} · ${finding.reason}`);
  if (finding.fix && finding.status !== 'ok') core.info(`fix: ${finding.fix}`);
}

/** Runs the gates in order, each in a log group; stops at the first failure. */
export async function runGates(opts: GateOptions): Promise<GateResults> {
  const env = claudeEnvironment(opts.env, opts.maxRetries);
  const findings: GateFinding[] = [];
  const gate = async <T>(name: GateFinding['gate'], fn: () => Promise<T & { finding: GateFinding }>) =>
    core.group(`Gate: ${name}`, async () => {
      const out = await fn();
      findings.push(out.finding);
      logFinding(out.finding);
      return out;
    });
  const failed = () => findings.some((f) => f.status === 'fail');

  // A fresh, empty repository: the CLI must not read this checkout's .claude/ or CLAUDE.md here.
  const dir = await mkdtemp(path.join(os.tmpdir(), 'skilltrigger-gate-'));
  try {
    const project = path.join(dir, 'project');
    await mkdir(project);
    await initRepository(project);

    const cli = await gate('cli', () => cliGate(opts, env, project));
    if (failed()) return { passed: false, findings };
    await gate('auth', async () => ({ finding: await authGate(opts, env, project) }));
    if (failed()) return { passed: false, findings, ...(cli.version ? { cliVersion: cli.version } : {}) };
    const roundTrip = await gate('round-trip', () => roundTripGate(opts, env, project));
    await gate('conflict', async () => ({
      finding: {
        gate: 'conflict',
        status: 'skip',
        reason: 'plugin conflicts are not checked by this build (a fresh runner has no plugins installed)',
      } satisfies GateFinding,
    }));
    return {
      passed: !failed(),
      findings,
      ...(cli.version ? { cliVersion: cli.version } : {}),
      ...(roundTrip.init ? { rosterInit: roundTrip.init } : {}),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The failure message's first line for a failed gate (the step's reason). */
export function gateFailureMessage(results: GateResults): string {
  const failed = results.findings.filter((f) => f.status === 'fail');
  const lines = failed.map((f) => `gate ${f.gate} failed: ${f.reason}${f.fix ? `. Fix: ${f.fix}` : ''}`);
  return lines.join('\n') || 'a gate failed';
}
