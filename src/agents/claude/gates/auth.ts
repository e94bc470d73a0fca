import { isRecord } from '../../../guards.js';
import type { CommandResult } from '../../../program-output.js';
import { agentQuote } from '../../../schemas/privacy.js';
import { type GateResult, gateResult } from '../../gates.js';
import { LOGIN_FIX } from '../facts.js';

/** The fields of `claude auth status` (JSON by default; docs/claude-cli.md §7) the gate reads. */
export interface AuthStatus {
  loggedIn: boolean;
  authMethod?: string;
  apiProvider?: string;
  apiKeySource?: string;
}

/** Parse `claude auth status` output; undefined when it is not the JSON object we know. */
export function parseAuthStatus(stdout: string): AuthStatus | undefined {
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || typeof value.loggedIn !== 'boolean') return undefined;
  const text = (key: string): { [k: string]: string } =>
    typeof value[key] === 'string' ? { [key]: value[key] } : {};
  return {
    loggedIn: value.loggedIn,
    ...text('authMethod'),
    ...text('apiProvider'),
    ...text('apiKeySource'),
  };
}

export { LOGIN_FIX };

/**
 * The auth gate's rule. Not logged in → fail. A cloud provider (Bedrock, Vertex) authenticates
 * outside the CLI's login, and an older CLI may print something else entirely: both only warn,
 * since the round-trip gate proves or disproves the login with a real request anyway.
 */
export function judgeAuth(result: CommandResult): GateResult {
  if (result.timedOut) {
    return gateResult(
      'auth',
      'warn',
      '`claude auth status` did not answer in time',
      'the round-trip gate checks the login instead',
    );
  }
  const status = parseAuthStatus(result.stdout);
  if (status === undefined) {
    const said = agentQuote(result.stdout) || agentQuote(result.stderr) || 'nothing';
    return gateResult(
      'auth',
      'warn',
      `could not read \`claude auth status\` (exit ${result.exitCode ?? '?'}; it said: ${said})`,
      'the round-trip gate checks the login instead; update the Claude CLI if this persists',
    );
  }
  const how = [status.authMethod, status.apiKeySource ? `from ${status.apiKeySource}` : undefined]
    .filter(Boolean)
    .join(' ');
  if (status.loggedIn) return gateResult('auth', 'ok', `logged in${how ? ` (${how})` : ''}`);
  if (status.apiProvider !== undefined && status.apiProvider !== 'firstParty') {
    return gateResult(
      'auth',
      'warn',
      `not logged in to Anthropic, but the API provider is ${status.apiProvider}`,
      'the round-trip gate checks that provider with a real request',
    );
  }
  return gateResult('auth', 'fail', '`claude auth status` says not logged in', LOGIN_FIX);
}
