/**
 * What Codex is, as the core asks it through the registry (src/agents/registry.ts): plain facts,
 * read by every floor, so none of them may start a process or read a file.
 */
import type { AgentFacts } from '../agent.js';

/**
 * The model a Codex version sends without `-m` (docs/codex.md "The model"): the request's `model`
 * as the loopback server received it. Codex prints no model in its `--json` events, so a version
 * not listed here runs a model skilltrigger cannot name (its runs are "price unknown").
 */
const DEFAULT_MODELS: Readonly<Record<string, string>> = { '0.169.0': 'gpt-6.1-sol' };

export const codexFacts: AgentFacts = {
  id: 'codex',
  label: 'Codex',
  cliLabel: 'Codex CLI',
  npmPackage: '@openai/codex',
  bin: 'codex',
  pinnedVersion: '0.169.0',
  binOption: 'codex',
  binVariable: 'SKILLTRIGGER_CODEX',
  inputs: { version: 'codex-version', path: 'codex-path', apiKey: 'openai-api-key' },
  keyVariable: 'CODEX_API_KEY',
  // The keys a Codex run sends (src/agents/codex/provider.ts).
  secretVariables: ['CODEX_API_KEY', 'OPENAI_API_KEY'],
  agentHelp: "codex (OpenAI's Codex CLI; docs/codex.md)",
  endpointHelp:
    'Its Responses API: $OPENAI_BASE_URL (default https://api.openai.com/v1) with $CODEX_API_KEY, else $OPENAI_API_KEY',
  warmStandby: false,
  routesMatrix: true,
  defaultModel: (version) => (version === undefined ? undefined : DEFAULT_MODELS[version]),
};
