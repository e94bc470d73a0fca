/**
 * The gates for Codex (docs/codex.md "Gates"), in the claude gates' order: cli (`codex --version`
 * in a throwaway CODEX_HOME), auth (a key in the environment), round-trip (one real `codex exec`
 * against the provider, through the measuring adapter), conflict (a same-named skill in a folder
 * Codex scans, or in its listing) and roster (what a measured run lists besides the stub, read
 * by the listing probe against a loopback capture server: no model call). The sleep gate is the
 * claude preflight's, shared by both agents (preflight.ts). Never throws for a failing gate.
 */
import os from 'node:os';
import type { Usage } from '../../outcome.js';
import { type GateResult, gateResult } from '../agent.js';
import {
  type CodexRoster,
  codexRoster,
  judgeCodexAuth,
  judgeCodexCli,
  judgeCodexConflict,
  judgeCodexRoster,
  judgeCodexRoundTrip,
} from './gate-rules.js';
import { CODEX_ROUND_TRIP_QUERY } from './launch.js';
import { type CodexProbeResult, probeCodexListing } from './listing-probe.js';
import { codexProviderFrom, hasCodexLogin } from './provider.js';
import { CodexRunAborted, readCodexVersion, runCodexMeasurement } from './run.js';
import { scanCodexSkillFolders } from './skill-folders.js';

export interface CodexGateSettings {
  codexBin: string;
  /** The user's environment: the key, OPENAI_BASE_URL, HOME (for `~/.agents/skills`). */
  env: NodeJS.ProcessEnv;
  model?: string;
  skillName?: string;
  skillNames?: string[];
  allowConflict: boolean;
  /** Bound for the round trip (default 60 s). */
  roundTripTimeoutMs?: number;
  signal?: AbortSignal;
  /** Called as each gate's result is known, in gate order. */
  onGate?: (result: GateResult) => void;
  /** Where the gates' temp folders go (default the OS temp dir). */
  root?: string;
  /** Tests only: the machine-wide skills folder (default `/etc/codex/skills`). */
  systemSkillsFolder?: string;
}

export interface CodexGatesResult {
  /** cli, auth, round-trip, conflict, roster; each marked `agent: 'codex'`. */
  gates: GateResult[];
  interrupted: boolean;
  version?: string;
  /** The round trip's tokens: what a run costs, the estimate's start. */
  roundTripUsage?: Usage;
  roster?: CodexRoster;
  conflictAllowed: boolean;
}

const ROUND_TRIP_TIMEOUT_MS = 60_000;

export async function codexGates(settings: CodexGateSettings): Promise<CodexGatesResult> {
  const gates: GateResult[] = [];
  const record = (result: GateResult): void => {
    const marked: GateResult = { ...result, agent: 'codex' };
    gates.push(marked);
    settings.onGate?.(marked);
  };
  const interrupted = (): boolean => settings.signal?.aborted === true;
  const result: CodexGatesResult = { gates, interrupted: false, conflictAllowed: false };
  const done = (why?: string): CodexGatesResult => {
    result.interrupted = interrupted();
    for (const gate of ['cli', 'auth', 'round-trip', 'conflict', 'roster'] as const)
      if (!gates.some((g) => g.gate === gate))
        record(gateResult(gate, 'skip', result.interrupted ? 'interrupted' : (why ?? 'not run')));
    return result;
  };
  const root = settings.root ?? os.tmpdir();

  // cli
  const version = await readCodexVersion(settings.codexBin, root);
  if (interrupted()) return done();
  record(judgeCodexCli(settings.codexBin, version));
  if (version === undefined) return done('needs a working Codex CLI (see the cli gate)');
  result.version = version;

  // The roster probe talks to a loopback server only; it runs beside the round trip.
  const probing: Promise<CodexProbeResult> = probeCodexListing({
    bin: settings.codexBin,
    env: settings.env,
    skills: [],
    root,
    ...(settings.signal ? { signal: settings.signal } : {}),
  });
  try {
    // auth
    const provided = codexProviderFrom(settings.env, settings.model);
    const chosen = 'keySource' in provided ? provided : undefined;
    record(
      judgeCodexAuth({
        ...(chosen ? { keySource: chosen.keySource, baseUrl: chosen.provider.baseUrl } : {}),
        storedLogin: chosen ? false : await hasCodexLogin(settings.env),
      }),
    );

    // round-trip
    if (chosen === undefined) {
      record(gateResult('round-trip', 'skip', 'needs a key (see the auth gate)'));
    } else {
      const timeoutMs = settings.roundTripTimeoutMs ?? ROUND_TRIP_TIMEOUT_MS;
      try {
        const trip = await runCodexMeasurement({
          bin: settings.codexBin,
          query: CODEX_ROUND_TRIP_QUERY,
          stub: {
            skillName: settings.skillName ?? 'round-trip',
            description: 'Stands in for the skill under test.',
            root,
          },
          provider: chosen.provider,
          timeoutMs,
          baseEnv: settings.env,
          ...(settings.signal ? { signal: settings.signal } : {}),
        });
        result.roundTripUsage = trip.usage;
        record(judgeCodexRoundTrip(trip.outcome, settings.model, timeoutMs));
      } catch (error) {
        if (error instanceof CodexRunAborted) return done();
        throw error;
      }
    }

    // conflict
    const probe = await probing;
    if (interrupted()) return done();
    const names = [
      ...new Set([...(settings.skillName ? [settings.skillName] : []), ...(settings.skillNames ?? [])]),
    ];
    const folders = await scanCodexSkillFolders({
      ...(settings.env.HOME ? { home: settings.env.HOME } : {}),
      ...(settings.systemSkillsFolder ? { systemFolder: settings.systemSkillsFolder } : {}),
    });
    const listed =
      probe.kind === 'listed'
        ? probe.skills.filter((s) => !s.file.startsWith(`${probe.projectSkills}/`))
        : [];
    const conflicts = (names.length === 0 ? [undefined] : names).map((name) =>
      judgeCodexConflict({
        ...(name === undefined ? {} : { name }),
        folders,
        listed,
        allowConflict: settings.allowConflict,
      }),
    );
    const worst =
      conflicts.find((c) => c.status === 'fail') ??
      conflicts.find((c) => c.status === 'warn') ??
      conflicts[0];
    if (worst) record(worst);
    result.conflictAllowed = worst?.status === 'warn' && settings.allowConflict;

    // roster
    if (probe.kind === 'listed') result.roster = codexRoster(probe.skills, probe.projectSkills);
    record(
      judgeCodexRoster(
        result.roster,
        probe.kind === 'failed' ? `the listing probe failed: ${probe.reason}` : '',
        version,
      ),
    );
    return done();
  } finally {
    await probing.catch(() => undefined);
  }
}
