import type { ClaudeCommandResult } from '../adapters/claude-command.js';
import { firstLine } from '../program-output.js';
import { type GateResult, gateResult } from './gate.js';

const INSTALL_FIX =
  'install the Claude CLI (npm install -g @anthropic-ai/claude-code) or point skilltrigger at it with --claude <path> (or SKILLTRIGGER_CLAUDE)';

/** `2.1.328 (Claude Code)` → `2.1.328`; undefined when no version is in the output. */
export function parseCliVersion(stdout: string): string | undefined {
  return /\b(\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?)\b/.exec(stdout)?.[1];
}

/** The cli gate's rule: `claude --version` answered with a version. */
export function judgeCli(bin: string, result: ClaudeCommandResult): { result: GateResult; version?: string } {
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
    const said = firstLine(result.stdout) || firstLine(result.stderr) || 'nothing';
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
