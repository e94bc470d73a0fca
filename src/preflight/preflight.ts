import os from 'node:os';
import {
  type AgentGates,
  type AgentId,
  DEFAULT_AGENTS,
  type GateResult,
  gateResult,
  type InitInfo,
} from '../agents/agent.js';
import { type ClaudeCommandResult, runClaudeCommand } from '../agents/claude/command.js';
import { type InheritedEnvironment, inheritedEnvironment } from '../agents/claude/environment.js';
import { judgeAuth } from '../agents/claude/gates/auth.js';
import { judgeCli, withGitFinding } from '../agents/claude/gates/cli.js';
import { conflictGate } from '../agents/claude/gates/conflict-gate.js';
import { judgeRoster, type RosterFinding } from '../agents/claude/gates/roster.js';
import { combineRoundTrips } from '../agents/claude/gates/round-trip.js';
import { type RoundTrips, runRoundTrips } from '../agents/claude/gates/round-trips.js';
import { claudeEnvironment, GATE_COMMANDS, roundTripArgs } from '../agents/claude/launch.js';
import type { RoundTripReading } from '../agents/claude/one-turn.js';
import { createScratchProject, type ScratchProject } from '../agents/process/stub-project.js';
import { agentFacts, DEFAULT_AGENT } from '../agents/registry.js';
import { messageOf } from '../errors.js';
import type { Usage } from '../outcome.js';
import type { RememberedToggle } from '../schemas/toggles.js';
import { onPath } from '../system/program-on-path.js';
import { preflightAgents } from './agents.js';
import { GateRecorder } from './gate-order.js';
import type { PreflightSettings } from './settings.js';
import { holdOffSleep, type SleepHolder } from './sleep.js';

export type { PreflightSettings } from './settings.js';

export interface PreflightResult {
  /** One result per gate, in the order of `GATE_NAMES`. */
  gates: GateResult[];
  /** No gate failed (and the preflight was not interrupted): measuring may start. */
  passed: boolean;
  interrupted: boolean;
  cliVersion?: string;
  /**
   * Each round trip's tokens, keyed by the model asked for (`default` without `--model`): what a
   * stub-less run of that model costs, the estimate `--max-cost-usd` starts from.
   */
  roundTripUsage?: Record<string, Usage>;
  /** The model each round trip's init event reported, keyed as `roundTripUsage` (an alias resolved). */
  roundTripModels?: Record<string, string>;
  /** The model each round trip's answer named (`message.model`), keyed as `roundTripUsage`: two spellings of one model meet here. */
  roundTripMessageModels?: Record<string, string>;
  /** The stub-less run's init event (CLI version filled in from `--version` if missing): `MeasureSettings.rosterInit`. */
  rosterInit?: InitInfo;
  environment?: InheritedEnvironment;
  /** A conflict was found (or could not be ruled out) and `--allow-conflict` measures anyway: the report's `conflictAllowed`. */
  conflictAllowed: boolean;
  /** Plugins disabled on an earlier preflight's advice and still disabled: remind to re-enable. */
  reminders: RememberedToggle[];
  /** Ends the sleep holder; call once measuring is over (process exit ends it too). */
  release(): void;
  /** What each other agent's gates found: its version, its round trip's tokens. */
  agentGates?: Partial<Record<AgentId, AgentGates>>;
}

const COMMAND_TIMEOUT_MS = 30_000;
const ROUND_TRIP_TIMEOUT_MS = 60_000;

/**
 * Run the gates (docs/design.md) in order: cli, auth, round-trip, conflict, sleep, roster. The
 * round-trip runs stub-less in a fresh repository root, so its init event is the roster
 * every measured run shares: one `claude -p` serves both gates. A gate that cannot run after an
 * earlier failure is `skip`. Never throws for a failing gate; the caller refuses on `!passed`.
 * Once the cli gate passes, `auth status`, `plugin list`, the round trip, the sleep holder and the
 * environment reading run side by side (docs/speed.md); results are judged and reported in gate order all
 * the same, and a failed auth gate stops the round trip and reports it skipped.
 */
export async function runPreflight(settings: PreflightSettings): Promise<PreflightResult> {
  const agents = settings.agents ?? DEFAULT_AGENTS;
  if (agents.length === 1 && agents[0]?.agent === DEFAULT_AGENT) return runClaudePreflight(settings);
  return preflightAgents(settings, agents, runClaudePreflight);
}

type Outcome = Omit<PreflightResult, 'gates' | 'passed' | 'interrupted' | 'release'>;

/** What Claude Code's gates share as they run, and what they started (for the clean-up). */
interface ClaudeGates {
  settings: PreflightSettings;
  env: NodeJS.ProcessEnv;
  recorder: GateRecorder;
  outcome: Outcome;
  claude(args: string[], cwd: string, timeoutMs?: number, signal?: AbortSignal): Promise<ClaudeCommandResult>;
  interrupted(): boolean;
  scratch?: ScratchProject;
  listing?: Promise<ClaudeCommandResult>;
  sleeping?: ReturnType<typeof holdOffSleep>;
  roundTrips?: Promise<RoundTrips>;
  /** The sleep holder, once the sleep gate took it: handed over to the caller by `release`. */
  holder?: SleepHolder;
}

/** Claude Code's gates (see `runPreflight`). */
async function runClaudePreflight(settings: PreflightSettings): Promise<PreflightResult> {
  const env = claudeEnvironment(settings.env, settings.maxRetries);
  const commandTimeoutMs = settings.commandTimeoutMs ?? COMMAND_TIMEOUT_MS;
  const run: ClaudeGates = {
    settings,
    env,
    recorder: new GateRecorder(settings.onGate),
    outcome: { conflictAllowed: false, reminders: [] },
    claude: (args, cwd, timeoutMs = commandTimeoutMs, signal = settings.signal) =>
      runClaudeCommand(defaultBin(settings), args, { env, cwd, timeoutMs, ...(signal ? { signal } : {}) }),
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
    const sleep = await started.sleeping;
    run.holder = sleep.holder;
    run.recorder.record(sleep.result);
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
  const cli = judgeCli(defaultBin(run.settings), version);
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
  const sleeping = holdOffSleep({
    env: settings.env,
    ...(settings.platform ? { platform: settings.platform } : {}),
  });
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

/**
 * Nothing started is left running: an early return (an interrupt) waits for the side-by-side
 * commands, and a sleep holder it did not hand over is ended.
 */
async function cleanUp(run: ClaudeGates): Promise<void> {
  await run.listing?.catch(() => undefined);
  await run.roundTrips?.catch(() => undefined);
  const sleep = await run.sleeping?.catch(() => undefined);
  if (sleep?.holder && sleep.holder !== run.holder) sleep.holder.release();
  await run.scratch?.remove();
}

function defaultBin(settings: PreflightSettings): string {
  return settings.bins?.[DEFAULT_AGENT] ?? agentFacts(DEFAULT_AGENT).bin;
}

function finish(run: ClaudeGates): PreflightResult {
  const wasInterrupted = run.interrupted();
  if (wasInterrupted) run.recorder.skipRest('interrupted');
  const gates = run.recorder.gates();
  const release = () => run.holder?.release();
  if (wasInterrupted) release();
  return {
    ...run.outcome,
    gates,
    passed: !wasInterrupted && gates.every((g) => g.status !== 'fail'),
    interrupted: wasInterrupted,
    release,
  };
}
