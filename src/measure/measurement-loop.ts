/** The loop's spec and budget, made from a measurement's settings (pure but for the machine's size). */

import path from 'node:path';
import type { AgentLoopRuntime } from '../agents/agent.js';
import { type AgentId, DEFAULT_AGENTS } from '../agents/ids.js';
import type { SiblingText } from '../agents/listing.js';
import { DEFAULT_AGENT } from '../agents/registry.js';
import type { Agent, AgentRunSettings, EarlyStart } from '../agents/runs.js';
import { loopRuntimeOf } from '../agents/runtime.js';
import { costOf } from '../cost/cost.js';
import { contextRefusal } from '../inputs/agents.js';
import { type ContextTurn, describeContext } from '../inputs/context.js';
import { composeListing, listingSpaces } from '../inputs/listing.js';
import { joinMemory, memoryFor } from '../inputs/memory.js';
import type { EvalItem } from '../inputs/types.js';
import type { Budget, SideSpec } from './loop-spec.js';
import {
  firstRunOf,
  type LoopTargets,
  loopTargets,
  type PlanSpec,
  standbyOf,
  startsWarm,
  warmStartsOf,
} from './loop-targets.js';
import type { LoopSettings, MeasureSettings } from './measure-settings.js';
import { type VersusFreshItems, versusFreshItems } from './versus-fresh.js';

/**
 * The loop's budget: a finished run is priced from its usage; an unpriced one counts as estimated,
 * and so does a run whose agent reported no tokens although it paid for its prompt (Codex reports
 * usage only when a turn completes, so a run killed at its decision says nothing; docs/cost.md).
 */
export function loopBudget(settings: MeasureSettings): Budget | undefined {
  const { budget, prices } = settings;
  if (!budget || !prices) return undefined;
  return {
    maxUsd: budget.maxUsd,
    firstEstimateUsd: budget.firstEstimateUsd,
    ...(budget.spentUsd === undefined ? {} : { spentUsd: budget.spentUsd }),
    costOf: (result) => {
      if (result.usageUnreported) return budget.firstEstimateUsd;
      const cost = costOf(
        result.usage,
        result.model ?? result.requestedModel ?? settings.model,
        prices.table,
      );
      return cost.kind === 'priced' ? cost.usd : budget.firstEstimateUsd;
    },
  };
}

/** The runtime each agent is reached through: the registry's, or a test's stand-ins. */
export type RuntimeLookup = (id: AgentId) => AgentLoopRuntime;

/** The loop's plan (its agents not yet opened), and what the report needs of how it was made. */
export function measurementLoop(settings: LoopSettings) {
  const emulate = (description: string) =>
    composeListing(
      listingSpaces(description).trim(),
      settings.skill.whenToUse === undefined ? undefined : listingSpaces(settings.skill.whenToUse),
    );
  const listed = settings.listed ?? {
    candidate:
      !settings.overridden && settings.skill.emulatedListing !== undefined
        ? settings.skill.emulatedListing
        : emulate(settings.description),
    ...(settings.baselineDescription === undefined
      ? {}
      : { baseline: emulate(settings.baselineDescription) }),
    source: 'emulation' as const,
  };
  const siblings = settings.siblings ?? [];
  const sides: SideSpec[] = [{ label: 'candidate' }];
  if (settings.baselineDescription !== undefined) sides.push({ label: 'baseline' });
  const loopItems = loopItemsOf(settings.evalSet.items, settings.context, settings.versusFresh);
  // The CLI refuses this before its gates; the Action's entries reach it here, before any run.
  const refused = contextRefusal(
    settings.agents ?? DEFAULT_AGENTS,
    loopItems.items.some((item) => item.context?.turns !== undefined) ? 'a context' : undefined,
  );
  if (refused) throw refused;
  const agents = settings.agents && settings.agents.length > 0 ? settings.agents : undefined;
  const severalAgents = agents && agents.length > 1 ? agents : undefined;
  const plan: PlanSpec = {
    items: loopItems.items,
    sides,
    rules: settings.rules,
    timeoutMs: settings.timeoutSeconds * 1000,
    ...(settings.model ? { model: settings.model } : {}),
    ...(settings.models && settings.models.length > 0 ? { models: settings.models } : {}),
    ...(agents?.length === 1 && agents[0] ? { agent: agents[0].agent } : {}),
    ...(severalAgents ? { agents: severalAgents } : {}),
  };
  const targets = loopTargets(plan);
  const standby =
    settings.standby ??
    Math.max(0, ...planAgents(targets).map((id) => loopRuntimeOf(id).defaultStandby?.() ?? 0));
  const warm = startsWarm(targets, standby);
  return { plan, targets, origin: loopItems.origin, listed, siblings, agents, standby, warm };
}

/** The plan and how it was made, as `measurementLoop` gives them. */
export type MeasurementLoop = ReturnType<typeof measurementLoop>;

/**
 * What each agent of the plan is opened with, its warm starts aside: its executable, version and
 * siblings (the default agent's as listed; every other's as it lists them), and each side's text,
 * both as the SKILL.md holds it and as the default agent lists it (src/agents/runs.ts, `AgentStubs`).
 */
export function runSetupOf(
  settings: LoopSettings,
  made: MeasurementLoop,
  id: AgentId,
): Omit<AgentRunSettings, 'warm'> | undefined {
  const own =
    id === DEFAULT_AGENT
      ? {
          bin: settings.defaultBin,
          siblings: made.siblings.map(
            (s): SiblingText => ({ skillName: s.name, description: s.listed, listed: s.listed }),
          ),
        }
      : settings.others?.[id];
  if (own === undefined) return undefined;
  const descriptions = [settings.description, settings.baselineDescription].filter(
    (description) => description !== undefined,
  );
  const listed = [made.listed.candidate, made.listed.baseline].filter((text) => text !== undefined);
  return {
    bin: own.bin,
    env: settings.env,
    ...('version' in own && own.version !== undefined ? { version: own.version } : {}),
    stubs: {
      skillName: settings.skill.name,
      descriptions,
      // A baseline is listed as the emulation reads it when no probe read it.
      listed: descriptions.map((_, side) => listed[side] ?? descriptions[side] ?? ''),
      siblings: own.siblings,
      layout: settings.stub,
      folder: path.basename(settings.skill.dir),
      ...(settings.overridden || settings.skill.fileText === undefined
        ? {}
        : { skillText: settings.skill.fileText }),
    },
    ...(settings.roster ? { crowd: settings.roster.crowd.entries } : {}),
    // `--versus-clean`: the baseline side is the same description in the clean room.
    ...(settings.roster?.versusClean ? { cleanSides: [1] } : {}),
    ...memoryOf(settings.memory, id),
    knobs: {
      maxRetries: settings.maxRetries,
      ...(settings.debug ? { debug: true } : {}),
      ...(settings.lateTurns ? { lateTurns: settings.lateTurns } : {}),
    },
  };
}

/** The memory text every run of agent `id` holds, joined from its files in order (none: nothing). */
function memoryOf(files: LoopSettings['memory'], id: AgentId): { memory?: string } {
  const memory = files === undefined ? undefined : joinMemory(memoryFor(files, id));
  return memory === undefined ? {} : { memory };
}

/** The agents the plan runs, by id. */
function planAgents(targets: LoopTargets): AgentId[] {
  return [...new Set(targets.targets.map((t) => t.agent))];
}

/**
 * Opens the loop agent of each agent the plan runs (`LoopSpec.seam`), each told its warm starts;
 * `early` goes to the agent whose first run it was started for.
 */
export function openLoopAgents(
  settings: LoopSettings,
  made: MeasurementLoop,
  options: { early?: EarlyStart; runtimes?: RuntimeLookup } = {},
): Partial<Record<AgentId, Agent>> {
  const runtimes = options.runtimes ?? loopRuntimeOf;
  const opened: Partial<Record<AgentId, Agent>> = {};
  for (const id of planAgents(made.targets)) {
    const setup = runSetupOf(settings, made, id);
    if (setup === undefined) continue;
    const warm = warmStartsOf(made.plan, made.targets, id, made.standby, options.early);
    opened[id] = runtimes(id).open({ ...setup, warm });
  }
  return opened;
}

/** An early start that started nothing. */
export const NO_EARLY_START: EarlyStart = { release: async () => {} };

/**
 * The plan's first warm run, started now, before the gates, so that its start-up overlaps them
 * (docs/speed.md, "The first standby, beside the gates"): the agent takes it when its first run
 * needs exactly that, and `release` discards it otherwise. Starts nothing when runs go cold.
 */
export function startEarly(settings: LoopSettings, runtimes: RuntimeLookup = loopRuntimeOf): EarlyStart {
  const made = measurementLoop(settings);
  for (const id of planAgents(made.targets)) {
    if (standbyOf(id, made.standby) === 0) continue;
    const first = firstRunOf(made.plan, made.targets, id);
    const setup = runSetupOf(settings, made, id);
    const early = first && setup && runtimes(id).startEarly?.(setup, first);
    if (early) return early;
  }
  return NO_EARLY_START;
}

/**
 * The items as the loop measures them: `--context` gives its turns to every query that has none of
 * its own (an entry's own context is the more precise, docs/context.md). Every such query shares
 * the one array, so the agents key their standbys on it.
 */
export function withContexts(items: EvalItem[], context: readonly ContextTurn[] | undefined): EvalItem[] {
  if (context === undefined) return items;
  return items.map((item) => (item.context?.turns ? item : { ...item, context: { turns: context } }));
}

/**
 * The loop's items, each with the context its runs start with (`withContexts`), and with
 * `--versus-fresh` each query with a context twice, fresh then with it (src/measure/versus-fresh.ts).
 * The plan's estimate counts these, so it prices what the loop runs.
 */
export function loopItemsOf(
  items: EvalItem[],
  context: readonly ContextTurn[] | undefined,
  versusFresh: boolean | undefined,
): VersusFreshItems {
  const own = withContexts(items, context);
  return versusFresh ? versusFreshItems(own) : { items: own, origin: own.map((_, i) => i) };
}

/** The characters of the context each loop item starts with (0: fresh), as the plan's estimate takes them. */
export function contextCharsOf(items: readonly EvalItem[]): number[] {
  const chars = new Map<readonly ContextTurn[], number>();
  return items.map(({ context }) => {
    const turns = context?.turns;
    if (turns === undefined) return 0;
    const known = chars.get(turns) ?? describeContext(turns).chars;
    chars.set(turns, known);
    return known;
  });
}
