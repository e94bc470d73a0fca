import type { AgentId } from '../agents/agent.js';
import type { Usage } from '../outcome.js';
import { DEFAULT_MODEL_KEY } from './estimate.js';

/**
 * Which model each slot of a plan is priced as, and from which round trip (docs/cost.md "The
 * estimate, `--dry-run` and `--max-cost-usd`"): claude's models from claude's round trips, Codex's from Codex's own. Both entries
 * estimate with it, the CLI's `run --max-cost-usd` and the Action's `max-cost-usd`, so they agree.
 */

/** A Codex model's key in the plan (`codex:<model>`, `codex:default`): apart from claude's models. */
export const CODEX_KEY = 'codex:';

/**
 * The plan's models, one per target: claude's as asked (`undefined` for its default), Codex's keyed
 * apart, since a Codex run is estimated from Codex's own round trip. With several agents each runs
 * its one model; with one agent, every model asked.
 */
export function planModels(
  agents: readonly { agent: AgentId; model?: string }[],
  asked: readonly (string | undefined)[],
): (string | undefined)[] {
  const codexKey = (model: string | undefined) => `${CODEX_KEY}${model ?? DEFAULT_MODEL_KEY}`;
  if (agents.length > 1) return agents.map((a) => (a.agent === 'codex' ? codexKey(a.model) : a.model));
  return agents[0]?.agent === 'codex' ? asked.map(codexKey) : [...asked];
}

/** What the gates measured, as `estimatePlan` reads it: usage and reported model, keyed by model asked. */
export interface PlanRoundTrips {
  usage?: Record<string, Usage>;
  models?: Record<string, string>;
}

/** Codex's round-trip gate: its tokens, and the model its version sends without `-m` (when known). */
export interface CodexRoundTrip {
  usage?: Usage;
  defaultModel?: string;
}

/**
 * Each model's round trip: claude's as its gates measured them; every Codex model from Codex's one
 * round trip (its tokens; the price is the model's), priced as the model it runs: `-m`, else the
 * default the Codex version sends (unknown for another version, which then has no price).
 */
export function planRoundTrips(
  models: readonly (string | undefined)[],
  claude: PlanRoundTrips,
  codex: CodexRoundTrip | undefined,
): PlanRoundTrips {
  const usage = { ...claude.usage };
  const priced = { ...claude.models };
  for (const key of models) {
    if (!key?.startsWith(CODEX_KEY)) continue;
    const asked = key.slice(CODEX_KEY.length);
    const model = asked === DEFAULT_MODEL_KEY ? codex?.defaultModel : asked;
    if (codex?.usage) usage[key] = codex.usage;
    if (model) priced[key] = model;
  }
  return { usage, models: priced };
}
