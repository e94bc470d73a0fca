import os from 'node:os';
import { codexAgent } from '../adapters/agent.js';
import type { CodexProvider } from '../adapters/codex-launch.js';
import { inheritedEnvironment } from '../adapters/environment.js';
import type { BudgetSetter, PricesIdentity } from '../cost/budget.js';
import { costOf } from '../cost/cost.js';
import type { PriceTable } from '../cost/prices.js';
import type { InitInfo } from '../decide/decision.js';
import { composeListing, listingSpaces, stubFieldsFor } from '../inputs/listing.js';
import type { EvalSet, Skill } from '../inputs/types.js';
import type { AgentId } from '../outcome.js';
import { buildReport } from '../report/build.js';
import { attachSiblingCounts, type SiblingListed, siblingSet } from '../report/siblings.js';
import type { Report } from '../shapes/report.js';
import type { RuleSettings } from '../verdict/rules.js';
import type { CodexSibling } from './codex-listed.js';
import type { EarlyStandby } from './early-standby.js';
import { describeListed } from './listed-text.js';
import { measureAll } from './loop.js';
import type { AgentTarget, Budget, LoopSpec, RunProgress, Side } from './loop-spec.js';
import { firstWaitingSpec } from './loop-targets.js';
import { claudeEnvironment, type RunDeps, realRunDeps } from './run-once.js';
import { defaultStandbyCount } from './standby.js';
import type { WaitingSpec } from './waiting-run.js';

/** Everything a measurement needs, validated by the entry (CLI flags or Action inputs). */
export interface MeasureSettings {
  skill: Skill;
  evalSet: EvalSet;
  /** The text under test: the override, or the SKILL.md description. */
  description: string;
  overridden: boolean;
  /** Paired mode: the baseline text, measured interleaved with the candidate. */
  baselineDescription?: string;
  model?: string;
  rules: RuleSettings;
  timeoutSeconds: number;
  stub: 'command' | 'skill';
  maxRetries: number;
  claudeBin: string;
  env: NodeJS.ProcessEnv;
  conflictAllowed: boolean;
  simulated: boolean;
  toolVersion: string;
  /** Told when the loop stopped for a reason of its own (e.g. no temp project could be made); the message may hold paths. */
  onStopped?: (message: string) => void;
  /** The roster a stub-less run saw, from the roster gate. */
  rosterInit?: InitInfo;
  debug?: boolean;
  /**
   * What Claude Code lists for each side, which the stubs are written from (src/measure/listed-text.ts).
   * Absent: the emulation's reading (src/inputs/listing.ts).
   */
  listed?: { candidate: string; baseline?: string; source: 'probe' | 'emulation' };
  /**
   * `--siblings`: the competing skills, each by name with the text Claude Code lists for it; every
   * run installs them beside the stub (docs/matrix.md). Absent or empty: the skill alone, as before.
   */
  siblings?: SiblingListed[];
  /** `--cross-negatives`: the eval set's items include the siblings' positives as negatives (for the report). */
  crossNegatives?: boolean;
  /** `--model a,b`: every query measured on each model, interleaved (then `model` is absent). */
  models?: string[];
  /**
   * `--agent`: the agents measured, each with the model it is asked for. One: every run on it
   * (its model is `model`/`models`). Several: every query on each, interleaved (then `model` and
   * `models` are absent). Absent: claude alone.
   */
  agents?: AgentTarget[];
  /**
   * Codex's executable and provider, when Codex is among the agents, and the siblings its runs
   * install (those Codex lists, src/measure/codex-listed.ts).
   */
  codex?: { bin: string; provider: CodexProvider; siblings?: CodexSibling[]; defaultModel?: string };
  /** Each agent's version for the report (claude's also comes from its runs' init events). */
  agentVersions?: Partial<Record<AgentId, string>>;
  /** `--late N`: turns a miss is watched for a late load (0 = off). */
  lateTurns?: number;
  /** The price table the runs are priced with (the built-in one, or `--prices`). */
  prices?: { table: PriceTable; identity: PricesIdentity };
  /**
   * `--max-cost-usd`: the budget and the first run's estimate (from the round trip). Needs `prices`.
   * `spentUsd`: what earlier measurements of the same job already spent of it (the Action's `max-cost-usd`).
   * `setBy`: who set it, for the stop's reason (absent: the CLI's `--max-cost-usd`).
   */
  budget?: { maxUsd: number; firstEstimateUsd: number; spentUsd?: number; setBy?: BudgetSetter };
  /**
   * `--standby N`: the next runs' claudes started ahead, waiting for their prompts; 0 runs every
   * run cold. Absent: `defaultStandbyCount` for this machine's cores and free memory.
   */
  standby?: number;
  /** The first claude run's standby, started before the gates (src/measure/early-standby.ts). */
  early?: EarlyStandby;
}

/**
 * The loop's budget: a finished run is priced from its usage; an unpriced one counts as estimated,
 * and so does a run whose agent reported no tokens although it paid for its prompt (Codex reports
 * usage only when a turn completes, so a run killed at its decision says nothing; docs/cost.md).
 */
function loopBudget(settings: MeasureSettings): Budget | undefined {
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

/** What of the settings the loop's spec is made from (the entries can make it before the gates). */
export type LoopSettings = Pick<
  MeasureSettings,
  | 'skill'
  | 'evalSet'
  | 'description'
  | 'overridden'
  | 'baselineDescription'
  | 'listed'
  | 'siblings'
  | 'stub'
  | 'codex'
  | 'agents'
  | 'models'
  | 'model'
  | 'env'
  | 'maxRetries'
  | 'claudeBin'
  | 'rules'
  | 'timeoutSeconds'
  | 'debug'
  | 'lateTurns'
  | 'standby'
>;

/** The loop's spec (its budget aside), and what the report needs of how it was made. */
function measurementLoop(settings: LoopSettings) {
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
    ...stubFieldsFor(listedText),
    ...(siblings.length === 0
      ? {}
      : { siblings: siblings.map((s) => ({ skillName: s.name, ...stubFieldsFor(s.listed) })) }),
  });
  const sides: Side[] = [{ label: 'candidate', stub: stubFor(listed.candidate) }];
  if (settings.baselineDescription !== undefined) {
    sides.push({
      label: 'baseline',
      stub: stubFor(listed.baseline ?? emulate(settings.baselineDescription)),
    });
  }
  // Codex gets each side's text as the SKILL.md holds it: its stub writer lists it as Codex does.
  const codexSiblings = settings.codex?.siblings ?? [];
  const codexStubs = [settings.description, settings.baselineDescription]
    .filter((description) => description !== undefined)
    .map((description) => ({
      skillName: settings.skill.name,
      description,
      ...(codexSiblings.length === 0 ? {} : { siblings: codexSiblings }),
    }));
  const agents = settings.agents && settings.agents.length > 0 ? settings.agents : undefined;
  const severalAgents = agents && agents.length > 1 ? agents : undefined;
  const claudeRuns = agents === undefined || agents.some((a) => a.agent === 'claude');
  const standby = settings.standby ?? defaultStandbyCount(os.availableParallelism(), os.freemem());
  const loop: LoopSpec = {
    items: settings.evalSet.items,
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
    ...(settings.codex
      ? {
          seam: {
            codex: codexAgent(
              settings.codex.bin,
              settings.codex.provider,
              codexStubs,
              settings.codex.defaultModel,
            ),
          },
        }
      : {}),
    standby,
  };
  return { loop, listed, siblings, agents, claudeRuns, standby };
}

/**
 * What the first claude run's standby is to be started with, as far as the settings known before
 * the gates tell it (src/measure/early-standby.ts); undefined when runs go cold or none is claude's.
 */
export function firstStandbySpec(settings: LoopSettings): WaitingSpec | undefined {
  return firstWaitingSpec(measurementLoop(settings).loop);
}

/** Measure one skill (one or two descriptions) and return the report; never writes files itself. */
export async function measureSkill(
  settings: MeasureSettings,
  onRun: (p: RunProgress) => void,
  signal?: AbortSignal,
  deps: RunDeps = realRunDeps,
): Promise<Report> {
  const { loop, listed, siblings, agents, claudeRuns, standby } = measurementLoop(settings);
  const environment = await inheritedEnvironment(settings.env, os.tmpdir());
  const budget = loopBudget(settings);
  const result = await measureAll(
    { ...loop, ...(budget ? { budget } : {}), ...(settings.early ? { early: settings.early } : {}) },
    onRun,
    signal,
    deps,
  );
  if (result.failure) settings.onStopped?.(result.failure.message);
  // Command stubs get a fresh random name per run; the skill layout uses the real name.
  // Siblings are this measurement's own entries too, not the machine's: out of the roster.
  const ownNames = [settings.skill.name, ...siblings.map((s) => s.name)];
  const stubNames = (records: (typeof result.records)[number]) => [
    ...ownNames,
    ...records
      .flat()
      .flatMap((r) =>
        r.init
          ? r.init.slashCommands.filter((n) => ownNames.some((own) => n.startsWith(`${own}-stub-`)))
          : [],
      ),
  ];
  const [candidateRecords = [], baselineRecords] = result.records;
  const report = buildReport({
    toolVersion: settings.toolVersion,
    createdAt: new Date(),
    skill: settings.skill.name,
    simulated: settings.simulated,
    ...(settings.model ? { requestedModel: settings.model } : {}),
    items: settings.evalSet.items,
    rules: settings.rules,
    timeoutSeconds: settings.timeoutSeconds,
    stub: settings.stub,
    maxRetries: settings.maxRetries,
    // An agent on the seam always runs cold: the launch says how claude's prompts went.
    launch: standby > 0 && claudeRuns ? 'standby' : 'cold',
    agents: (agents ?? [{ agent: 'claude' as const }]).map((a) => ({
      ...a,
      ...(settings.agentVersions?.[a.agent] ? { version: settings.agentVersions[a.agent] } : {}),
    })),
    conflictAllowed: settings.conflictAllowed,
    aborted: result.aborted,
    interrupted: result.interrupted,
    ...(result.failure
      ? { stopReason: 'a temporary project could not be created, so the run stopped early' }
      : {}),
    environment,
    ...(settings.rosterInit ? { rosterInit: settings.rosterInit } : {}),
    ...(settings.models && settings.models.length > 1 ? { models: settings.models } : {}),
    ...(settings.lateTurns === undefined ? {} : { lateTurns: settings.lateTurns }),
    ...(settings.prices ? { prices: settings.prices } : {}),
    ...(settings.budget ? { maxCostUsd: settings.budget.maxUsd } : {}),
    ...(result.budgetStop ? { budgetStop: result.budgetStop } : {}),
    ...(settings.budget?.setBy ? { budgetSetBy: settings.budget.setBy } : {}),
    candidate: {
      description: settings.description,
      overridden: settings.overridden,
      records: candidateRecords,
      stubNames: stubNames(candidateRecords),
    },
    ...(settings.baselineDescription !== undefined && baselineRecords
      ? {
          baseline: {
            description: settings.baselineDescription,
            overridden: true,
            records: baselineRecords,
            stubNames: stubNames(baselineRecords),
          },
        }
      : {}),
  });
  report.candidate.description.listed = describeListed(listed.candidate, listed.source);
  if (report.baseline && listed.baseline !== undefined)
    report.baseline.description.listed = describeListed(listed.baseline, listed.source);
  if (siblings.length > 0) {
    const names = siblings.map((s) => s.name);
    attachSiblingCounts(report.candidate, candidateRecords, names);
    if (report.baseline && baselineRecords) attachSiblingCounts(report.baseline, baselineRecords, names);
    report.siblings = siblingSet(siblings, settings.crossNegatives === true);
  }
  return report;
}
