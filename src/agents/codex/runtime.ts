/**
 * Codex through the registry's runtime (src/agents/runtime.ts): its gates, its listing of the
 * skill and the siblings, and its loop agent, made from what the core hands every agent.
 */
import { type AgentRuntime, sideCrowd } from '../agent.js';
import { codexAgent } from './agent.js';
import { askCodex } from './ask.js';
import { codexFacts } from './facts.js';
import { codexGates } from './gates.js';
import { codexInstalledEntries } from './installed-entries.js';
import { codexSiblings, codexUnlistedDefect } from './listed.js';
import { killAllCodexGroups } from './process.js';
import { codexProviderFrom } from './provider.js';
import { readCodexVersion } from './run.js';
import { codexCrowdSkills, probeCodexRunListing } from './run-listing.js';
import { machineCodexStandbyCount } from './standby.js';

export const codexRuntime: AgentRuntime = {
  gates: ({ bin, systemSkillsFolder, ...settings }) =>
    codexGates({
      ...settings,
      codexBin: bin,
      ...(systemSkillsFolder === undefined ? {} : { systemSkillsFolder }),
    }),
  version: (bin) => readCodexVersion(bin).catch(() => undefined),
  unlisted: (skill) => codexUnlistedDefect(skill),
  siblings: (skills) => codexSiblings(skills),
  open: (settings) => {
    const { bin, env, version, stubs, memory, warm } = settings;
    // The crowd's entry of the skill's own name is the skill itself: the stub stands for it; a
    // clean side (`--versus-clean`) lists none.
    const others = (side: number) => sideCrowd(settings, side)?.filter((e) => e.name !== stubs.skillName);
    const defaultModel = codexFacts.defaultModel(version);
    return codexAgent(
      bin,
      // The auth gate has passed: the key is in the environment.
      codexProviderFrom(env).provider,
      stubs.descriptions.map((description, side) => {
        const crowd = others(side);
        return {
          skillName: stubs.skillName,
          description,
          ...(stubs.siblings.length === 0 ? {} : { siblings: [...stubs.siblings] }),
          ...(crowd ? { crowd: codexCrowdSkills(crowd) } : {}),
          ...(memory === undefined ? {} : { memory }),
        };
      }),
      { ...(defaultModel === undefined ? {} : { defaultModel }), standby: warm?.count ?? 0 },
    );
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
