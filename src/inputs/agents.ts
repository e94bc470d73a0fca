import { AGENT_IDS, type AgentChoice, type AgentId } from '../agents/ids.js';
import { agentFacts } from '../agents/registry.js';
import { UsageError } from '../errors.js';

/**
 * Which agents a measurement runs on, and each one's model: the rule both entries apply, the CLI
 * to `--agent`/`--model` and the Action to its `agents` and `model`/`models` inputs. Only how a
 * message names the setting differs (`Naming`). Pure.
 */

/** How the messages name the settings and show a value set: the CLI's flags or the Action's inputs. */
export interface Naming {
  /** `--agent`, `input agents`. */
  agent: string;
  /** `--model`, `input models`. */
  model: string;
  /** `--agent claude,codex`, `agents: claude,codex`. */
  setAgent(value: string): string;
  setModel(value: string): string;
}

export const isAgent = (name: string): name is AgentId => (AGENT_IDS as readonly string[]).includes(name);

const agentFix = (n: Naming): string =>
  `the agents are ${AGENT_IDS.slice(0, -1).join(', ')} and ${AGENT_IDS.at(-1)}, e.g. ${n.setAgent('claude,codex')}`;

/** The agents named in `value` (comma-separated), in order; an empty, unknown or repeated entry is refused. */
export function parseAgents(value: string, n: Naming): AgentId[] {
  const names = value.split(',').map((a) => a.trim().toLowerCase());
  if (value.trim() === '' || names.some((name) => name === ''))
    throw new UsageError(`${n.agent} has an empty entry in "${value}"; ${agentFix(n)}`);
  const agents: AgentId[] = [];
  for (const name of names) {
    if (!isAgent(name)) throw new UsageError(`${n.agent}: unknown agent "${name}"; ${agentFix(n)}`);
    if (agents.includes(name))
      throw new UsageError(
        `${n.agent} names "${name}" twice in "${value}"; each agent is measured once. Fix: drop the repeat`,
      );
    agents.push(name);
  }
  return agents;
}

/**
 * Several agents: each runs at most one model, named with its agent (`claude:M1,codex:M2`); an
 * unqualified model is refused, since a Claude model means nothing to Codex and the other way
 * round. An agent without a model runs its own default.
 */
export function qualifiedModels(agents: AgentId[], entries: string[] | undefined, n: Naming): AgentChoice[] {
  const models = new Map<AgentId, string>();
  const example = agents.map((a) => `${a}:<model>`).join(',');
  for (const entry of (entries ?? []).map((m) => m.trim())) {
    const colon = entry.indexOf(':');
    const agent = entry.slice(0, colon).trim().toLowerCase();
    const model = entry.slice(colon + 1).trim();
    if (colon < 0 || !isAgent(agent) || model === '')
      throw new UsageError(
        `${n.model} "${entry}": with several agents each model names its agent, e.g. ${n.setModel(example)} (an agent left out runs its own default)`,
      );
    if (!agents.includes(agent))
      throw new UsageError(
        `${n.model} "${entry}" is for ${agent}, which ${n.agent} does not measure; add it to ${n.agent} or drop the model`,
      );
    if (models.has(agent))
      throw new UsageError(
        `${n.model} names two models for ${agent}; with several agents each runs one model. Fix: keep one, or measure the models of one agent in a run of their own`,
      );
    models.set(agent, model);
  }
  return agents.map((agent) => {
    const model = models.get(agent);
    return model === undefined ? { agent } : { agent, model };
  });
}

/**
 * One agent: its models as given, each without an `agent:` prefix naming that agent
 * (`--model codex:gpt-5` with `--agent codex` is `gpt-5`, not a model id `codex:gpt-5`). A prefix
 * naming another agent is refused: that model is not for the agent measured. A colon after
 * anything else stays part of the id (a Bedrock id ends in `:0`).
 */
export function ownModels(agent: AgentId, value: string | undefined, n: Naming): string | undefined {
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((entry) => {
      const colon = entry.indexOf(':');
      const prefix = entry.slice(0, colon).trim().toLowerCase();
      if (colon < 0 || !isAgent(prefix)) return entry;
      if (prefix !== agent)
        throw new UsageError(
          `${n.model} "${entry.trim()}" is for ${prefix}, but the agent measured is ${agent}. Fix: ${n.setAgent(prefix)} to measure ${prefix}, or ${n.setModel(entry.slice(colon + 1).trim() || '<model>')} for a model of ${agent}`,
        );
      return entry.slice(colon + 1);
    })
    .join(',');
}

/**
 * The refusal of a measurement that gives its runs a context (`--context`, `--context-fill`, an
 * entry's own) on an agent whose runs cannot start from one (its registry entry says why), or
 * undefined. `what` names where the context came from.
 */
export function contextRefusal(
  agents: readonly AgentChoice[],
  what: string | undefined,
): UsageError | undefined {
  const without = agents.map((a) => agentFacts(a.agent)).find((a) => a.noContext !== undefined);
  if (what === undefined || without === undefined) return undefined;
  return new UsageError(
    `${what}: ${without.label} cannot be measured with a context yet: ${without.noContext}. Fix: measure the context on another agent, or measure ${without.label} on queries without one`,
  );
}

/**
 * Where a measurement's context comes from, as `contextRefusal` names it: `--context`,
 * `--context-fill`, an entry of the eval set `evalFile` with a context of its own, or nowhere.
 */
export function contextSource(
  given: { context: boolean; fill: boolean },
  items: readonly { context?: { turns?: unknown } }[],
  evalFile: string,
): string | undefined {
  if (given.context) return given.fill ? '--context-fill' : '--context';
  return items.some((item) => item.context?.turns !== undefined)
    ? `${evalFile}: an entry's context`
    : undefined;
}

/**
 * Before anything is spent: throws `contextRefusal`'s error when the context these runs are given
 * (`contextSource` of the flags and the eval set's entries) is one an agent's runs cannot start from.
 */
export function refuseContext(
  agents: readonly AgentChoice[],
  given: { context: boolean; fill: boolean },
  items: readonly { context?: { turns?: unknown } }[],
  evalFile: string,
): void {
  const refused = contextRefusal(agents, contextSource(given, items, evalFile));
  if (refused) throw refused;
}
