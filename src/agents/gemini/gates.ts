/**
 * The gates for Gemini (docs/gemini.md "Gates"), in the claude gates' order: cli (`gemini
 * --version` with a throwaway home), auth (a key in the environment; a Google sign-in alone is
 * refused with the fix), round-trip (one real run against the endpoint, through the measuring
 * adapter), conflict (a same-named skill Gemini lists in every run, or in the user's own folders
 * and extensions) and roster (what a measured run lists besides the stub, read by the listing probe
 * against a loopback capture server: no model call). Never throws for a failing gate.
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
import { GEMINI_DEFAULT_MODEL } from './facts.js';
import {
  type GeminiRoster,
  geminiRoster,
  judgeGeminiAuth,
  judgeGeminiCli,
  judgeGeminiConflict,
  judgeGeminiRoster,
  judgeGeminiRoundTrip,
} from './gate-rules.js';
import { GEMINI_ROUND_TRIP_QUERY } from './launch.js';
import { type GeminiProbeResult, probeGeminiListing } from './listing-probe.js';
import { geminiProviderFrom, hasGeminiGoogleLogin } from './provider.js';
import { GeminiRunAborted, readGeminiVersion, runGeminiMeasurement } from './run.js';
import { scanGeminiSkillFolders } from './skill-folders.js';

export interface GeminiGateSettings {
  geminiBin: string;
  /** The user's environment: the key, GOOGLE_GEMINI_BASE_URL, HOME (for `~/.gemini`). */
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
}

export interface GeminiGatesResult {
  /** cli, auth, round-trip, conflict, roster; each marked `agent: 'gemini'`. */
  gates: GateResult[];
  interrupted: boolean;
  version?: string;
  /** The round trip's tokens: what a run costs, the estimate's start. */
  roundTripUsage?: Usage;
  roster?: GeminiRoster;
  conflictAllowed: boolean;
}

export async function geminiGates(settings: GeminiGateSettings): Promise<GeminiGatesResult> {
  const book = gateBook('gemini', settings);
  const result: GeminiGatesResult = { gates: book.gates, interrupted: false, conflictAllowed: false };
  const done = (why?: string): GeminiGatesResult => {
    result.interrupted = book.skipRest(why);
    return result;
  };
  const root = settings.root ?? os.tmpdir();

  const version = await readGeminiVersion(settings.geminiBin, settings.env, root);
  if (book.interrupted()) return done();
  book.record(judgeGeminiCli(settings.geminiBin, version));
  if (version === undefined) return done('needs a working Gemini CLI (see the cli gate)');
  result.version = version;

  // The roster probe talks to a loopback server only; it runs beside the round trip.
  const probing: Promise<GeminiProbeResult> = probeGeminiListing({
    bin: settings.geminiBin,
    env: settings.env,
    skills: [],
    root,
    ...(settings.signal ? { signal: settings.signal } : {}),
  });
  try {
    const chosen = await authGate(settings, book);
    const trip = chosen === undefined ? undefined : geminiRoundTrip(settings, chosen);
    if ((await roundTripGate(book, { ...settings, root }, trip, result)) === 'aborted') return done();
    const probe = await probing;
    if (book.interrupted()) return done();
    await conflictGate(settings, probe, book, result);
    if (probe.kind === 'listed') result.roster = geminiRoster(probe.skills, probe.projectSkills);
    book.record(
      judgeGeminiRoster(
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

type Chosen = Extract<ReturnType<typeof geminiProviderFrom>, { keySource: unknown }>;

/** The auth gate: the provider a key in the environment chooses, or undefined with none. */
async function authGate(settings: GeminiGateSettings, book: GateBook): Promise<Chosen | undefined> {
  // Always a named model: without -m the round trip would go through the auto model's router
  // (docs/gemini.md "The model"), as no measured run does.
  const provided = geminiProviderFrom(settings.env, settings.model ?? GEMINI_DEFAULT_MODEL);
  const chosen = 'keySource' in provided ? provided : undefined;
  book.record(
    judgeGeminiAuth({
      ...(chosen ? { keySource: chosen.keySource } : {}),
      ...(provided.provider.baseUrl ? { baseUrl: provided.provider.baseUrl } : {}),
      googleLogin: chosen ? false : await hasGeminiGoogleLogin(settings.env),
    }),
  );
  return chosen;
}

/** The round trip's run and judge: one real run against the endpoint. */
function geminiRoundTrip(settings: GeminiGateSettings, chosen: Chosen): RoundTrip {
  return {
    run: (stub, timeoutMs) =>
      runGeminiMeasurement({
        bin: settings.geminiBin,
        query: GEMINI_ROUND_TRIP_QUERY,
        stub,
        provider: chosen.provider,
        timeoutMs,
        baseEnv: settings.env,
        ...(settings.signal ? { signal: settings.signal } : {}),
      }),
    judge: (outcome, timeoutMs) => judgeGeminiRoundTrip(outcome, settings.model, timeoutMs),
    Aborted: GeminiRunAborted,
  };
}

/** The conflict gate: a same-named skill Gemini lists in every run, or in the user's own folders. */
async function conflictGate(
  settings: GeminiGateSettings,
  probe: GeminiProbeResult,
  book: GateBook,
  result: GeminiGatesResult,
): Promise<void> {
  const names = gateNames(settings);
  const folders = await scanGeminiSkillFolders(settings.env.HOME ? { home: settings.env.HOME } : {});
  const listed =
    probe.kind === 'listed' ? probe.skills.filter((s) => !s.file.startsWith(`${probe.projectSkills}/`)) : [];
  const conflicts = (names.length === 0 ? [undefined] : names).map((name) =>
    judgeGeminiConflict({
      ...(name === undefined ? {} : { name }),
      listed,
      folders,
      allowConflict: settings.allowConflict,
    }),
  );
  const worst = worstGate(conflicts);
  if (worst) book.record(worst);
  result.conflictAllowed = worst?.status === 'warn' && settings.allowConflict;
}
