/**
 * What Claude Code is, as the core asks it through the registry (src/agents/registry.ts): plain
 * facts, read by every floor, so none of them may start a process or read a file.
 */
import { isRecord } from '../../guards.js';
import type { AgentFacts } from '../facts.js';
import { blockTexts, type ContextTurn, type TranscriptFormat } from '../transcript.js';

/**
 * A Claude Code session's main chain as messages: the `user` and `assistant` lines (not a
 * sub-agent's, not the CLI's meta lines), their text blocks only. Tool calls, tool results and
 * thinking are left out, so a user line that only answers a tool call adds nothing.
 */
const session: TranscriptFormat = {
  format: 'claude-session',
  label: 'Claude Code session',
  where: '~/.claude/projects/…/<id>.jsonl',
  recognises: (lines) =>
    lines.some(({ value }) => (value.type === 'user' || value.type === 'assistant') && 'message' in value),
  turns(lines) {
    const turns: ContextTurn[] = [];
    for (const { value } of lines) {
      if (value.type !== 'user' && value.type !== 'assistant') continue;
      if (value.isSidechain === true || value.isMeta === true || !isRecord(value.message)) continue;
      const text = blockTexts(value.message.content, ['text']).join('\n\n').trim();
      if (text !== '') turns.push({ role: value.type, content: text });
    }
    return turns;
  },
};

/** A plugin id or scope as one shell word: quoted only when it holds something a shell would read. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9@%+=:,./_-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The exact commands the user runs; skilltrigger never runs them itself. */
export function toggleCommands(toggle: { id: string; scope: string }): { disable: string; enable: string } {
  const args = `${shellWord(toggle.id)} --scope ${shellWord(toggle.scope)}`;
  return { disable: `claude plugin disable ${args}`, enable: `claude plugin enable ${args}` };
}

/** The fix for a CLI that is not logged in, or whose key was refused. */
export const LOGIN_FIX =
  'log in with `claude auth login` (in CI: `claude setup-token`, or set ANTHROPIC_API_KEY from a secret)';

export const claudeFacts: AgentFacts = {
  toggleCommands,
  loginFix: LOGIN_FIX,
  loaderName: 'Claude',
  id: 'claude',
  label: 'Claude Code',
  cliLabel: 'Claude CLI',
  npmPackage: '@anthropic-ai/claude-code',
  bin: 'claude',
  // The version this release was tested with (package.json devDependencies; a test keeps them equal).
  pinnedVersion: '2.1.328',
  binOption: 'claude',
  binVariable: 'SKILLTRIGGER_CLAUDE',
  inputs: { version: 'claude-code-version', path: 'claude-path', apiKey: 'anthropic-api-key' },
  keyVariable: 'ANTHROPIC_API_KEY',
  secretVariables: [
    'ANTHROPIC_API_KEY',
    'ANTHROPIC_AUTH_TOKEN',
    'CLAUDE_CODE_OAUTH_TOKEN',
    'AWS_BEARER_TOKEN_BEDROCK',
  ],
  agentHelp: 'claude (Claude Code, the default)',
  endpointHelp: '',
  warmStandby: true,
  transcript: session,
  routesMatrix: true,
  placesRoster: true,
  memoryFile: 'CLAUDE.md',
  memoryFallback: 'AGENTS.md',
  // Claude Code names the model it ran in its init event, so a run is priced as that model.
  defaultModel: () => undefined,
};
