/**
 * What the registry's agents do at run time, for the core that must not name them: the one place
 * outside an agent's folder that imports its processes.
 */
import type { Crowd } from '../inputs/roster.js';
import type { AgentLoopRuntime, AskResult, AskSettings } from './agent.js';
import { crowdCatalogue } from './claude/installed-catalogue.js';
import { removeProjectEntriesIn } from './claude/leftovers.js';
import { type ClaudeRosterRun, prepareClaudeRoster, rosterLayout } from './claude/roster-home.js';
import { probeRunListing } from './claude/run-listing.js';
import { claudeLoopRuntime } from './claude/runtime.js';
import { codexRuntime } from './codex/runtime.js';
import { geminiRuntime } from './gemini/runtime.js';
import { AGENT_IDS, type AgentId } from './ids.js';
import type { ListedTextProbe } from './listed.js';
import { type InstalledRead, type ListingProbe, sideCrowd } from './listing.js';
import { type SweepResult, sweepDeadOwners } from './process/temp-owner.js';
import { agentFacts } from './registry.js';

/**
 * What the measurement loop and the preflight ask of each agent, every agent's the same way: its
 * loop agent, its gates, its version, its standbys and the kill.
 */
const LOOP_RUNTIMES: Record<AgentId, AgentLoopRuntime> = {
  claude: claudeLoopRuntime(),
  codex: withSideListing(codexRuntime),
  gemini: withSideListing(geminiRuntime),
};

/** What the loop asks of `id`. */
export function loopRuntimeOf(id: AgentId): AgentLoopRuntime {
  return LOOP_RUNTIMES[id];
}

/**
 * `id`'s listed-text probe (src/agents/listed.ts): which text its measurements measure, and the
 * check of each stub's listing. The core asks it of the default agent only, which has one: asking
 * it of an agent without one is a bug.
 */
export function listedTextProbe(id: AgentId): ListedTextProbe {
  const probe = LOOP_RUNTIMES[id].listedText;
  if (probe === undefined) throw new Error(`listedTextProbe: ${id} has no listed-text probe`);
  return probe;
}

/** An agent's side listing from its one-side probe, when it has no catalogue to read first. */
function withSideListing(runtime: AgentLoopRuntime): AgentLoopRuntime {
  const { listing } = runtime;
  if (runtime.sideListing || !listing) return runtime;
  return {
    ...runtime,
    sideListing: async (all) => {
      const { stubs, crowd: _, cleanSides: __, ...settings } = all;
      return async (side) => {
        const description = stubs.descriptions[side];
        if (description === undefined) return { kind: 'failed', reason: `no side ${side} was planned` };
        // A clean side (`--versus-clean`) is listed among none of the crowd.
        const crowd = sideCrowd(all, side);
        return listing({
          ...settings,
          ...(crowd ? { crowd } : {}),
          skillName: stubs.skillName,
          description,
          siblings: stubs.siblings,
        });
      };
    },
  };
}

/**
 * SIGKILLs the process group of every agent run still alive, whichever agent it is (the second
 * interrupt, a cancelled job). Synchronous; the temp folders are removed by their own sweep.
 */
export function killAllAgentGroups(): void {
  for (const runtime of Object.values(LOOP_RUNTIMES)) runtime.killAll();
}

/**
 * Removes what every agent's runs killed mid-write left in the user's HOME since `sinceMs`, once no
 * run of the command is alive any more (docs/home.md).
 */
export async function removeInterruptedWrites(
  env: Record<string, string | undefined>,
  sinceMs: number,
): Promise<void> {
  for (const runtime of Object.values(LOOP_RUNTIMES)) await runtime.removeInterruptedWrites?.(env, sinceMs);
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
  const probe = loopRuntimeOf(agent).listing;
  if (probe === undefined) return { kind: 'failed', reason: `${agent} cannot say how it lists a crowd` };
  return probe({ bin: options.bin, env: options.env, ...model, ...spec, siblings: [], crowd: crowd.entries });
}

/** The catalogue `agent` lists on this machine (docs/roster.md), read without writing to the user's HOME. */
export async function installedEntries(
  agent: AgentId,
  settings: { bin: string; env: NodeJS.ProcessEnv; model?: string },
): Promise<InstalledRead> {
  const read = loopRuntimeOf(agent).installed;
  return read ? read(settings) : { kind: 'failed', reason: `${agent} cannot say what it lists` };
}

/** `agent`'s CLI version, read from `--version`; undefined when it does not say. */
export async function agentVersion(
  agent: AgentId,
  bin: string,
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  return loopRuntimeOf(agent).version(bin, env);
}

/**
 * One author call through `agent`'s CLI (`init`'s draft, `improve`'s rewrite; src/agents/ask.ts);
 * an agent without one answers nothing and says so.
 */
export function askAgent(agent: AgentId, prompt: string, settings: AskSettings): Promise<AskResult> {
  const ask = loopRuntimeOf(agent).ask;
  return ask
    ? ask(prompt, settings)
    : Promise.resolve({ kind: 'no-answer', said: `${agentFacts(agent).label} makes no author calls here` });
}

/** The agents `run --roster` places a crowd for (docs/roster.md). */
export const ROSTER_AGENTS: readonly AgentId[] = AGENT_IDS.filter((id) => agentFacts(id).placesRoster);

/**
 * A roster measurement's Claude Code side (docs/roster.md, "`run --roster`"): its environment with
 * a throwaway HOME holding the crowd, for its gates and probes; exit 2 without a key in the
 * environment. Each run of either agent lays the crowd out in its own HOME (its runtime's `open`).
 */
export function defaultAgentRoster(
  crowd: Crowd,
  folder: string,
  env: NodeJS.ProcessEnv,
): Promise<ClaudeRosterRun> {
  return prepareClaudeRoster(crowd, folder, env);
}
