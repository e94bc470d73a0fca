import type { ErrorCause, Outcome } from '../outcome.js';

/**
 * Why runs were lost, in words someone can act on (pure). The report's `errorCauses` is keyed by
 * cause, with the HTTP status where the API gave one (`api:500`, `rate-limit:429`); a key without a
 * status (`network`, `crash`, and every key of a version-1 report) means the cause alone, as before.
 */

/** `errorCauses` key of an error outcome: `cause:status`, or `cause` where no status exists. */
export function errorCauseKey(outcome: Extract<Outcome, { kind: 'error' }>): string {
  return outcome.status === undefined ? outcome.cause : `${outcome.cause}:${outcome.status}`;
}

/** Reads an `errorCauses` key back (either form): the cause, and the status when it has one. */
export function parseErrorCauseKey(key: string): { cause: string; status?: number } {
  const match = /^(.*):(\d{3})$/.exec(key);
  return match ? { cause: match[1] ?? key, status: Number(match[2]) } : { cause: key };
}

/** What a lost run's cause means, and what to do about it. */
function meaning(cause: string, status: number | undefined): string {
  switch (cause as ErrorCause) {
    case 'auth':
      return 'the API refused the credentials; check the API key (anthropic-api-key, ANTHROPIC_API_KEY)';
    case 'rate-limit':
      return 'the API rate-limited this key; re-run later, or with fewer runs';
    case 'overloaded':
      return "the API was overloaded (Anthropic's side); re-run the job later";
    case 'model':
      return 'the API does not know the model; check the model setting';
    case 'api':
      if (status !== undefined && status >= 500) return "Anthropic's side failed; re-run the job";
      return status === undefined
        ? 'the API answered with an error'
        : 'the API rejected the request; check the model and the key';
    case 'network':
      return 'no HTTP answer came back; check the network and ANTHROPIC_BASE_URL';
    case 'cli-missing':
      return 'the claude executable could not be started';
    case 'crash':
      return 'the Claude CLI exited without an answer';
    case 'no-stub':
      return "the stub was missing from the model's roster";
    case 'no-decision':
      return 'the stream ended without a decisive message';
    default:
      return 'an error this version does not know';
  }
}

/**
 * One sentence per cause of the lost runs, most frequent first: "the API answered 500 on 3 of 3
 * runs: Anthropic's side failed; re-run the job". `executed` is the runs that ran.
 */
export function lostRunsReasons(input: {
  errorCauses: Readonly<Record<string, number>>;
  timeouts: number;
  executed: number;
  timeoutSeconds?: number;
}): string[] {
  const of = (n: number) => `${n} of ${input.executed} run${input.executed === 1 ? '' : 's'}`;
  const entries = Object.entries(input.errorCauses)
    .filter(([, n]) => n > 0)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
  const reasons = entries.map(([key, n]) => {
    const { cause, status } = parseErrorCauseKey(key);
    const what = meaning(cause, status);
    if (status !== undefined) return `the API answered ${status} on ${of(n)}: ${what}`;
    return `${of(n)} ended in an error (${cause}): ${what}`;
  });
  if (input.timeouts > 0) {
    const limit = input.timeoutSeconds === undefined ? '' : ` after ${input.timeoutSeconds} s`;
    reasons.push(
      `${of(input.timeouts)} timed out${limit}: no decision came in time; re-run, or raise the timeout`,
    );
  }
  return reasons;
}
