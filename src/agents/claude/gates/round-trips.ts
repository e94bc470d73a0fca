import type { Usage } from '../../../outcome.js';
import type { GateResult } from '../../gates.js';
import type { ClaudeCommandResult } from '../command.js';
import { type RoundTripReading, readRoundTrip } from '../one-turn.js';
import { judgeRoundTrip } from './round-trip.js';

/** What the round trips of every model asked for read, as `runPreflight` keeps it. */
export interface RoundTrips {
  /** The first model's reading: its stub-less run is the roster every measured run shares. */
  reading: RoundTripReading;
  judged: GateResult[];
  usage: Record<string, Usage>;
  reportedModels: Record<string, string>;
  messageModels: Record<string, string>;
}

/**
 * The round trip of each model, one after another (never two model calls at once), each judged
 * alone. An interrupt or a stop ends the sequence after the call it cut; what was read is kept.
 */
export async function runRoundTrips(
  settings: { model?: string; models?: string[]; timeoutMs: number },
  cliVersion: string | undefined,
  call: (model: string | undefined) => Promise<ClaudeCommandResult>,
): Promise<RoundTrips> {
  const models: (string | undefined)[] =
    settings.models && settings.models.length > 0 ? settings.models : [settings.model];
  const trips: RoundTrips = {
    reading: { initPlugins: [] },
    judged: [],
    usage: {},
    reportedModels: {},
    messageModels: {},
  };
  for (const model of models) {
    const started = performance.now();
    const run = await call(model);
    if (run.aborted) break;
    const modelReading = readRoundTrip(run.stdout);
    if (trips.judged.length === 0) trips.reading = modelReading;
    const key = model ?? 'default';
    if (modelReading.usage) trips.usage[key] = modelReading.usage;
    if (modelReading.init?.model) trips.reportedModels[key] = modelReading.init.model;
    if (modelReading.messageModel) trips.messageModels[key] = modelReading.messageModel;
    trips.judged.push(
      judgeRoundTrip(modelReading, run, {
        ...(model ? { model } : {}),
        ...(cliVersion ? { cliVersion } : {}),
        timeoutMs: settings.timeoutMs,
        durationMs: performance.now() - started,
      }),
    );
  }
  return trips;
}
