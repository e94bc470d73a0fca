/**
 * Codex through the registry's runtime (src/agents/runtime.ts): its gates, its listing of the
 * skill and the siblings, and its loop agent with the first run's Codex begun before the gates,
 * made from what the core hands every agent.
 */
import { isDeepStrictEqual } from 'node:util';
import type { AgentLoopRuntime, AgentMatrixSettings } from '../agent.js';
import { sideCrowd } from '../listing.js';
import { type EarlyWaiting, startEarlyWaiting } from '../process/early-start.js';
import type { AgentRunSettings, EarlyStart, RunShape } from '../runs.js';
import { type CodexLaunchSettings, codexAgent, codexStandbySpec } from './agent.js';
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

/** The early starts this runtime began, so `open` and `matrix` take back their own kind. */
const earlyStarts = new WeakMap<EarlyStart, EarlyWaiting<CodexStandbySpec, CodexStandby>>();

/** Where every run starts: the executable, the environment handed over, the provider it names. */
function launchOf({ bin, env }: { bin: string; env: NodeJS.ProcessEnv }): CodexLaunchSettings {
  // Once the auth gate has passed, the key is in the environment; before it (an early start), the
  // key it holds now is the one the loop will read.
  return { bin, env, provider: codexProviderFrom(env).provider };
}

/** The matrix's sides as Codex's stubs: each skill the tested one of its side, every other beside it. */
function matrixStubs(settings: AgentMatrixSettings): CodexStubSpec[] {
  return settings.sides.map((side) => ({ ...side, siblings: [...side.siblings] }));
}

/** A Codex for the run shaped `first`, started now and waiting for its prompt; kept for `open` or `matrix`. */
function startedEarly(
  launch: CodexLaunchSettings,
  stubs: readonly CodexStubSpec[],
  first: RunShape,
): EarlyStart | undefined {
  const spec = codexStandbySpec(launch, stubs, first);
  if (spec === undefined) return undefined;
  const early = startEarlyWaiting(spec, {
    start: startCodexStandby,
    discard: discardCodexStandby,
    same: isDeepStrictEqual,
  });
  earlyStarts.set(early, early);
  return early;
}

/** The early start handed to `open` or `matrix`, when this runtime began it. */
const earlyOf = (early: EarlyStart | undefined) => (early === undefined ? undefined : earlyStarts.get(early));

export const codexRuntime: AgentLoopRuntime = {
  gates: ({ bin, systemSkillsFolder, ...settings }) =>
    codexGates({
      ...settings,
      codexBin: bin,
      ...(systemSkillsFolder === undefined ? {} : { systemSkillsFolder }),
    }),
  version: (bin, env) => readCodexVersion(bin, env).catch(() => undefined),
  fileListing: { unlisted: codexUnlistedDefect, siblings: codexSiblings },
  open: (settings) => {
    const { version, warm } = settings;
    const defaultModel = codexFacts.defaultModel(version);
    const early = earlyOf(warm?.early);
    return codexAgent(launchOf(settings), codexSides(settings), {
      ...(defaultModel === undefined ? {} : { defaultModel }),
      standby: warm?.count ?? 0,
      ...(warm?.first ? { first: warm.first } : {}),
      ...(early ? { early } : {}),
    });
  },
  // The first run's Codex, waiting for its prompt on stdin through the gates (docs/codex.md, "A
  // warm standby").
  startEarly: (settings, first) => startedEarly(launchOf(settings), codexSides(settings), first),
  matrix: (settings) => {
    const { version, standby, first } = settings;
    const defaultModel = codexFacts.defaultModel(version);
    const early = earlyOf(settings.early);
    return codexAgent(launchOf(settings), matrixStubs(settings), {
      ...(defaultModel === undefined ? {} : { defaultModel }),
      standby: standby ?? 0,
      ...(first ? { first } : {}),
      ...(early ? { early } : {}),
    });
  },
  // The matrix's first run's Codex, its stub the first side's skill with every other beside it.
  startMatrixEarly: (settings, first) => startedEarly(launchOf(settings), matrixStubs(settings), first),
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
