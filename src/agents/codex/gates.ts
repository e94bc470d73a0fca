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
import type { GateResult } from '../agent.js';
import {
  type GateBook,
  gateBook,
  gateNames,
  type RoundTrip,
  roundTripGate,
  worstGate,
} from '../process/gate-book.js';
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

export async function codexGates(settings: CodexGateSettings): Promise<CodexGatesResult> {
  const book = gateBook('codex', settings);
  const result: CodexGatesResult = { gates: book.gates, interrupted: false, conflictAllowed: false };
  const done = (why?: string): CodexGatesResult => {
    result.interrupted = book.skipRest(why);
    return result;
  };
  const root = settings.root ?? os.tmpdir();

  // cli
  const version = await readCodexVersion(settings.codexBin, settings.env, root);
  if (book.interrupted()) return done();
  book.record(judgeCodexCli(settings.codexBin, version));
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
    const chosen = await authGate(settings, book);
    const trip = chosen === undefined ? undefined : codexRoundTrip(settings, chosen);
    if ((await roundTripGate(book, { ...settings, root }, trip, result)) === 'aborted') return done();
    const probe = await probing;
    if (book.interrupted()) return done();
    await conflictGate(settings, probe, book, result);
    // roster
    if (probe.kind === 'listed') result.roster = codexRoster(probe.skills, probe.projectSkills);
    book.record(
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

type Chosen = Extract<ReturnType<typeof codexProviderFrom>, { keySource: unknown }>;

/** The auth gate: the provider a key in the environment chooses, or undefined with none. */
async function authGate(settings: CodexGateSettings, book: GateBook): Promise<Chosen | undefined> {
  const provided = codexProviderFrom(settings.env, settings.model);
  const chosen = 'keySource' in provided ? provided : undefined;
  book.record(
    judgeCodexAuth({
      ...(chosen ? { keySource: chosen.keySource, baseUrl: chosen.provider.baseUrl } : {}),
      storedLogin: chosen ? false : await hasCodexLogin(settings.env),
    }),
  );
  return chosen;
}

/** The round trip's run and judge: one real `codex exec` against the provider. */
function codexRoundTrip(settings: CodexGateSettings, chosen: Chosen): RoundTrip {
  return {
    run: (stub, timeoutMs) =>
      runCodexMeasurement({
        bin: settings.codexBin,
        query: CODEX_ROUND_TRIP_QUERY,
        stub,
        provider: chosen.provider,
        timeoutMs,
        baseEnv: settings.env,
        ...(settings.signal ? { signal: settings.signal } : {}),
      }),
    judge: (outcome, timeoutMs) => judgeCodexRoundTrip(outcome, settings.model, timeoutMs),
    Aborted: CodexRunAborted,
  };
}

/** The conflict gate: a same-named skill in a folder Codex scans, or in its listing. */
async function conflictGate(
  settings: CodexGateSettings,
  probe: CodexProbeResult,
  book: GateBook,
  result: CodexGatesResult,
): Promise<void> {
  const names = gateNames(settings);
  const folders = await scanCodexSkillFolders({
    ...(settings.env.HOME ? { home: settings.env.HOME } : {}),
    ...(settings.systemSkillsFolder ? { systemFolder: settings.systemSkillsFolder } : {}),
  });
  const listed =
    probe.kind === 'listed' ? probe.skills.filter((s) => !s.file.startsWith(`${probe.projectSkills}/`)) : [];
  const conflicts = (names.length === 0 ? [undefined] : names).map((name) =>
    judgeCodexConflict({
      ...(name === undefined ? {} : { name }),
      folders,
      listed,
      allowConflict: settings.allowConflict,
    }),
  );
  const worst = worstGate(conflicts);
  if (worst) book.record(worst);
  result.conflictAllowed = worst?.status === 'warn' && settings.allowConflict;
}
