import { UsageError } from '../errors.js';
import type { AgentTarget } from '../measure/loop-spec.js';
import { AGENT_IDS, type AgentId } from '../outcome.js';
import { modelsOption } from './cost-args.js';

const isAgent = (name: string): name is AgentId => (AGENT_IDS as readonly string[]).includes(name);

const AGENT_FIX = `the agents are ${AGENT_IDS.join(' and ')}, e.g. --agent claude,codex`;

/**
 * `--agent claude|codex[,…]` with `--model`. One agent: `--model` is that agent's, as it always
 * was (`a,b` measures each model). Several agents: each agent runs at most one model, named with
 * its agent (`--model claude:claude-sonnet-4-5,codex:gpt-5`); an unqualified model is refused,
 * since a Claude model means nothing to Codex and the other way round. An agent without a model
 * runs its own default. `agents` is absent for claude alone, the default.
 */
export function agentsOption(
  agentValue: string | undefined,
  modelValue: string | undefined,
): { agents?: AgentTarget[]; model?: string; models?: string[] } {
  if (agentValue === undefined) return modelsOption(modelValue);
  const names = agentValue.split(',').map((a) => a.trim().toLowerCase());
  if (agentValue.trim() === '' || names.some((n) => n === ''))
    throw new UsageError(`--agent has an empty entry in "${agentValue}"; ${AGENT_FIX}`);
  const agents: AgentId[] = [];
  for (const name of names) {
    if (!isAgent(name)) throw new UsageError(`--agent: unknown agent "${name}"; ${AGENT_FIX}`);
    if (agents.includes(name))
      throw new UsageError(
        `--agent names "${name}" twice in "${agentValue}"; each agent is measured once. Fix: drop the repeat`,
      );
    agents.push(name);
  }
  const [only] = agents;
  if (agents.length === 1 && only !== undefined) {
    const models = modelsOption(modelValue);
    return only === 'claude' ? models : { agents: [{ agent: only }], ...models };
  }
  return { agents: qualifiedModels(agents, modelValue) };
}

/** `--model claude:M1,codex:M2` with several agents: each agent's one model. */
function qualifiedModels(agents: AgentId[], modelValue: string | undefined): AgentTarget[] {
  const models = new Map<AgentId, string>();
  const example = agents.map((a) => `${a}:<model>`).join(',');
  if (modelValue !== undefined) {
    for (const entry of modelValue.split(',').map((m) => m.trim())) {
      const colon = entry.indexOf(':');
      const agent = entry.slice(0, colon).trim().toLowerCase();
      const model = entry.slice(colon + 1).trim();
      if (colon < 0 || !isAgent(agent) || model === '')
        throw new UsageError(
          `--model "${entry}": with several agents each model names its agent, e.g. --model ${example} (an agent left out runs its own default)`,
        );
      if (!agents.includes(agent))
        throw new UsageError(
          `--model "${entry}" is for ${agent}, which --agent does not measure; add it to --agent or drop the model`,
        );
      if (models.has(agent))
        throw new UsageError(
          `--model names two models for ${agent}; with several agents each runs one model. Fix: keep one, or measure the models of one agent in a run of their own`,
        );
      models.set(agent, model);
    }
  }
  return agents.map((agent) => {
    const model = models.get(agent);
    return model === undefined ? { agent } : { agent, model };
  });
}
