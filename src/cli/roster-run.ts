/**
 * `run --roster <file|dir>` (docs/roster.md, "`run --roster`"): the roster read and checked before
 * anything is spawned, refused for an agent that cannot place it, and on Claude Code the throwaway
 * HOME its gates, probes and runs are listed in.
 */
import path from 'node:path';
import type { AgentChoice } from '../agents/agent.js';
import { agentFacts, DEFAULT_AGENT } from '../agents/registry.js';
import { defaultAgentRoster, ROSTER_AGENTS } from '../agents/runtime.js';
import { InputError } from '../errors.js';
import { loadRoster } from '../inputs/roster.js';
import type { MeasureRoster } from '../measure/measure-settings.js';
import type { CliIo } from './output.js';

export interface RosterRun {
  /** The command's io, with the environment the measurement runs in. */
  io: CliIo;
  roster: MeasureRoster;
  /** Removes what was laid out for the gates and probes (each run's own HOME goes with the run). */
  release(): Promise<void>;
}

/** Reads `--roster` and prepares each measured agent's crowd; undefined without `--roster`. */
export async function prepareRosterRun(
  given: { roster?: string },
  agents: readonly AgentChoice[],
  skillDir: string,
  io: CliIo,
): Promise<RosterRun | undefined> {
  if (given.roster === undefined) return undefined;
  const refused = agents.find((a) => !ROSTER_AGENTS.includes(a.agent));
  if (refused)
    throw new InputError(
      { file: '--roster' },
      `${agentFacts(refused.agent).label} cannot be measured among a roster: only ${ROSTER_AGENTS.map((id) => agentFacts(id).label).join(' and ')} place one`,
      `drop --roster, or measure with --agent ${ROSTER_AGENTS.join(',')}`,
    );
  const crowd = await loadRoster(given.roster);
  if (!agents.some((a) => a.agent === DEFAULT_AGENT))
    return { io, roster: { crowd }, release: async () => {} };
  const roster = await defaultAgentRoster(crowd, path.basename(skillDir), io.env);
  return {
    io: { ...io, env: roster.env },
    roster: { crowd },
    release: roster.remove,
  };
}
