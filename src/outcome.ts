/**
 * Why a run was lost. A lost run is never a "did not trigger" (docs/design.md, "How a run is decided").
 * - `auth`: authentication failed or expired (401/403, "Not logged in").
 * - `rate-limit`: 429.
 * - `overloaded`: 529.
 * - `model`: the model is unknown to the CLI or API (400 naming the model, 404).
 * - `api`: any other API error status (400, 5xx).
 * - `network`: no status: connection refused/reset, request timed out.
 * - `cli-missing`: the `claude` executable could not be started.
 * - `crash`: the CLI exited or was killed without an outcome and without an API error, or could
 *   not be started for a reason other than a missing executable (E2BIG, EAGAIN).
 * - `no-stub`: the init event's roster does not list the stub, so the model could not see it.
 * - `no-decision`: the stream ended cleanly without a decisive assistant message.
 */
export const ERROR_CAUSES = [
  'auth',
  'rate-limit',
  'overloaded',
  'model',
  'api',
  'network',
  'cli-missing',
  'crash',
  'no-stub',
  'no-decision',
] as const;
export type ErrorCause = (typeof ERROR_CAUSES)[number];

/** The four outcomes of one run. Only `triggered` and `not-triggered` are measurements. */
export type Outcome =
  | { kind: 'triggered' }
  | { kind: 'not-triggered' }
  | { kind: 'timeout' }
  | { kind: 'error'; cause: ErrorCause; status?: number };

export type OutcomeKind = Outcome['kind'];

/** Tokens and cost as the stream carried them up to the decision. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  /** Only present when the CLI reported it (the `result` event); a run stopped at the decision has none. */
  costUsd?: number;
}

export const NO_USAGE: Usage = {
  inputTokens: 0,
  outputTokens: 0,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 0,
};

/** No token at all: what a run whose CLI reports tokens only at its end carries when killed at its decision. */
export function noTokens(usage: Usage): boolean {
  return (
    usage.inputTokens + usage.outputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens === 0
  );
}

export function addUsage(a: Usage, b: Usage): Usage {
  const cost =
    a.costUsd === undefined && b.costUsd === undefined ? undefined : (a.costUsd ?? 0) + (b.costUsd ?? 0);
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadInputTokens: a.cacheReadInputTokens + b.cacheReadInputTokens,
    cacheCreationInputTokens: a.cacheCreationInputTokens + b.cacheCreationInputTokens,
    ...(cost === undefined ? {} : { costUsd: cost }),
  };
}

export function isLost(outcome: Outcome): boolean {
  return outcome.kind === 'timeout' || outcome.kind === 'error';
}

/** A short code for reports and progress lines: `triggered`, `not-triggered`, `timeout`, `error:auth`. */
export function outcomeCode(outcome: Outcome): string {
  switch (outcome.kind) {
    case 'triggered':
    case 'not-triggered':
    case 'timeout':
      return outcome.kind;
    case 'error':
      return `error:${outcome.cause}`;
  }
}
