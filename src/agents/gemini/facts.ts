/**
 * What Gemini CLI is, as the core asks it through the registry (src/agents/registry.ts): plain
 * facts, read by every floor, so none of them may start a process or read a file.
 */
import type { AgentFacts } from '../facts.js';

/**
 * The model a Gemini run is sent with when `--model` names none (docs/gemini.md "The model"):
 * without `-m`, Gemini CLI's `auto` model first sends a routing request to another model on every
 * run, which is not the request being measured, so skilltrigger always names one.
 */
export const GEMINI_DEFAULT_MODEL = 'gemini-2.5-pro';

export const geminiFacts: AgentFacts = {
  id: 'gemini',
  label: 'Gemini CLI',
  cliLabel: 'Gemini CLI',
  npmPackage: '@google/gemini-cli',
  bin: 'gemini',
  pinnedVersion: '0.61.0',
  binOption: 'gemini',
  binVariable: 'SKILLTRIGGER_GEMINI',
  inputs: { version: 'gemini-version', path: 'gemini-path', apiKey: 'gemini-api-key' },
  keyVariable: 'GEMINI_API_KEY',
  // The keys a Gemini run sends (src/agents/gemini/provider.ts).
  secretVariables: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  agentHelp: "gemini (Google's Gemini CLI; docs/gemini.md)",
  endpointHelp:
    "Its Gemini API: $GOOGLE_GEMINI_BASE_URL (default Google's) with $GEMINI_API_KEY, else $GOOGLE_API_KEY",
  warmStandby: false,
  routesMatrix: true,
  placesRoster: false,
  memoryFile: 'GEMINI.md',
  noContext: 'its runs do not place a conversation before the query yet (docs/gemini.md "Wiring")',
  defaultModel: () => GEMINI_DEFAULT_MODEL,
};
