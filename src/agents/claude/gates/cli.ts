import type { CommandResult } from '../../../program-output.js';
import { agentQuote } from '../../../schemas/privacy.js';
import { type GateResult, gateResult } from '../../gates.js';

const INSTALL_FIX =
  'install the Claude CLI (npm install -g @anthropic-ai/claude-code) or point skilltrigger at it with --claude <path> (or SKILLTRIGGER_CLAUDE)';

/** `2.1.328 (Claude Code)` → `2.1.328`; undefined when no version is in the output. */
export function parseCliVersion(stdout: string): string | undefined {
  return /\b(\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?)\b/.exec(stdout)?.[1];
}

/** The cli gate's rule: `claude --version` answered with a version. */
export function judgeCli(bin: string, result: CommandResult): { result: GateResult; version?: string } {
  if (result.spawnFailed) {
    return {
      result: gateResult(
        'cli',
        'fail',
        `the Claude CLI could not be started as "${bin}"${result.spawnError ? ` (${result.spawnError})` : ''}`,
        INSTALL_FIX,
      ),
    };
  }
  if (result.timedOut) {
    return { result: gateResult('cli', 'fail', `"${bin} --version" did not answer in time`, INSTALL_FIX) };
  }
  const version = parseCliVersion(result.stdout);
  if (result.exitCode !== 0 || version === undefined) {
    const said = agentQuote(result.stdout) || agentQuote(result.stderr) || 'nothing';
    const ended = result.signal
      ? `was killed by ${result.signal}`
      : `exited with code ${result.exitCode ?? '?'}`;
    return {
      result: gateResult(
        'cli',
        'fail',
        `"${bin} --version" ${ended} and printed no version (it said: ${said})`,
        INSTALL_FIX,
      ),
    };
  }
  return { result: gateResult('cli', 'ok', `claude ${version}`), version };
}

/**
 * Without git on the PATH claude runs with, the git status block of the model's request says
 * `Status: (unavailable)` where a repository session says `(clean)` (seen on 2.1.328; the rest of
 * the request is the same, docs/claude-cli.md). The measurement still works, but it measures a
 * request no real session in a repository sends: a working cli gate warns.
 */
export function withGitFinding(result: GateResult, gitOnPath: boolean): GateResult {
  if (gitOnPath || result.status !== 'ok') return result;
  return gateResult(
    'cli',
    'warn',
    `${result.reason}; git is not on the PATH claude runs with, so the model's git status block says "(unavailable)" instead of "(clean)", unlike a session in a repository`,
    'install git (apt-get install git, brew install git, …) or put it on PATH, then measure again',
  );
}
