import type { ErrorCause } from '../../../outcome.js';
import { type CommandResult, firstLine } from '../../../program-output.js';
import { agentQuote } from '../../../schemas/privacy.js';
import { classifyApiError } from '../../api-error.js';
import { type GateResult, gateResult } from '../../gates.js';
import type { RoundTripReading } from '../one-turn.js';
import { LOGIN_FIX } from './auth.js';

/**
 * The round-trip prompt, which `isPong` reads the answer of; the claude adapter builds its argv
 * (`roundTripArgs`). The simulated model answers it with `pong` by default.
 */
export const ROUND_TRIP_QUERY = 'Reply with exactly: pong';

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
  command: CommandResult,
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
    const said = reading.apiError.text ? `: ${agentQuote(reading.apiError.text)}` : '';
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
  const said = agentQuote(command.stderr) || agentQuote(command.stdout);
  return gateResult(
    'round-trip',
    'fail',
    `claude ${ended} without an answer${said ? ` (it said: ${said})` : ''}`,
    `run \`claude -p "${ROUND_TRIP_QUERY}"\` yourself to see what goes wrong`,
  );
}

/** One round-trip gate for several models: it fails when any model fails, naming each. */
export function combineRoundTrips(results: GateResult[]): GateResult {
  const [only] = results;
  if (results.length === 1 && only) return only;
  const failed = results.filter((r) => r.status === 'fail');
  if (failed.length === 0) return gateResult('round-trip', 'ok', results.map((r) => r.reason).join('; '));
  const fixes = [...new Set(failed.map((r) => r.fix).filter((f): f is string => f !== undefined))];
  return gateResult('round-trip', 'fail', failed.map((r) => r.reason).join('; '), fixes.join('; '));
}
