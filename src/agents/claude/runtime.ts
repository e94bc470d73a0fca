/**
 * Claude Code as the measurement loop and the routing matrix reach it (`AgentLoopRuntime`,
 * src/agents/agent.ts): its loop agent with its standbys, its matrix's, the first standby of each
 * begun before the gates, its listing probe of a measured run's sides, its listed-text probe (which
 * text is measured, each stub's listing checked), its gates (the machine's sleep gate among them),
 * its version and the kill.
 */
import os from 'node:os';
import { stubFieldsFor } from '../../inputs/listing.js';
import type { AgentLoopRuntime, AgentSideListing } from '../agent.js';
import { type CrowdMember, type ListingProbe, sideCrowd } from '../listing.js';
import type { HomePlacement, StubSpec } from '../process/stub-project.js';
import type { AgentRunSettings, AgentStubs, EarlyStart, RunShape } from '../runs.js';
import { claudeLoopAgent, waitingSpecOf } from './agent.js';
import { askClaude } from './ask.js';
import { killAllClaudeGroups } from './children.js';
import { runClaudeCommand } from './command.js';
import { type EarlyStandby, startEarlyStandby } from './early-standby.js';
import { inheritedEnvironment } from './environment.js';
import { claudeFacts } from './facts.js';
import { parseCliVersion } from './gates/cli.js';
import { installedCatalogue } from './installed-catalogue.js';
import { claudeInstalledEntries } from './installed-entries.js';
import { claudeEnvironment, GATE_COMMANDS } from './launch.js';
import { removeInterruptedWrites } from './leftovers.js';
import { claudeListedText } from './listed-text.js';
import { claudeMatrixAgent, matrixWaitingSpec } from './matrix.js';
import { claudeGates } from './preflight.js';
import { type RosterLayout, rosterClaudeJson, rosterLayout, rosterPlacement } from './roster-home.js';
import { probeSideListing } from './run-listing.js';
import { type RunDeps, realRunDeps } from './run-once.js';
import { machineStandbyCount } from './standby.js';
import type { WaitingSpec } from './waiting-run.js';

/**
 * Each side's stub as a claude run's project holds it: the listed text, written back as its fields;
 * with a roster, each run's HOME holds the crowd and the stub in the skill's own folder (`home`).
 */
export function claudeStubs(
  stubs: AgentStubs,
  home?: HomePlacement | ((side: number) => HomePlacement | undefined),
  memory?: string,
): StubSpec[] {
  const siblings = stubs.siblings.map((s) => ({
    skillName: s.skillName,
    ...stubFieldsFor(s.listed ?? s.description),
  }));
  const homeOf = typeof home === 'function' ? home : () => home;
  return stubs.descriptions.map((description, side) => {
    const placed = homeOf(side);
    return {
      layout: stubs.layout ?? 'command',
      skillName: stubs.skillName,
      ...(placed ? { home: placed } : {}),
      ...(memory === undefined ? {} : { memory: { file: claudeFacts.memoryFile, text: memory } }),
      ...stubFieldsFor(stubs.listed?.[side] ?? description),
      ...(siblings.length === 0 ? {} : { siblings }),
    };
  });
}

/**
 * Each side's HOME placement among a roster: its crowd's, one object per side and measurement (a
 * standby's spec must compare equal to its run's); a clean side's (`--versus-clean`) holds the stub alone.
 */
function sidePlacements(
  settings: Pick<AgentRunSettings, 'crowd' | 'cleanSides' | 'stubs'>,
): ((side: number) => HomePlacement | undefined) | undefined {
  if (settings.crowd === undefined) return undefined;
  const placements = settings.stubs.descriptions.map((_, side) => {
    const roster = rosterOf(sideCrowd(settings, side), settings.stubs);
    return roster && rosterPlacement(roster);
  });
  return (side) => placements[side];
}

/** A roster's crowd around the skill, as its runs' HOMEs hold it; undefined without a roster. */
function rosterOf(crowd: readonly CrowdMember[] | undefined, stubs: AgentStubs): RosterLayout | undefined {
  return crowd === undefined
    ? undefined
    : rosterLayout({ entries: [...crowd] }, stubs.folder ?? stubs.skillName);
}

/** What every claude run of a measurement is started with, its query and stub aside. */
function runSettingsOf(settings: Omit<AgentRunSettings, 'warm'>) {
  return {
    claudeBin: settings.bin,
    env: claudeEnvironment(settings.env, settings.knobs?.maxRetries ?? 0),
    ...(settings.knobs?.debug ? { debug: true } : {}),
    ...(settings.knobs?.lateTurns ? { lateTurns: settings.knobs.lateTurns } : {}),
  };
}

/** What the standby of a run shaped `first` is started with. */
export function claudeWaitingSpec(
  settings: Omit<AgentRunSettings, 'warm'>,
  first: RunShape,
): WaitingSpec | undefined {
  return waitingSpecOf(
    { stubs: claudeStubs(settings.stubs, undefined, settings.memory), run: runSettingsOf(settings) },
    first,
  );
}

/** The early standbys this runtime started, so `open` and `matrix` take back their own kind. */
const earlyStandbys = new WeakMap<EarlyStart, EarlyStandby>();

/** The standby of a first run shaped `spec`, started now and kept so that `open` or `matrix` takes it back. */
function startedEarly(spec: WaitingSpec | undefined, deps: RunDeps): EarlyStart {
  const early = startEarlyStandby(spec, deps);
  earlyStandbys.set(early, early);
  return early;
}

/** Claude Code's loop runtime over `deps` (its processes and projects; a test's stand-ins). */
export function claudeLoopRuntime(deps: RunDeps = realRunDeps): AgentLoopRuntime {
  return {
    gates: claudeGates,
    placesSleepGate: true,
    open(settings) {
      const warm = settings.warm ?? { count: 0 };
      const early = warm.early === undefined ? undefined : earlyStandbys.get(warm.early);
      // One placement per side and measurement: a standby's spec must compare equal to its run's.
      return claudeLoopAgent(
        {
          stubs: claudeStubs(settings.stubs, sidePlacements(settings), settings.memory),
          run: runSettingsOf(settings),
          standby: warm.count,
          ...(warm.first ? { first: warm.first } : {}),
          ...(early ? { early } : {}),
        },
        deps,
      );
    },
    defaultStandby: machineStandbyCount,
    startEarly(settings, first) {
      return startedEarly(claudeWaitingSpec(settings, first), deps);
    },
    matrix(settings) {
      const early = settings.early === undefined ? undefined : earlyStandbys.get(settings.early);
      return claudeMatrixAgent(settings, early, deps);
    },
    startMatrixEarly(settings, first) {
      return startedEarly(matrixWaitingSpec(settings, first), deps);
    },
    killAll: killAllClaudeGroups,
    removeInterruptedWrites,
    async version(bin, env) {
      const result = await runClaudeCommand(bin, [...GATE_COMMANDS.version], {
        env: claudeEnvironment(env, 0),
        cwd: os.tmpdir(),
        timeoutMs: 30_000,
      }).catch(() => undefined);
      return result === undefined ? undefined : parseCliVersion(result.stdout);
    },
    sideListing: claudeSideListing,
    listedText: claudeListedText,
    installed: (settings) => claudeInstalledEntries(settings),
    environment: (env, tempRoot) => inheritedEnvironment(env, tempRoot),
    ask: askClaude,
  };
}

/** How each side's run will list its stub, read by a probe of that run's own environment. */
async function claudeSideListing(
  settings: AgentSideListing,
): Promise<(side: number) => Promise<ListingProbe>> {
  const { bin, env, model, stubs, folder, crowd } = settings;
  // The user's catalogue is read once (a roster's crowd instead, with the skill in its folder's
  // place and its entry's use record; a clean side's, none); every side's probe lays its stub
  // out among it.
  const installed = crowd === undefined ? await installedCatalogue(env) : undefined;
  const sides = claudeStubs(stubs);
  return async (side) => {
    const stub = sides[side];
    if (stub === undefined) return { kind: 'failed', reason: `no side ${side} was planned` };
    const roster = rosterOf(sideCrowd(settings, side), { ...stubs, folder });
    const json = roster ? rosterClaudeJson(roster, folder) : undefined;
    const catalogue = roster ? { ...roster.layout, ...(json ? { claudeJson: json } : {}) } : installed;
    if (catalogue === undefined) return { kind: 'failed', reason: 'no catalogue was read' };
    return probeSideListing(stub, folder, {
      claudeBin: bin,
      env,
      catalogue,
      ...(roster ? { roster } : {}),
      ...(model ? { model } : {}),
    });
  };
}
