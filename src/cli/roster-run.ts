/**
 * `run --roster <file|dir>` (docs/roster.md, "`run --roster`"): the roster read and checked before
 * anything is spawned, refused for an agent that cannot place it, and on Claude Code the throwaway
 * HOME its gates, probes and runs are listed in.
 */
import path from 'node:path';
import type { AgentChoice } from '../agents/ids.js';
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

/**
 * `--versus-clean` where it makes no sense (exit 1, with the fix): without `--roster` there is no
 * crowd to measure against the clean room; with a baseline description the baseline side is
 * taken; with `--versus-fresh` the arms would cross.
 */
export function versusCleanRefusal(args: {
  versusClean: boolean;
  roster?: string;
  baselineDescription?: string;
  baselineDescriptionFile?: string;
  versusFresh: boolean;
}): InputError | undefined {
  if (!args.versusClean) return undefined;
  const refuse = (problem: string, fix: string) => new InputError({ file: '--versus-clean' }, problem, fix);
  if (args.roster === undefined)
    return refuse(
      'there is no crowd to measure against the clean room',
      'give the crowd with --roster <file|dir>, or drop --versus-clean',
    );
  if (args.baselineDescription !== undefined || args.baselineDescriptionFile !== undefined)
    return refuse(
      'the baseline side is the clean room, so it cannot also measure another description',
      'drop --baseline-description (compare the two descriptions among the roster), or drop --versus-clean',
    );
  if (args.versusFresh)
    return refuse(
      'each arm is one axis at a time: the crowd against the clean room, or a context against a fresh start',
      'drop --versus-fresh, or drop --versus-clean',
    );
  return undefined;
}

/** Reads `--roster` and prepares each measured agent's crowd; undefined without `--roster`. */
export async function prepareRosterRun(
  given: { roster?: string; versusClean?: boolean },
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
  const roster = { crowd, ...(given.versusClean ? { versusClean: true } : {}) };
  if (!agents.some((a) => a.agent === DEFAULT_AGENT)) return { io, roster, release: async () => {} };
  const home = await defaultAgentRoster(crowd, path.basename(skillDir), io.env);
  return {
    io: { ...io, env: home.env },
    roster,
    release: home.remove,
  };
}
