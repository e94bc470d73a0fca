/** One skill measured: the loop run over its sides, then the report built from the records; never writes files itself. */

import os from 'node:os';
import { DEFAULT_AGENTS } from '../agents/agent.js';
import { DEFAULT_AGENT } from '../agents/registry.js';
import { loopRuntimeOf } from '../agents/runtime.js';
import { GateError } from '../errors.js';
import { describeContext } from '../inputs/context.js';
import type { Crowd } from '../inputs/roster.js';
import { buildReport } from '../report/build/build.js';
import { describeListed } from '../report/build/listed.js';
import { attachSiblingCounts, siblingSet } from '../report/build/sibling-counts.js';
import type { Report } from '../schemas/report.js';
import { listingGateRefusal } from './listing-gate.js';
import { measureAll } from './loop.js';
import type { RunProgress } from './loop-spec.js';
import type { MeasureSettings } from './measure-settings.js';
import {
  loopBudget,
  measurementLoop,
  openLoopAgents,
  type RuntimeLookup,
  withContexts,
} from './measurement-loop.js';
import { readListings } from './read-listings.js';
import { foldRecords } from './versus-fresh.js';

/** Measure one skill (one or two descriptions) and return the report; never writes files itself. */
export async function measureSkill(
  settings: MeasureSettings,
  onRun: (p: RunProgress) => void,
  signal?: AbortSignal,
  runtimes: RuntimeLookup = loopRuntimeOf,
): Promise<Report> {
  const made = measurementLoop(settings);
  const { plan: loop, origin, listed, siblings, agents, warm } = made;
  // What the user's setup adds to every run, as the default agent reads it (counts only).
  const environment = (await runtimes(DEFAULT_AGENT).environment?.(settings.env, os.tmpdir())) ?? {
    memoryFiles: { project: 0, user: 0 },
    hooks: 0,
  };
  const listing = settings.readListing ? await readListings(settings, made, signal, runtimes) : undefined;
  if (listing) settings.onListing?.(listing);
  const refusal =
    listing && settings.listingGate
      ? listingGateRefusal(
          listing,
          loop.sides.map((s) => s.label),
        )
      : undefined;
  if (refusal !== undefined) throw new GateError(refusal);
  const budget = loopBudget(settings);
  const seam = openLoopAgents(settings, made, {
    runtimes,
    ...(settings.early ? { early: settings.early } : {}),
  });
  const measured = await measureAll(
    { ...loop, seam, planned: made.targets, ...(budget ? { budget } : {}) },
    // The loop's items may hold a query twice (--versus-fresh): progress names the query.
    (p) => onRun({ ...p, itemIndex: origin[p.itemIndex] ?? p.itemIndex }),
    signal,
  );
  const queryCount = settings.evalSet.items.length;
  const result = { ...measured, records: foldRecords(measured.records, origin, queryCount) };
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
    // Each query with the context its runs started with: the report says its summary, never its text.
    items: withContexts(settings.evalSet.items, settings.context),
    rules: settings.rules,
    timeoutSeconds: settings.timeoutSeconds,
    stub: settings.stub,
    maxRetries: settings.maxRetries,
    // An agent without a warm standby always runs cold: the launch says how the warm agent's prompts went.
    launch: warm ? 'standby' : 'cold',
    agents: (agents ?? DEFAULT_AGENTS).map((a) => ({
      ...a,
      ...(settings.agentVersions?.[a.agent] ? { version: settings.agentVersions[a.agent] } : {}),
    })),
    conflictAllowed: settings.conflictAllowed,
    aborted: result.aborted,
    interrupted: result.interrupted,
    ...(result.failure ? { stopReason: 'a temporary project could not be created' } : {}),
    environment,
    ...(settings.rosterInit ? { rosterInit: settings.rosterInit } : {}),
    ...(settings.models && settings.models.length > 1 ? { models: settings.models } : {}),
    ...(settings.lateTurns === undefined ? {} : { lateTurns: settings.lateTurns }),
    ...(settings.context ? { context: describeContext(settings.context) } : {}),
    ...(settings.versusFresh ? { versusFresh: true } : {}),
    ...(settings.contextFill === undefined ? {} : { contextFill: settings.contextFill }),
    ...(settings.roster ? { roster: rosterSummary(settings.roster.crowd) } : {}),
    ...(settings.prices ? { prices: settings.prices } : {}),
    ...(settings.budget ? { maxCostUsd: settings.budget.maxUsd } : {}),
    ...(result.budgetStop ? { budgetStop: result.budgetStop } : {}),
    ...(settings.budget?.setBy ? { budgetSetBy: settings.budget.setBy } : {}),
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

/** A roster as the report records it: the hash of what was read and its counts (docs/roster.md). */
function rosterSummary(crowd: Crowd) {
  const skills = crowd.entries.filter((e) => e.kind === 'skill').length;
  return { sha256: crowd.sha256, from: crowd.from, skills, commands: crowd.entries.length - skills };
}
