import { AGENT_IDS, type AgentId } from '../agents/ids.js';
import { agentFacts, DEFAULT_AGENT } from '../agents/registry.js';
import type { Usage } from '../outcome.js';
import { DEFAULT_MODEL_KEY } from './estimate.js';

/**
 * Which model each slot of a plan is priced as, and from which round trip (docs/cost.md "The
 * estimate, `--dry-run` and `--max-cost-usd`"): claude's models from claude's round trips, Codex's from Codex's own. Both entries
 * estimate with it, the CLI's `run --max-cost-usd` and the Action's `max-cost-usd`, so they agree.
 */

/**
 * A model's key in the plan: the default agent's models as asked; every other agent's apart,
 * `<agent>:<model>` (`codex:default` without one), since its runs are estimated from its own round trip.
 */
function planKey(agent: AgentId, model: string | undefined): string | undefined {
  return agent === DEFAULT_AGENT ? model : `${agent}:${model ?? DEFAULT_MODEL_KEY}`;
}

/**
 * The plan's models, one per target: the default agent's as asked (`undefined` for its default),
 * every other agent's keyed apart. With several agents each runs its one model; with one agent,
 * every model asked.
 */
export function planModels(
  agents: readonly { agent: AgentId; model?: string }[],
  asked: readonly (string | undefined)[],
): (string | undefined)[] {
  if (agents.length > 1) return agents.map((a) => planKey(a.agent, a.model));
  const only = agents[0]?.agent ?? DEFAULT_AGENT;
  return asked.map((model) => planKey(only, model));
}

/** What the gates measured, as `estimatePlan` reads it: usage and reported model, keyed by model asked. */
export interface PlanRoundTrips {
  usage?: Record<string, Usage>;
  models?: Record<string, string>;
}

/** Another agent's round-trip gate: its tokens, and the model its version sends without `-m` (when known). */
export interface AgentRoundTrip {
  usage?: Usage;
  defaultModel?: string;
}

/**
 * Each model's round trip: the default agent's as its gates measured them; every other agent's
 * models from that agent's one round trip (its tokens; the price is the model's), priced as the
 * model it runs: `-m`, else the default its version sends (unknown for another version, which
 * then has no price).
 */
export function planRoundTrips(
  models: readonly (string | undefined)[],
  first: PlanRoundTrips,
  others: Partial<Record<AgentId, AgentRoundTrip>>,
): PlanRoundTrips {
  const usage = { ...first.usage };
  const priced = { ...first.models };
  for (const key of models) {
    const colon = key?.indexOf(':') ?? -1;
    const agent = key?.slice(0, colon);
    if (key === undefined || colon < 0 || !isAgent(agent ?? '') || agent === DEFAULT_AGENT) continue;
    const trip = others[agent as AgentId];
    const asked = key.slice(colon + 1);
    const model = asked === DEFAULT_MODEL_KEY ? trip?.defaultModel : asked;
    if (trip?.usage) usage[key] = trip.usage;
    if (model) priced[key] = model;
  }
  return { usage, models: priced };
}

/**
 * Each other agent's round trip, as the plan prices it: its gates' tokens, and the model its
 * version sends without `-m` (the registry's `defaultModel`).
 */
export function otherRoundTrips(
  agentGates: Partial<Record<AgentId, { version?: string; roundTripUsage?: Usage }>> | undefined,
): Partial<Record<AgentId, AgentRoundTrip>> {
  const trips: Partial<Record<AgentId, AgentRoundTrip>> = {};
  for (const [id, gates] of Object.entries(agentGates ?? {}) as [
    AgentId,
    { version?: string; roundTripUsage?: Usage },
  ][]) {
    const defaultModel = agentFacts(id).defaultModel(gates.version);
    trips[id] = {
      ...(gates.roundTripUsage ? { usage: gates.roundTripUsage } : {}),
      ...(defaultModel === undefined ? {} : { defaultModel }),
    };
  }
  return trips;
}

const isAgent = (name: string): name is AgentId => (AGENT_IDS as readonly string[]).includes(name);
