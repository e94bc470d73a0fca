import type { AgentChoice, AgentId } from '../agents/ids.js';
import type { FileListing, ListedSiblings } from '../agents/listing.js';
import { agentFacts, DEFAULT_AGENT } from '../agents/registry.js';
import { loopRuntimeOf } from '../agents/runtime.js';
import type { OtherAgent } from '../measure/measure-settings.js';
import type { PreflightResult } from '../preflight/preflight.js';
import type { CliIo } from './output.js';

/**
 * Each agent measured but the default one, by id: the measurement's own settings are the default
 * agent's, and each other agent is handed its own (`OtherAgent`).
 */
export function otherAgentIds(agents: readonly AgentChoice[]): AgentId[] {
  return agents.map((a) => a.agent).filter((id) => id !== DEFAULT_AGENT);
}

/**
 * The siblings as each agent that lists them off their SKILL.md lists them (`run` reads them once:
 * the siblings line and the runs both say them); an agent with a listed-text probe lists its own
 * through the probe.
 */
export function listedSiblingsOf(
  agents: readonly AgentChoice[],
  siblings: Parameters<FileListing['siblings']>[0],
): Partial<Record<AgentId, ListedSiblings>> {
  const listed: Partial<Record<AgentId, ListedSiblings>> = {};
  for (const { agent } of agents) {
    const listing = loopRuntimeOf(agent).fileListing;
    if (listing) listed[agent] = listing.siblings(siblings);
  }
  return listed;
}

/**
 * What each other agent is expected to be opened with, before its gates: its executable, no
 * siblings (an early start is made only without them) and no version yet (it fixes no start). The
 * first run's early start is made from it (`startEarly`, src/measure/measurement-loop.ts).
 */
export function earlyOtherAgents(
  agents: readonly AgentChoice[],
  bins: Partial<Record<AgentId, string>>,
): Partial<Record<AgentId, OtherAgent>> {
  return Object.fromEntries(
    otherAgentIds(agents).map((id) => [id, { bin: bins[id] ?? agentFacts(id).bin, siblings: [] }]),
  );
}

/**
 * What the measurement hands each other agent once its gates have passed: its executable, its
 * version for the report (from its gates, else read now: docs/codex.md "What a run writes"), and
 * the siblings it lists; one it leaves out is said and dropped, since it does not compete there.
 */
export async function otherAgentSettings(
  bins: Partial<Record<AgentId, string>>,
  io: CliIo,
  preflight: Pick<PreflightResult, 'agentGates'>,
  listed: Partial<Record<AgentId, ListedSiblings>>,
): Promise<Partial<Record<AgentId, OtherAgent>>> {
  const others: Partial<Record<AgentId, OtherAgent>> = {};
  for (const [id, siblings] of Object.entries(listed) as [AgentId, ListedSiblings][]) {
    for (const { name, reason } of siblings.leftOut)
      io.stderr.write(
        `siblings: ${name} is not listed by ${agentFacts(id).label} (${reason}), so it does not compete there; left out\n`,
      );
    const bin = bins[id] ?? agentFacts(id).bin;
    const version = preflight.agentGates?.[id]?.version ?? (await loopRuntimeOf(id).version(bin, io.env));
    others[id] = { bin, ...(version ? { version } : {}), siblings: siblings.installed };
  }
  return others;
}
