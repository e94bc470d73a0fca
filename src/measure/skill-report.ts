/** One skill's measurement as its report: the loop's records, the listing and how the runs were made. */
import type { InheritedSetup } from '../agents/gates.js';
import { type AgentId, DEFAULT_AGENTS } from '../agents/ids.js';
import { DEFAULT_AGENT } from '../agents/registry.js';
import { describeContext } from '../inputs/context.js';
import { memorySummaries } from '../inputs/memory.js';
import type { Crowd } from '../inputs/roster.js';
import { buildReport } from '../report/build/build.js';
import { describeListed } from '../report/build/listed.js';
import type { ListingRead } from '../report/build/listing.js';
import { attachSiblingCounts, siblingSet } from '../report/build/sibling-counts.js';
import type { AgentListing, Measurement, Report } from '../schemas/report.js';
import type { LoopResult, RunResult } from './loop-spec.js';
import type { MeasureSettings } from './measure-settings.js';
import { type MeasurementLoop, withContexts } from './measurement-loop.js';

/** What the measurement found besides its settings: the records, what the setup adds, the listing. */
export interface Measured extends LoopResult {
  environment: InheritedSetup;
  listing?: ListingRead;
}

/** The report of one skill's measurement, built from what was measured. */
export function skillReport(settings: MeasureSettings, made: MeasurementLoop, result: Measured): Report {
  const { listed, siblings } = made;
  const { listing } = result;
  const stubNames = stubNamesOf(settings.skill.name, siblings);
  const [candidateRecords = [], baselineRecords] = result.records;
  const report = buildReport({
    ...settingsInput(settings, made, result),
    candidate: {
      description: settings.description,
      overridden: settings.overridden,
      records: candidateRecords,
      stubNames: stubNames(candidateRecords),
      ...(listing?.sides[0] ? { listing: listing.sides[0] } : {}),
    },
    ...(settings.baselineDescription !== undefined && baselineRecords
      ? {
          baseline: {
            description: settings.baselineDescription,
            overridden: true,
            records: baselineRecords,
            stubNames: stubNames(baselineRecords),
            ...(listing?.sides[1] ? { listing: listing.sides[1] } : {}),
          },
        }
      : {}),
  });
  stubTextLengths(report.candidate, { default: listed.candidate, other: settings.description });
  if (report.baseline && settings.baselineDescription !== undefined)
    stubTextLengths(report.baseline, {
      default: listed.baseline ?? settings.baselineDescription,
      other: settings.baselineDescription,
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

/**
 * The stub names a side's runs used, to keep them out of the roster: command stubs get a fresh
 * random name per run, the skill layout the real name; siblings are this measurement's own entries
 * too, not the machine's.
 */
function stubNamesOf(skillName: string, siblings: readonly { name: string }[]) {
  const ownNames = [skillName, ...siblings.map((s) => s.name)];
  return (records: readonly (readonly RunResult[])[]): string[] => [
    ...ownNames,
    ...records
      .flat()
      .flatMap((r) =>
        r.init
          ? r.init.slashCommands.filter((n) => ownNames.some((own) => n.startsWith(`${own}-stub-`)))
          : [],
      ),
  ];
}

/** What the report says of how the runs were made and how the loop ended, its sides aside. */
function settingsInput(settings: MeasureSettings, made: MeasurementLoop, result: Measured) {
  return {
    toolVersion: settings.toolVersion,
    createdAt: new Date(),
    skill: settings.skill.name,
    simulated: settings.simulated,
    ...(settings.model ? { requestedModel: settings.model } : {}),
    // Each query with the context its runs started with: the report says its summary, never its text.
    items: withContexts(settings.evalSet.items, settings.context),
    rules: settings.rules,
    timeoutSeconds: settings.timeoutSeconds,
    stub: settings.stub,
    maxRetries: settings.maxRetries,
    // An agent without a warm standby always runs cold: the launch says how the warm agent's prompts went.
    launch: made.warm ? ('standby' as const) : ('cold' as const),
    agents: (made.agents ?? DEFAULT_AGENTS).map((a) => ({
      ...a,
      ...(settings.agentVersions?.[a.agent] ? { version: settings.agentVersions[a.agent] } : {}),
    })),
    conflictAllowed: settings.conflictAllowed,
    aborted: result.aborted,
    interrupted: result.interrupted,
    ...(result.failure ? { stopReason: 'a temporary project could not be created' } : {}),
    environment: result.environment,
    ...(settings.rosterInit ? { rosterInit: settings.rosterInit } : {}),
    ...(settings.models && settings.models.length > 1 ? { models: settings.models } : {}),
    ...(settings.lateTurns === undefined ? {} : { lateTurns: settings.lateTurns }),
    ...(settings.context ? { context: describeContext(settings.context) } : {}),
    ...(settings.versusFresh ? { versusFresh: true } : {}),
    ...(settings.contextFill === undefined ? {} : { contextFill: settings.contextFill }),
    ...(settings.roster
      ? {
          roster: {
            ...rosterSummary(settings.roster.crowd),
            ...(settings.roster.versusClean ? { versusClean: true as const } : {}),
          },
        }
      : {}),
    ...(settings.memory && settings.memory.length > 0 ? { memory: memorySummaries(settings.memory) } : {}),
    ...(settings.prices ? { prices: settings.prices } : {}),
    ...(settings.budget ? { maxCostUsd: settings.budget.maxUsd } : {}),
    ...(result.budgetStop ? { budgetStop: result.budgetStop } : {}),
    ...(settings.budget?.setBy ? { budgetSetBy: settings.budget.setBy } : {}),
  };
}

/** A roster as the report records it: the hash of what was read and its counts (docs/roster.md). */
function rosterSummary(crowd: Crowd) {
  const skills = crowd.entries.filter((e) => e.kind === 'skill').length;
  return { sha256: crowd.sha256, from: crowd.from, skills, commands: crowd.entries.length - skills };
}

/**
 * Each agent's listing of a side records its stub's whole text in the listing's unit (the room it
 * needs, listed or not): the default agent lists the listed text, the others the SKILL.md's
 * description (docs/listing-budget.md).
 */
function stubTextLengths(m: Measurement, texts: { default: string; other: string }): void {
  for (const [agent, listing] of Object.entries(m.listing ?? {}) as Array<[AgentId, AgentListing]>) {
    const text = agent === DEFAULT_AGENT ? texts.default : texts.other;
    listing.stub.text = listing.unit === 'bytes' ? Buffer.byteLength(text, 'utf8') : Array.from(text).length;
  }
}
