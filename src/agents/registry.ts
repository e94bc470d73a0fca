/**
 * The registry: one descriptor per agent id, what the core asks about an agent without naming it
 * (docs/architecture.md, "A new agent"). This file holds the facts, which every floor may read;
 * what an agent runs (its gates, its runs, its processes) is reached through agents/runtime.ts.
 */
import { claudeFacts } from './claude/facts.js';
import { codexFacts } from './codex/facts.js';
import type { AgentFacts } from './facts.js';
import { geminiFacts } from './gemini/facts.js';
import { type AgentId, DEFAULT_AGENTS } from './ids.js';

export const AGENTS: Readonly<Record<AgentId, AgentFacts>> = {
  claude: claudeFacts,
  codex: codexFacts,
  gemini: geminiFacts,
};

/** What the registry says of `id`. */
export const agentFacts = (id: AgentId): AgentFacts => AGENTS[id];

/** The agent a measurement runs on when none is named (`--agent`, the Action's `agents`). */
export const DEFAULT_AGENT: AgentId = DEFAULT_AGENTS[0]?.agent ?? claudeFacts.id;

/** Every agent's secret variables, in registry order: what the masking hides wherever text is printed. */
export const SECRET_VARIABLES: readonly string[] = Object.values(AGENTS).flatMap((a) => a.secretVariables);

/**
 * Every other agent's secret variables: what a run of `id` whose home is a throwaway one never
 * carries, so a tool its model calls cannot print another vendor's key.
 */
export function foreignSecretVariables(id: AgentId): readonly string[] {
  const own = new Set(AGENTS[id].secretVariables);
  return SECRET_VARIABLES.filter((name) => !own.has(name));
}

/** The agent every report measured before reports named their agents (schema version 6). */
export const FIRST_AGENT: AgentId = claudeFacts.id;
