/**
 * Codex through the registry's runtime (src/agents/runtime.ts): its gates, its listing of the
 * skill and the siblings, and its loop agent with the first run's Codex begun before the gates,
 * made from what the core hands every agent.
 */
import { isDeepStrictEqual } from 'node:util';
import { type AgentLoopRuntime, type AgentRunSettings, type EarlyStart, sideCrowd } from '../agent.js';
import { type EarlyWaiting, startEarlyWaiting } from '../process/early-start.js';
import { codexAgent, codexStandbySpec } from './agent.js';
import { askCodex } from './ask.js';
import { codexFacts } from './facts.js';
import { codexGates } from './gates.js';
import { codexInstalledEntries } from './installed-entries.js';
import { codexSiblings, codexUnlistedDefect } from './listed.js';
import { killAllCodexGroups } from './process.js';
import { codexProviderFrom } from './provider.js';
import { readCodexVersion } from './run.js';
import { codexCrowdSkills, probeCodexRunListing } from './run-listing.js';
import {
  type CodexStandby,
  type CodexStandbySpec,
  discardCodexStandby,
  machineCodexStandbyCount,
  startCodexStandby,
} from './standby.js';
import type { CodexStubSpec } from './stub.js';

/** Each side's stub as a Codex run's project holds it, from what the core hands every agent. */
function codexSides(settings: Omit<AgentRunSettings, 'warm'>): CodexStubSpec[] {
  const { stubs, memory } = settings;
  // The crowd's entry of the skill's own name is the skill itself: the stub stands for it; a
  // clean side (`--versus-clean`) lists none.
  const others = (side: number) => sideCrowd(settings, side)?.filter((e) => e.name !== stubs.skillName);
  return stubs.descriptions.map((description, side) => {
    const crowd = others(side);
    return {
      skillName: stubs.skillName,
      description,
      ...(stubs.siblings.length === 0 ? {} : { siblings: [...stubs.siblings] }),
      ...(crowd ? { crowd: codexCrowdSkills(crowd) } : {}),
      ...(memory === undefined ? {} : { memory }),
    };
  });
}

/** The early starts this runtime began, so `open` takes back its own kind. */
const earlyStarts = new WeakMap<EarlyStart, EarlyWaiting<CodexStandbySpec, CodexStandby>>();

export const codexRuntime: AgentLoopRuntime = {
  gates: ({ bin, systemSkillsFolder, ...settings }) =>
    codexGates({
      ...settings,
      codexBin: bin,
      ...(systemSkillsFolder === undefined ? {} : { systemSkillsFolder }),
    }),
  version: (bin) => readCodexVersion(bin).catch(() => undefined),
  fileListing: { unlisted: codexUnlistedDefect, siblings: codexSiblings },
  open: (settings) => {
    const { bin, env, version, warm } = settings;
    const defaultModel = codexFacts.defaultModel(version);
    const early = warm?.early === undefined ? undefined : earlyStarts.get(warm.early);
    return codexAgent(
      bin,
      // The auth gate has passed: the key is in the environment.
      codexProviderFrom(env).provider,
      codexSides(settings),
      {
        ...(defaultModel === undefined ? {} : { defaultModel }),
        standby: warm?.count ?? 0,
        ...(warm?.first ? { first: warm.first } : {}),
        ...(early ? { early } : {}),
      },
    );
  },
  // The first run's Codex, waiting for its prompt on stdin through the gates (docs/codex.md, "A
  // warm standby"); started with the key the environment holds now, as the loop will read it.
  startEarly: (settings, first) => {
    const spec = codexStandbySpec(
      settings.bin,
      codexProviderFrom(settings.env).provider,
      codexSides(settings),
      first,
    );
    if (spec === undefined) return undefined;
    const early = startEarlyWaiting(spec, {
      start: startCodexStandby,
      discard: discardCodexStandby,
      same: isDeepStrictEqual,
    });
    earlyStarts.set(early, early);
    return early;
  },
  matrix: ({ bin, env, version, sides, standby }) => {
    const defaultModel = codexFacts.defaultModel(version);
    // The auth gate has passed: the key is in the environment.
    return codexAgent(
      bin,
      codexProviderFrom(env).provider,
      sides.map((side) => ({ ...side, siblings: [...side.siblings] })),
      { ...(defaultModel === undefined ? {} : { defaultModel }), standby: standby ?? 0 },
    );
  },
  defaultStandby: machineCodexStandbyCount,
  killAll: killAllCodexGroups,
  installed: (settings) => codexInstalledEntries(settings),
  ask: askCodex,
  listing: ({ bin, env, model, skillName, description, siblings, crowd }) =>
    probeCodexRunListing(
      { skillName, description, ...(siblings.length === 0 ? {} : { siblings: [...siblings] }) },
      {
        bin,
        env,
        ...(model ? { model } : {}),
        ...(crowd ? { userSkills: codexCrowdSkills(crowd.filter((e) => e.name !== skillName)) } : {}),
      },
    ),
};
