/**
 * What the registry's agents do at run time, for the core that must not name them: the one place
 * outside an agent's folder that imports its processes.
 */
import os from 'node:os';
import type { Crowd } from '../inputs/roster.js';
import type { AgentId, AgentRuntime, InstalledRead, ListingProbe } from './agent.js';
import { killAllClaudeGroups } from './claude/children.js';
import { runClaudeCommand } from './claude/command.js';
import { parseCliVersion } from './claude/gates/cli.js';
import { crowdCatalogue, installedCatalogue } from './claude/installed-catalogue.js';
import { claudeInstalledEntries } from './claude/installed-entries.js';
import { GATE_COMMANDS } from './claude/launch.js';
import { removeProjectEntriesIn } from './claude/leftovers.js';
import {
  type ClaudeRosterRun,
  prepareClaudeRoster,
  type RosterLayout,
  rosterClaudeJson,
  rosterLayout,
} from './claude/roster-home.js';
import { probeRunListing, probeSideListing } from './claude/run-listing.js';
import { claudeEnvironment } from './claude/run-once.js';
import { codexRuntime } from './codex/runtime.js';
import { geminiRuntime } from './gemini/runtime.js';
import type { StubSpec } from './process/stub-project.js';
import { type SweepResult, sweepDeadOwners } from './process/temp-owner.js';

/**
 * The agents whose gates, listing and loop agent the core reaches through the spec alone: every
 * agent but the default one, whose standbys, listing probe and gates the core still builds itself.
 */
const RUNTIMES: Partial<Record<AgentId, AgentRuntime>> = {
  codex: codexRuntime,
  gemini: geminiRuntime,
};

/** The runtime of `id`; undefined for the default agent (see RUNTIMES). */
export function runtimeOf(id: AgentId): AgentRuntime | undefined {
  return RUNTIMES[id];
}

/**
 * SIGKILLs the process group of every agent run still alive, whichever agent it is (the second
 * interrupt, a cancelled job). Synchronous; the temp folders are removed by their own sweep.
 */
export function killAllAgentGroups(): void {
  killAllClaudeGroups();
  for (const runtime of Object.values(RUNTIMES)) runtime.killAll();
}

/**
 * Removes the temp folders of runs whose owner is gone (a SIGKILLed skilltrigger), with what each
 * agent left for them outside the folder (docs/home.md).
 */
export function sweepDeadRuns(root: string, env: Record<string, string | undefined>): Promise<SweepResult> {
  return sweepDeadOwners(root, env, removeProjectEntriesIn);
}

/**
 * How `agent` lists a skill's stub among a roster's crowd (docs/roster.md), read by its listing
 * probe: the real CLI against the loopback model, the crowd in a throwaway HOME. No model call.
 * `description`: the text the agent lists (Claude Code's listed text; the SKILL.md's for others).
 * On Claude Code the stub stands where `run --roster` puts it: a user skill in the skill's folder
 * (`stub.folder`), among the crowd.
 */
export async function crowdListing(
  agent: AgentId,
  crowd: Crowd,
  stub: { skillName: string; description: string; folder: string },
  options: { bin: string; env: NodeJS.ProcessEnv; model?: string },
): Promise<ListingProbe> {
  const model = options.model ? { model: options.model } : {};
  const { folder, ...spec } = stub;
  if (agent === 'claude')
    return probeRunListing(
      { layout: 'command', ...spec },
      {
        claudeBin: options.bin,
        env: options.env,
        catalogue: crowdCatalogue(crowd),
        roster: rosterLayout(crowd, folder),
        ...model,
      },
    );
  const probe = runtimeOf(agent)?.listing;
  if (probe === undefined) return { kind: 'failed', reason: `${agent} cannot say how it lists a crowd` };
  return probe({ bin: options.bin, env: options.env, ...model, ...spec, siblings: [], crowd: crowd.entries });
}

/** The catalogue `agent` lists on this machine (docs/roster.md), read without writing to the user's HOME. */
export async function installedEntries(
  agent: AgentId,
  settings: { bin: string; env: NodeJS.ProcessEnv; model?: string },
): Promise<InstalledRead> {
  const read = agent === 'claude' ? claudeInstalledEntries : runtimeOf(agent)?.installed;
  return read ? read(settings) : { kind: 'failed', reason: `${agent} cannot say what it lists` };
}

/** `agent`'s CLI version, read from `--version`; undefined when it does not say. */
export async function agentVersion(
  agent: AgentId,
  bin: string,
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  if (agent !== 'claude') return runtimeOf(agent)?.version(bin);
  const result = await runClaudeCommand(bin, [...GATE_COMMANDS.version], {
    env: claudeEnvironment(env, 0),
    cwd: os.tmpdir(),
    timeoutMs: 30_000,
  }).catch(() => undefined);
  return result === undefined ? undefined : parseCliVersion(result.stdout);
}

/**
 * The default agent's listing of a measured run's sides (docs/listing-budget.md): the user's
 * catalogue read once, then per side the stub among it and, where the stub is not whole, the skill
 * itself in its user's place (`folder`), for the listing gate.
 */
export async function defaultAgentListing(settings: {
  claudeBin: string;
  env: NodeJS.ProcessEnv;
  /** `run --roster`: the roster's crowd instead of the user's catalogue, as each run's HOME holds it. */
  roster?: RosterLayout;
}): Promise<(stub: StubSpec, folder: string, model: string | undefined) => Promise<ListingProbe>> {
  const { roster, ...rest } = settings;
  const installed = roster ? undefined : await installedCatalogue(settings.env);
  return (stub, folder, model) => {
    // With a roster, the skill itself stands in its folder's place with the use record of its entry.
    const json = roster ? rosterClaudeJson(roster, folder) : undefined;
    const catalogue = installed ?? { ...roster?.layout, ...(json ? { claudeJson: json } : {}) };
    return probeSideListing(stub, folder, {
      ...rest,
      catalogue,
      ...(roster ? { roster } : {}),
      ...(model ? { model } : {}),
    });
  };
}

/** The agents `run --roster` places a crowd for (docs/roster.md). */
export const ROSTER_AGENTS: readonly AgentId[] = ['claude', 'codex'];

/**
 * A roster measurement's Claude Code side (docs/roster.md, "`run --roster`"): its environment with
 * a throwaway HOME holding the crowd, and where each run puts its own; exit 2 without a key in the
 * environment. Codex needs nothing ahead: each of its runs lays the crowd out in its own HOME.
 */
export function defaultAgentRoster(
  crowd: Crowd,
  folder: string,
  env: NodeJS.ProcessEnv,
): Promise<ClaudeRosterRun> {
  return prepareClaudeRoster(crowd, folder, env);
}
