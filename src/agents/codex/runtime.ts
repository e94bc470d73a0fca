/**
 * Codex through the registry's runtime (src/agents/runtime.ts): its gates, its listing of the
 * skill and the siblings, and its loop agent, made from what the core hands every agent.
 */
import type { AgentRuntime } from '../agent.js';
import { codexAgent } from './agent.js';
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
  open: ({ bin, env, version, stubs, crowd, memory, warm }) => {
    // The crowd's entry of the skill's own name is the skill itself: the stub stands for it.
    const others = crowd?.filter((e) => e.name !== stubs.skillName);
    const defaultModel = codexFacts.defaultModel(version);
    return codexAgent(
      bin,
      // The auth gate has passed: the key is in the environment.
      codexProviderFrom(env).provider,
      stubs.descriptions.map((description) => ({
        skillName: stubs.skillName,
        description,
        ...(stubs.siblings.length === 0 ? {} : { siblings: [...stubs.siblings] }),
        ...(others ? { crowd: codexCrowdSkills(others) } : {}),
        ...(memory === undefined ? {} : { memory }),
      })),
      { ...(defaultModel === undefined ? {} : { defaultModel }), standby: warm?.count ?? 0 },
    );
  },
  matrix: ({ bin, env, version, sides }) => {
    const defaultModel = codexFacts.defaultModel(version);
    // The auth gate has passed: the key is in the environment. The matrix's Codex runs go cold.
    return codexAgent(
      bin,
      codexProviderFrom(env).provider,
      sides.map((side) => ({ ...side, siblings: [...side.siblings] })),
      defaultModel === undefined ? {} : { defaultModel },
    );
  },
  defaultStandby: machineCodexStandbyCount,
  killAll: killAllCodexGroups,
  installed: (settings) => codexInstalledEntries(settings),
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
