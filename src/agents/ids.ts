/**
 * The agents' ids and the choice of agents a measurement runs (part of the agent spec,
 * docs/architecture.md "The agents"): a new agent starts here, with its id in `AGENT_IDS`. It
 * imports nothing.
 */

/** The agent CLIs a measurement can run (`--agent`): Claude Code, OpenAI's Codex CLI and Google's Gemini CLI. */
export const AGENT_IDS = ['claude', 'codex', 'gemini'] as const;
export type AgentId = (typeof AGENT_IDS)[number];

/** One agent measured, with the model asked of it (absent: the agent's own default). */
export interface AgentChoice {
  agent: AgentId;
  model?: string;
}

/** What a measurement runs on when no agent is named. */
export const DEFAULT_AGENTS: readonly AgentChoice[] = [{ agent: 'claude' }];

/** True when `id` is among the agents measured. */
export function measures(agents: readonly AgentChoice[], id: AgentId): boolean {
  return agents.some((a) => a.agent === id);
}
