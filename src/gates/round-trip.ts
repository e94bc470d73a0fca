import type { ClaudeCommandResult } from '../adapters/claude-command.js';
import { ROUND_TRIP_QUERY } from '../adapters/claude-launch.js';
import { classifyApiError } from '../decide/api-error.js';
import type { InitInfo } from '../decide/decision.js';
import { parseEvent } from '../decide/events.js';
import { maskSecrets } from '../mask.js';
import type { ErrorCause, Usage } from '../outcome.js';
import { firstLine } from '../program-output.js';
import { LOGIN_FIX } from './auth.js';
import { type GateResult, gateResult } from './gate.js';
import { type InitPlugin, parseInitPlugins } from './roster.js';

// The round trip's argv and prompt are the claude adapter's; re-exported for the gate's callers.
export { ROUND_TRIP_QUERY, roundTripArgs } from '../adapters/claude-launch.js';

/** What the round-trip's stream said. */
export interface RoundTripReading {
  /** The init event: the roster of a stub-less run (the roster gate's input). */
  init?: InitInfo;
  /** `plugins[]` of the init event, to map a `plugin:skill` roster entry to its plugin id. */
  initPlugins: InitPlugin[];
  /** The model's answer (the `result` text, else its text blocks). */
  answer?: string;
  /** Set when the CLI reported an API or login failure instead of an answer. */
  apiError?: { status?: number; error?: string; text?: string };
  /** The tokens of the whole round trip (its `result`): a stub-less run's prompt, for cost estimates. */
  usage?: Usage;
  /** The model the API named in its answer (`message.model`): an alias or a short id resolved to the snapshot. */
  messageModel?: string;
}

/** Read the round-trip's stdout (stream-json lines). Pure; unknown lines are skipped. */
export function readRoundTrip(stdout: string): RoundTripReading {
  const reading: RoundTripReading = { initPlugins: [] };
  const texts: string[] = [];
  let status: number | undefined;
  let error: string | undefined;
  let errorText: string | undefined;
  let failed = false;
  for (const raw of stdout.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const event = parseEvent(line);
    switch (event.type) {
      case 'init':
        reading.init = {
          ...(event.model === undefined ? {} : { model: event.model }),
          ...(event.cliVersion === undefined ? {} : { cliVersion: event.cliVersion }),
          slashCommands: event.slashCommands,
          skills: event.skills,
          mcpServers: event.mcpServers,
        };
        reading.initPlugins = parseInitPlugins(line);
        break;
      case 'assistant': {
        if (event.parentToolUseId !== null) break;
        const text = event.blocks.map((b) => (b.kind === 'text' ? b.text : '')).join('');
        if (event.synthetic || event.error !== undefined) {
          failed = true;
          status ??= event.apiErrorStatus;
          error ??= event.error;
          errorText ??= text || undefined;
        } else {
          if (event.model !== undefined) reading.messageModel ??= event.model;
          if (text) texts.push(text);
        }
        break;
      }
      case 'result':
        // The CLI's own cost comes beside the usage; kept with it, it checks the price table (docs/cost.md).
        if (event.usage)
          reading.usage =
            event.costUsd === undefined ? event.usage : { ...event.usage, costUsd: event.costUsd };
        if (event.isError) {
          failed = true;
          status ??= event.apiErrorStatus;
          if (event.text) errorText = event.text;
        } else if (event.text !== undefined) {
          reading.answer = event.text;
        }
        break;
      default:
        break;
    }
  }
  if (reading.answer === undefined && texts.length > 0) reading.answer = texts.join('');
  if (failed) {
    reading.apiError = {
      ...(status === undefined ? {} : { status }),
      ...(error === undefined ? {} : { error }),
      ...(errorText === undefined ? {} : { text: errorText }),
    };
  }
  return reading;
}

/** `pong`, ``"Pong."`` and `` `pong` `` all count: the gate tests the wire, not the model's obedience. */
export function isPong(answer: string): boolean {
  return (
    answer
      .trim()
      .replace(/^[\s"'`*_]+|[\s"'`*_.!]+$/g, '')
      .toLowerCase() === 'pong'
  );
}

export interface RoundTripContext {
  /** `--model` as given, if any. */
  model?: string;
  /** From the cli gate, for the fix of an unknown model. */
  cliVersion?: string;
  timeoutMs: number;
  durationMs: number;
}

function fixFor(cause: ErrorCause, model: string, cliVersion: string): string {
  switch (cause) {
    case 'model':
      return `choose a model that claude ${cliVersion} and your account can use with --model (for example --model sonnet), or update the Claude CLI if "${model}" is newer than ${cliVersion}`;
    case 'auth':
      return LOGIN_FIX;
    case 'rate-limit':
      return 'the API key is rate-limited right now: wait and retry, or give skilltrigger a key other jobs do not share';
    case 'overloaded':
      return 'the API is overloaded: retry later';
    case 'network':
      return 'check that this machine reaches the API (and ANTHROPIC_BASE_URL, if set), then retry';
    default:
      return `retry; if it persists, run \`claude -p "${ROUND_TRIP_QUERY}"\` yourself to see the whole error`;
  }
}

/** The round-trip gate's rule: a real request with the chosen model answered `pong`. */
export function judgeRoundTrip(
  reading: RoundTripReading,
  command: ClaudeCommandResult,
  ctx: RoundTripContext,
): GateResult {
  const model = ctx.model ?? reading.init?.model ?? 'the default model';
  const cliVersion = ctx.cliVersion ?? reading.init?.cliVersion ?? 'this version';
  if (command.spawnFailed) {
    return gateResult('round-trip', 'fail', 'the Claude CLI could not be started', 'see the cli gate');
  }
  if (reading.apiError) {
    const cause = classifyApiError(reading.apiError);
    // A gateway may echo the key it was sent in its error body: never repeat it.
    const said = reading.apiError.text ? `: ${maskSecrets(firstLine(reading.apiError.text))}` : '';
    const what =
      cause === 'model'
        ? `the API does not know the model "${model}"`
        : cause === 'auth'
          ? 'the login was refused'
          : `the request failed (${cause})`;
    return gateResult('round-trip', 'fail', `${what}${said}`, fixFor(cause, model, cliVersion));
  }
  if (command.timedOut) {
    return gateResult(
      'round-trip',
      'fail',
      `no answer within ${Math.round(ctx.timeoutMs / 1000)} s from ${model}`,
      'check that this machine reaches the API (and ANTHROPIC_BASE_URL, if set); a proxy that holds responses needs API_TIMEOUT_MS',
    );
  }
  if (reading.answer !== undefined && isPong(reading.answer)) {
    return gateResult(
      'round-trip',
      'ok',
      `${model} answered pong in ${(ctx.durationMs / 1000).toFixed(1)} s`,
    );
  }
  if (reading.answer !== undefined) {
    return gateResult(
      'round-trip',
      'fail',
      `${model} answered "${firstLine(reading.answer, 80)}" instead of pong`,
      'check that ANTHROPIC_BASE_URL (if set) leads to the Anthropic API and that --model names a chat model',
    );
  }
  const ended = command.signal
    ? `was killed by ${command.signal}`
    : `exited with code ${command.exitCode ?? '?'}`;
  const said = maskSecrets(firstLine(command.stderr) || firstLine(command.stdout));
  return gateResult(
    'round-trip',
    'fail',
    `claude ${ended} without an answer${said ? ` (it said: ${said})` : ''}`,
    `run \`claude -p "${ROUND_TRIP_QUERY}"\` yourself to see what goes wrong`,
  );
}
