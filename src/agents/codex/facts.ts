/**
 * What Codex is, as the core asks it through the registry (src/agents/registry.ts): plain facts,
 * read by every floor, so none of them may start a process or read a file.
 */
import { isRecord } from '../../guards.js';
import type { AgentFacts } from '../facts.js';
import { blockTexts, type ContextTurn, type TranscriptFormat } from '../transcript.js';

/**
 * The model a Codex version sends without `-m` (docs/codex.md "The model"): the request's `model`
 * as the loopback server received it. Codex prints no model in its `--json` events, so a version
 * not listed here runs a model skilltrigger cannot name (its runs are "price unknown").
 */
const DEFAULT_MODELS: Readonly<Record<string, string>> = { '0.169.0': 'gpt-6.1-sol' };

/** What Codex writes into the history itself as a user message: not the user's words. */
const CODEX_INJECTED =
  /^(<(environment_context|user_instructions|turn_aborted|user_shell_command)>|# AGENTS\.md instructions)/;

/** A Codex rollout's conversation: its user and assistant message items, text only. */
const rollout: TranscriptFormat = {
  format: 'codex-rollout',
  label: 'Codex rollout',
  where: '~/.codex/sessions/…/rollout-….jsonl',
  recognises: (lines) =>
    lines.some(({ value }) => value.type === 'session_meta' || value.type === 'response_item'),
  turns(lines) {
    const turns: ContextTurn[] = [];
    for (const { value } of lines) {
      const item = value.payload;
      if (value.type !== 'response_item' || !isRecord(item) || item.type !== 'message') continue;
      if (item.role !== 'user' && item.role !== 'assistant') continue;
      const texts = blockTexts(item.content, ['input_text', 'output_text']).filter(
        (t) => !CODEX_INJECTED.test(t.trimStart()),
      );
      const text = texts.join('\n\n').trim();
      if (text !== '') turns.push({ role: item.role, content: text });
    }
    return turns;
  },
};

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
  // `codex exec … -- -` waits for its prompt on stdin, its start-up done (docs/codex.md, "A warm standby").
  warmStandby: true,
  transcript: rollout,
  routesMatrix: true,
  placesRoster: true,
  memoryFile: 'AGENTS.md',
  defaultModel: (version) => (version === undefined ? undefined : DEFAULT_MODELS[version]),
};
