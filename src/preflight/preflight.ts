import os from 'node:os';
import {
  type AgentChoice,
  type AgentGates,
  type AgentId,
  DEFAULT_AGENTS,
  GATE_NAMES,
  type GateName,
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
import { DEFAULT_AGENT } from '../agents/registry.js';
import { messageOf } from '../errors.js';
import type { Usage } from '../outcome.js';
import type { RememberedToggle } from '../schemas/toggles.js';
import { onPath } from '../system/program-on-path.js';
import { preflightAgents } from './agents.js';
import { holdOffSleep, type SleepHolder } from './sleep.js';

/** What the gates need; the CLI builds it from flags, the Action from inputs. */
export interface PreflightSettings {
  /**
   * The agents the measurement runs on, each with its model when there are several (default: the
   * default agent alone, with `model`/`models`); each agent's gates run.
   */
  agents?: readonly AgentChoice[];
  claudeBin: string;
  /** Each other agent's executable, for its gates (default: its own, on PATH). */
  bins?: Partial<Record<AgentId, string>>;
  /** Tests only: the machine-wide skills folder each other agent's conflict gate reads. */
  systemSkillsFolders?: Partial<Record<AgentId, string>>;
  /** The user's environment; claude gets it as a measured run would (`claudeEnvironment`). */
  env: NodeJS.ProcessEnv;
  /** `CLAUDE_CODE_MAX_RETRIES` for the round-trip, as for the runs. */
  maxRetries: number;
  model?: string;
  /** `--model a,b`: the round trip runs once for each (then `model` is ignored). */
  models?: string[];
  /** The skill's name, for the conflict gate; without it only the plugin list is checked. */
  skillName?: string;
  /** Several skills' names (the Action measures every changed skill after one preflight); checked each, with `skillName`. */
  skillNames?: string[];
  /** The results folder, which holds the toggles file. */
  out: string;
  allowConflict: boolean;
  /** Bound for `--version`, `auth status`, `plugin list` (default 30 s). */
  commandTimeoutMs?: number;
  /** Bound for the round-trip (default 60 s: a 400 alone costs ~6 s of re-sends). */
  roundTripTimeoutMs?: number;
  signal?: AbortSignal;
  /** Called as each gate's result is known, in gate order. */
  onGate?: (result: GateResult) => void;
  /** Tests only: the sleep gate's platform. */
  platform?: NodeJS.Platform;
  now?: () => Date;
}

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

/** Claude Code's gates (see `runPreflight`). */
async function runClaudePreflight(settings: PreflightSettings): Promise<PreflightResult> {
  const results = new Map<GateName, GateResult>();
  let next = 0;
  /** Report results in gate order, however they complete. */
  const record = (result: GateResult) => {
    results.set(result.gate, result);
    while (next < GATE_NAMES.length) {
      const name = GATE_NAMES[next];
      const ready = name === undefined ? undefined : results.get(name);
      if (!ready) break;
      settings.onGate?.(ready);
      next++;
    }
  };
  const skipRest = (reason: string) => {
    for (const gate of GATE_NAMES) if (!results.has(gate)) record(gateResult(gate, 'skip', reason));
  };
  const env = claudeEnvironment(settings.env, settings.maxRetries);
  const commandTimeoutMs = settings.commandTimeoutMs ?? COMMAND_TIMEOUT_MS;
  const roundTripTimeoutMs = settings.roundTripTimeoutMs ?? ROUND_TRIP_TIMEOUT_MS;
  const claude = (
    args: string[],
    cwd: string,
    timeoutMs = commandTimeoutMs,
    signal = settings.signal,
  ): Promise<ClaudeCommandResult> =>
    runClaudeCommand(settings.claudeBin, args, {
      env,
      cwd,
      timeoutMs,
      ...(signal ? { signal } : {}),
    });
  const interrupted = () => settings.signal?.aborted === true;

  let holder: SleepHolder | undefined;
  let scratch: ScratchProject | undefined;
  let listing: Promise<ClaudeCommandResult> | undefined;
  let sleeping: ReturnType<typeof holdOffSleep> | undefined;
  let roundTrips: Promise<RoundTrips> | undefined;
  /** Stops the round trips started beside the auth gate, when that gate fails. */
  const notNeeded = new AbortController();
  const outcome: Omit<PreflightResult, 'gates' | 'passed' | 'interrupted' | 'release'> = {
    conflictAllowed: false,
    reminders: [],
  };
  try {
    // cli
    const version = await claude([...GATE_COMMANDS.version], os.tmpdir());
    if (interrupted()) return finish();
    const cli = judgeCli(settings.claudeBin, version);
    record(withGitFinding(cli.result, await onPath('git', env.PATH)));
    if (cli.result.status === 'fail') {
      skipRest('needs a working Claude CLI (see the cli gate)');
      return finish();
    }
    if (cli.version) outcome.cliVersion = cli.version;

    let scratchError: string | undefined;
    try {
      scratch = await createScratchProject();
    } catch (error) {
      scratchError = `could not make a temp project: ${messageOf(error)}`;
    }
    const cwd = scratch?.dir ?? os.tmpdir();

    // What the later gates read and do not depend on each other for starts now, side by side (they
    // are not measured runs); each is judged below in gate order, as before. The round trip starts
    // with them too: without a login it cannot send a request (the CLI stops at "Not logged in",
    // none reaches the API), and when the auth gate fails it is stopped and reported skipped.
    // Measured (docs/speed.md): ~160 ms less for the gates than after the auth gate.
    const authAnswer = claude([...GATE_COMMANDS.authStatus], cwd);
    if (!scratchError) {
      const signal = settings.signal
        ? AbortSignal.any([settings.signal, notNeeded.signal])
        : notNeeded.signal;
      const asked = { ...settings, timeoutMs: roundTripTimeoutMs };
      roundTrips = runRoundTrips(asked, outcome.cliVersion, (model) =>
        claude(roundTripArgs(model), cwd, roundTripTimeoutMs, signal),
      );
    }
    listing = claude([...GATE_COMMANDS.pluginList], cwd);
    sleeping = holdOffSleep({
      env: settings.env,
      ...(settings.platform ? { platform: settings.platform } : {}),
    });
    const inherited = inheritedEnvironment(settings.env, os.tmpdir());
    inherited.catch(() => undefined); // awaited only when the roster is read

    // auth
    const auth = judgeAuth(await authAnswer);
    if (interrupted()) return finish();
    record(auth);

    // round-trip (and the roster's init event)
    let reading: RoundTripReading = { initPlugins: [] };
    if (auth.status === 'fail') {
      notNeeded.abort();
      await roundTrips;
      record(gateResult('round-trip', 'skip', 'needs a login (see the auth gate)'));
    } else if (scratchError || !roundTrips) {
      record(
        gateResult(
          'round-trip',
          'fail',
          scratchError ?? 'could not make a temp project',
          'check that the temp folder is writable',
        ),
      );
    } else {
      const trips = await roundTrips;
      if (interrupted()) return finish();
      reading = trips.reading;
      outcome.roundTripUsage = trips.usage;
      outcome.roundTripModels = trips.reportedModels;
      outcome.roundTripMessageModels = trips.messageModels;
      record(combineRoundTrips(trips.judged));
    }

    // conflict (and the toggles bookkeeping)
    const listed = await listing;
    if (interrupted()) return finish();
    record(await conflictGate(settings, listed, reading, outcome));

    // sleep
    const sleep = await sleeping;
    holder = sleep.holder;
    record(sleep.result);

    // roster
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
    record(
      judgeRoster(
        finding,
        results.get('round-trip')?.status === 'skip' || scratchError
          ? 'needs the stub-less run of the round-trip gate'
          : 'the stub-less run printed no init event',
      ),
    );
    return finish();
  } finally {
    // Nothing started is left running: an early return (an interrupt) waits for the side-by-side
    // commands, and a sleep holder it did not hand over is ended.
    await listing?.catch(() => undefined);
    await roundTrips?.catch(() => undefined);
    const sleep = await sleeping?.catch(() => undefined);
    if (sleep?.holder && sleep.holder !== holder) sleep.holder.release();
    await scratch?.remove();
  }

  function finish(): PreflightResult {
    const wasInterrupted = interrupted();
    if (wasInterrupted) skipRest('interrupted');
    const gates = GATE_NAMES.map((gate) => results.get(gate) ?? gateResult(gate, 'skip', 'not run'));
    const release = () => holder?.release();
    if (wasInterrupted) release();
    return {
      ...outcome,
      gates,
      passed: !wasInterrupted && gates.every((g) => g.status !== 'fail'),
      interrupted: wasInterrupted,
      release,
    };
  }
}
