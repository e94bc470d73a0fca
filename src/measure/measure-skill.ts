/** One skill measured: the loop run over its sides, then the report built from the records; never writes files itself. */

import os from 'node:os';
import { DEFAULT_AGENT } from '../agents/registry.js';
import { loopRuntimeOf } from '../agents/runtime.js';
import { GateError } from '../errors.js';
import type { ListingRead } from '../report/build/listing.js';
import type { Report } from '../schemas/report.js';
import { listingGateRefusal } from './listing-gate.js';
import { measureAll } from './loop.js';
import type { LoopResult, RunProgress } from './loop-spec.js';
import type { MeasureSettings } from './measure-settings.js';
import {
  loopBudget,
  type MeasurementLoop,
  measurementLoop,
  openLoopAgents,
  type RuntimeLookup,
} from './measurement-loop.js';
import { readListings } from './read-listings.js';
import { skillReport } from './skill-report.js';
import { foldRecords } from './versus-fresh.js';

/** Measure one skill (one or two descriptions) and return the report; never writes files itself. */
export async function measureSkill(
  settings: MeasureSettings,
  onRun: (p: RunProgress) => void,
  signal?: AbortSignal,
  runtimes: RuntimeLookup = loopRuntimeOf,
): Promise<Report> {
  const made = measurementLoop(settings);
  // What the user's setup adds to every run, as the default agent reads it (counts only).
  const environment = (await runtimes(DEFAULT_AGENT).environment?.(settings.env, os.tmpdir())) ?? {
    memoryFiles: { project: 0, user: 0 },
    hooks: 0,
  };
  const listing = await listingBeforeRuns(settings, made, signal, runtimes);
  const result = await runLoop(settings, made, onRun, signal, runtimes);
  return skillReport(settings, made, { ...result, environment, ...(listing ? { listing } : {}) });
}

/**
 * Each side's listing as its runs will send it, read before the runs when asked for and told to
 * the caller; with the listing gate, a stub listed worse than the skill itself refuses (exit 2).
 */
async function listingBeforeRuns(
  settings: MeasureSettings,
  made: MeasurementLoop,
  signal: AbortSignal | undefined,
  runtimes: RuntimeLookup,
): Promise<ListingRead | undefined> {
  if (!settings.readListing) return undefined;
  const listing = await readListings(settings, made, signal, runtimes);
  settings.onListing?.(listing);
  const refusal = settings.listingGate
    ? listingGateRefusal(
        listing,
        made.plan.sides.map((s) => s.label),
      )
    : undefined;
  if (refusal !== undefined) throw new GateError(refusal);
  return listing;
}

/** The loop over the plan, each agent opened for it; its records folded back onto the queries. */
async function runLoop(
  settings: MeasureSettings,
  made: MeasurementLoop,
  onRun: (p: RunProgress) => void,
  signal: AbortSignal | undefined,
  runtimes: RuntimeLookup,
): Promise<LoopResult> {
  const budget = loopBudget(settings);
  const seam = openLoopAgents(settings, made, {
    runtimes,
    ...(settings.early ? { early: settings.early } : {}),
  });
  const { origin } = made;
  const measured = await measureAll(
    { ...made.plan, seam, planned: made.targets, ...(budget ? { budget } : {}) },
    // The loop's items may hold a query twice (--versus-fresh): progress names the query.
    (p) => onRun({ ...p, itemIndex: origin[p.itemIndex] ?? p.itemIndex }),
    signal,
  );
  const result = {
    ...measured,
    records: foldRecords(measured.records, origin, settings.evalSet.items.length),
  };
  if (result.failure) settings.onStopped?.(result.failure.message);
  return result;
}
