/** The loop's spec and budget, made from a measurement's settings (pure but for the machine's size). */

import { type AgentId, DEFAULT_AGENTS } from '../agents/agent.js';
import { claudeEnvironment } from '../agents/claude/run-once.js';
import { machineStandbyCount } from '../agents/claude/standby.js';
import type { WaitingSpec } from '../agents/claude/waiting-run.js';
import { runtimeOf } from '../agents/runtime.js';
import { costOf } from '../cost/cost.js';
import { contextRefusal } from '../inputs/agents.js';
import type { ContextTurn } from '../inputs/context.js';
import { composeListing, listingSpaces, stubFieldsFor } from '../inputs/listing.js';
import type { EvalItem } from '../inputs/types.js';
import type { Budget, LoopSpec, SideSpec } from './loop-spec.js';
import { firstWaitingSpec } from './loop-targets.js';
import type { LoopSettings, MeasureSettings } from './measure-settings.js';
import { versusFreshItems } from './versus-fresh.js';

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

/** The loop's spec (its budget aside), and what the report needs of how it was made. */
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
  // The stub holds the listed text itself, so the CLI lists exactly what is measured.
  const siblings = settings.siblings ?? [];
  const stubFor = (listedText: string) => ({
    layout: settings.stub,
    skillName: settings.skill.name,
    ...(settings.roster?.home ? { home: settings.roster.home } : {}),
    ...stubFieldsFor(listedText),
    ...(siblings.length === 0
      ? {}
      : { siblings: siblings.map((s) => ({ skillName: s.name, ...stubFieldsFor(s.listed) })) }),
  });
  const sides: SideSpec[] = [{ label: 'candidate', stub: stubFor(listed.candidate) }];
  if (settings.baselineDescription !== undefined) {
    sides.push({
      label: 'baseline',
      stub: stubFor(listed.baseline ?? emulate(settings.baselineDescription)),
    });
  }
  // Every other agent gets each side's text as the SKILL.md holds it: its stub writer lists it as
  // that agent does.
  const descriptions = [settings.description, settings.baselineDescription].filter(
    (description) => description !== undefined,
  );
  const seam = Object.fromEntries(
    Object.entries(settings.others ?? {}).flatMap(([id, other]) => {
      const runtime = runtimeOf(id as AgentId);
      if (runtime === undefined || other === undefined) return [];
      const agent = runtime.open({
        bin: other.bin,
        env: settings.env,
        ...(other.version === undefined ? {} : { version: other.version }),
        ...(settings.roster ? { crowd: settings.roster.crowd.entries } : {}),
        stubs: {
          skillName: settings.skill.name,
          descriptions,
          siblings: other.siblings,
          ...(settings.overridden || settings.skill.fileText === undefined
            ? {}
            : { skillText: settings.skill.fileText }),
        },
      });
      return [[id, agent]];
    }),
  );
  // --versus-fresh: each query with a context twice, fresh then with it (src/measure/versus-fresh.ts).
  const items = withContexts(settings.evalSet.items, settings.context);
  // The CLI refuses this before its gates; the Action's entries reach it here, before any run.
  const refused = contextRefusal(
    settings.agents ?? DEFAULT_AGENTS,
    items.some((item) => item.context?.turns !== undefined) ? 'a context' : undefined,
  );
  if (refused) throw refused;
  const loopItems = settings.versusFresh
    ? versusFreshItems(items)
    : { items, origin: items.map((_, i) => i) };
  const agents = settings.agents && settings.agents.length > 0 ? settings.agents : undefined;
  const severalAgents = agents && agents.length > 1 ? agents : undefined;
  const claudeRuns = agents === undefined || agents.some((a) => a.agent === 'claude');
  const standby = settings.standby ?? machineStandbyCount();
  const loop: LoopSpec = {
    items: loopItems.items,
    sides,
    rules: settings.rules,
    run: {
      timeoutMs: settings.timeoutSeconds * 1000,
      claudeBin: settings.claudeBin,
      env: claudeEnvironment(settings.env, settings.maxRetries),
      ...(settings.model ? { model: settings.model } : {}),
      ...(settings.debug ? { debug: true } : {}),
      ...(settings.lateTurns ? { lateTurns: settings.lateTurns } : {}),
    },
    ...(settings.models && settings.models.length > 0 ? { models: settings.models } : {}),
    ...(agents?.length === 1 && agents[0] ? { agent: agents[0].agent } : {}),
    ...(severalAgents ? { agents: severalAgents } : {}),
    ...(Object.keys(seam).length === 0 ? {} : { seam }),
    standby,
  };
  return { loop, origin: loopItems.origin, listed, siblings, agents, claudeRuns, standby };
}

/**
 * What the first claude run's standby is to be started with, as far as the settings known before
 * the gates tell it (src/agents/claude/early-standby.ts); undefined when runs go cold or none is claude's.
 */
export function firstStandbySpec(settings: LoopSettings): WaitingSpec | undefined {
  return firstWaitingSpec(measurementLoop(settings).loop);
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
