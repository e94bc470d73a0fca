/**
 * What Claude Code is, as the core asks it through the registry (src/agents/registry.ts): plain
 * facts, read by every floor, so none of them may start a process or read a file.
 */
import type { AgentFacts } from '../agent.js';

export const claudeFacts: AgentFacts = {
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
  routesMatrix: true,
  // Claude Code names the model it ran in its init event, so a run is priced as that model.
  defaultModel: () => undefined,
};
