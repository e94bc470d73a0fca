/**
 * Claude Code's gates (docs/design.md) in order: cli, auth, round-trip, conflict, sleep, roster.
 * The round trip runs stub-less in a fresh repository root, so its init event is the roster every
 * measured run shares: one `claude -p` serves both gates. A gate that cannot run after an earlier
 * failure is `skip`. Never throws for a failing gate; the caller refuses on a failed one.
 * Once the cli gate passes, `auth status`, `plugin list`, the round trip, the machine's sleep gate
 * and the environment reading run side by side (docs/speed.md); results are judged and reported in
 * gate order all the same, and a failed auth gate stops the round trip and reports it skipped.
 */
import os from 'node:os';
import { messageOf } from '../../errors.js';
import { onPath } from '../../system/program-on-path.js';
import {
  type AgentGateSettings,
  type AgentGates,
  type GateFindings,
  type GateResult,
  gateResult,
} from '../gates.js';
import { createScratchProject, type ScratchProject } from '../process/stub-project.js';
import type { InitInfo } from '../runs.js';
import { type ClaudeCommandResult, runClaudeCommand } from './command.js';
import { inheritedEnvironment } from './environment.js';
import { judgeAuth } from './gates/auth.js';
import { judgeCli, withGitFinding } from './gates/cli.js';
import { conflictGate } from './gates/conflict-gate.js';
import { GateRecorder } from './gates/gate-order.js';
import { judgeRoster, type RosterFinding } from './gates/roster.js';
import { combineRoundTrips } from './gates/round-trip.js';
import { type RoundTrips, runRoundTrips } from './gates/round-trips.js';
import { claudeEnvironment, GATE_COMMANDS, roundTripArgs } from './launch.js';
import type { RoundTripReading } from './one-turn.js';

const COMMAND_TIMEOUT_MS = 30_000;
const ROUND_TRIP_TIMEOUT_MS = 60_000;

/** What Claude Code's gates share as they run, and what they started (for the clean-up). */
interface ClaudeGates {
  settings: AgentGateSettings;
  env: NodeJS.ProcessEnv;
  recorder: GateRecorder;
  outcome: GateFindings;
  claude(args: string[], cwd: string, timeoutMs?: number, signal?: AbortSignal): Promise<ClaudeCommandResult>;
  interrupted(): boolean;
  scratch?: ScratchProject;
  listing?: Promise<ClaudeCommandResult>;
  sleeping?: Promise<GateResult>;
  roundTrips?: Promise<RoundTrips>;
}

/** Claude Code's gates, the machine's sleep gate in its place among them (`settings.sleep`). */
export async function claudeGates(settings: AgentGateSettings): Promise<AgentGates> {
  const env = claudeEnvironment(settings.env, settings.maxRetries);
  const commandTimeoutMs = settings.commandTimeoutMs ?? COMMAND_TIMEOUT_MS;
  const run: ClaudeGates = {
    settings,
    env,
    recorder: new GateRecorder(settings.onGate),
    outcome: { conflictAllowed: false, reminders: [] },
    claude: (args, cwd, timeoutMs = commandTimeoutMs, signal = settings.signal) =>
      runClaudeCommand(settings.bin, args, { env, cwd, timeoutMs, ...(signal ? { signal } : {}) }),
    interrupted: () => settings.signal?.aborted === true,
  };
  try {
    if (!(await cliGate(run))) return finish(run);
    const started = await startSideBySide(run);
    // auth
    const auth = judgeAuth(await started.authAnswer);
    if (run.interrupted()) return finish(run);
    run.recorder.record(auth);
    // round-trip (and the roster's init event)
    const reading = await roundTripGate(run, auth, started);
    if (reading === undefined) return finish(run);
    // conflict (and the toggles bookkeeping)
    const listed = await started.listing;
    if (run.interrupted()) return finish(run);
    run.recorder.record(await conflictGate(settings, listed, reading, run.outcome));
    // sleep
    run.recorder.record(await started.sleeping);
    // roster
    run.recorder.record(await rosterGate(run, reading, started));
    return finish(run);
  } finally {
    await cleanUp(run);
  }
}

/** The cli gate (with git's finding); false: stop here, the gates after it skipped or interrupted. */
async function cliGate(run: ClaudeGates): Promise<boolean> {
  const version = await run.claude([...GATE_COMMANDS.version], os.tmpdir());
  if (run.interrupted()) return false;
  const cli = judgeCli(run.settings.bin, version);
  run.recorder.record(withGitFinding(cli.result, await onPath('git', run.env.PATH)));
  if (cli.result.status === 'fail') {
    run.recorder.skipRest('needs a working Claude CLI (see the cli gate)');
    return false;
  }
  if (cli.version) run.outcome.cliVersion = cli.version;
  return true;
}

/**
 * What the later gates read and do not depend on each other for starts now, side by side (they
 * are not measured runs); each is judged after, in gate order, as before. The round trip starts
 * with them too: without a login it cannot send a request (the CLI stops at "Not logged in",
 * none reaches the API), and when the auth gate fails it is stopped and reported skipped.
 * Measured (docs/speed.md): ~160 ms less for the gates than after the auth gate.
 */
async function startSideBySide(run: ClaudeGates) {
  const { settings } = run;
  let scratchError: string | undefined;
  try {
    run.scratch = await createScratchProject();
  } catch (error) {
    scratchError = `could not make a temp project: ${messageOf(error)}`;
  }
  const cwd = run.scratch?.dir ?? os.tmpdir();
  /** Stops the round trips started beside the auth gate, when that gate fails. */
  const notNeeded = new AbortController();
  const authAnswer = run.claude([...GATE_COMMANDS.authStatus], cwd);
  if (!scratchError) {
    const signal = settings.signal ? AbortSignal.any([settings.signal, notNeeded.signal]) : notNeeded.signal;
    const roundTripTimeoutMs = settings.roundTripTimeoutMs ?? ROUND_TRIP_TIMEOUT_MS;
    const asked = { ...settings, timeoutMs: roundTripTimeoutMs };
    run.roundTrips = runRoundTrips(asked, run.outcome.cliVersion, (model) =>
      run.claude(roundTripArgs(model), cwd, roundTripTimeoutMs, signal),
    );
  }
  const listing = run.claude([...GATE_COMMANDS.pluginList], cwd);
  run.listing = listing;
  const sleeping = settings.sleep?.() ?? Promise.resolve(gateResult('sleep', 'skip', 'not run'));
  run.sleeping = sleeping;
  const inherited = inheritedEnvironment(settings.env, os.tmpdir());
  inherited.catch(() => undefined); // awaited only when the roster is read
  return { scratchError, notNeeded, authAnswer, roundTrips: run.roundTrips, listing, sleeping, inherited };
}

type Started = Awaited<ReturnType<typeof startSideBySide>>;

/**
 * The round-trip gate: skipped after a failed login (its runs stopped), failed without a temp
 * project, else judged over every model. Undefined: interrupted while it ran.
 */
async function roundTripGate(
  run: ClaudeGates,
  auth: GateResult,
  { scratchError, notNeeded, roundTrips }: Started,
): Promise<RoundTripReading | undefined> {
  if (auth.status === 'fail') {
    notNeeded.abort();
    await roundTrips;
    run.recorder.record(gateResult('round-trip', 'skip', 'needs a login (see the auth gate)'));
    return { initPlugins: [] };
  }
  if (scratchError || !roundTrips) {
    run.recorder.record(
      gateResult(
        'round-trip',
        'fail',
        scratchError ?? 'could not make a temp project',
        'check that the temp folder is writable',
      ),
    );
    return { initPlugins: [] };
  }
  const trips = await roundTrips;
  if (run.interrupted()) return undefined;
  run.outcome.roundTripUsage = trips.usage;
  run.outcome.roundTripModels = trips.reportedModels;
  run.outcome.roundTripMessageModels = trips.messageModels;
  run.recorder.record(combineRoundTrips(trips.judged));
  return trips.reading;
}

/** The roster gate: the stub-less run's init event (the CLI version filled in) and the inherited environment. */
async function rosterGate(
  run: ClaudeGates,
  reading: RoundTripReading,
  { scratchError, inherited }: Started,
): Promise<GateResult> {
  const { outcome } = run;
  let finding: RosterFinding | undefined;
  if (reading.init) {
    const rosterInit: InitInfo = {
      ...reading.init,
      ...(reading.init.cliVersion === undefined && outcome.cliVersion
        ? { cliVersion: outcome.cliVersion }
        : {}),
    };
    const environment = await inherited;
    finding = { init: rosterInit, environment };
    outcome.rosterInit = rosterInit;
    outcome.environment = environment;
  }
  return judgeRoster(
    finding,
    run.recorder.get('round-trip')?.status === 'skip' || scratchError
      ? 'needs the stub-less run of the round-trip gate'
      : 'the stub-less run printed no init event',
  );
}

/** Nothing started is left running: an early return (an interrupt) waits for the side-by-side commands. */
async function cleanUp(run: ClaudeGates): Promise<void> {
  await run.listing?.catch(() => undefined);
  await run.roundTrips?.catch(() => undefined);
  await run.sleeping?.catch(() => undefined);
  await run.scratch?.remove();
}

function finish(run: ClaudeGates): AgentGates {
  const interrupted = run.interrupted();
  if (interrupted) run.recorder.skipRest('interrupted');
  const { outcome } = run;
  return {
    gates: run.recorder.gates(),
    interrupted,
    conflictAllowed: outcome.conflictAllowed,
    ...(outcome.cliVersion === undefined ? {} : { version: outcome.cliVersion }),
    findings: outcome,
  };
}
