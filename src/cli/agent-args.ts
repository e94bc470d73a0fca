import type { AgentChoice, AgentId } from '../agents/ids.js';
import { DEFAULT_AGENT } from '../agents/registry.js';
import { UsageError } from '../errors.js';
import { type Naming, ownModels, parseAgents, qualifiedModels } from '../inputs/agents.js';
import { modelsOption } from './cost-args.js';

/** The rule's messages name the CLI's flags. */
const FLAGS: Naming = {
  agent: '--agent',
  model: '--model',
  setAgent: (value) => `--agent ${value}`,
  setModel: (value) => `--model ${value}`,
};

/**
 * `--agent claude|codex[,…]` with `--model`. One agent: `--model` is that agent's, as it always
 * was (`a,b` measures each model). Several agents: each agent runs at most one model, named with
 * its agent (`--model claude:claude-sonnet-4-5,codex:gpt-5`; src/inputs/agents.ts). `agents` is
 * absent for claude alone, the default.
 */
export function agentsOption(
  agentValue: string | undefined,
  modelValue: string | undefined,
): { agents?: AgentChoice[]; model?: string; models?: string[] } {
  if (agentValue === undefined) return modelsOption(ownModels(DEFAULT_AGENT, modelValue, FLAGS));
  const agents = parseAgents(agentValue, FLAGS);
  const [only] = agents;
  if (agents.length === 1 && only !== undefined) {
    const models = modelsOption(ownModels(only, modelValue, FLAGS));
    return only === DEFAULT_AGENT ? models : { agents: [{ agent: only }], ...models };
  }
  return { agents: qualifiedModels(agents, modelValue?.split(','), FLAGS) };
}

/**
 * `--agent` of a command that runs on one agent per call (matrix, init, improve): the agent named,
 * each checked as for `run`; several are refused with `tooMany`'s message, which gives the fix.
 */
export function oneAgent(value: string, tooMany: (agents: readonly AgentId[]) => string): AgentId {
  const agents = parseAgents(value, FLAGS);
  const [only, second] = agents;
  if (only === undefined || second !== undefined) throw new UsageError(tooMany(agents));
  return only;
}
