/**
 * An author call (`init`'s draft, `improve`'s rewrite): one prompt through an agent's own CLI, with
 * the same login, model and environment as a measured run, in a fresh temp project, bounded by a
 * timeout, one turn only: why it gave no answer, whichever agent was asked.
 */
import { agentQuote } from '../schemas/privacy.js';
import type { AskResult } from './agent.js';
import type { AgentFacts } from './facts.js';

/** One line saying why an author call gave no answer. */
export function describeAskFailure(
  result: Exclude<AskResult, { kind: 'answer' }>,
  agent: Pick<AgentFacts, 'cliLabel' | 'bin'>,
): string {
  switch (result.kind) {
    case 'api-error':
      return `the API call failed (${result.cause})${result.said ? `: ${result.said}` : ''}`;
    case 'timeout':
      return `no answer within ${result.seconds} s`;
    case 'spawn-failed':
      return `the ${agent.cliLabel} could not be started (${result.reason})`;
    case 'interrupted':
      return 'interrupted';
    case 'no-answer':
      return `${agent.bin} ended without an answer${result.said ? ` (it said: ${result.said})` : ''}`;
  }
}

/**
 * What an author call's failure may quote of the agent's output: its first line through
 * `agentQuote`, with the keys the call was given hidden first (a gateway may echo the key it got).
 */
export function askQuote(text: string, keys: readonly (string | undefined)[]): string {
  let masked = text;
  for (const key of keys) if (key && key.length >= 8) masked = masked.split(key).join('***');
  return agentQuote(masked);
}
