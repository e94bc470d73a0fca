/**
 * The gates for Gemini (docs/gemini.md "Gates"), in the claude gates' order: cli (`gemini
 * --version` with a throwaway home), auth (a key in the environment; a Google sign-in alone is
 * refused with the fix), round-trip (one real run against the endpoint, through the measuring
 * adapter), conflict (a same-named skill Gemini lists in every run, or in the user's own folders
 * and extensions) and roster (what a measured run lists besides the stub, read by the listing probe
 * against a loopback capture server: no model call), run by the gate flow every such agent shares
 * (src/agents/process/gate-flow.ts). Never throws for a failing gate.
 */
import type { GateResult } from '../gates.js';
import type { RoundTrip } from '../process/gate-book.js';
import {
  type GateFlowResult,
  type GateFlowSettings,
  type GateSteps,
  runGateFlow,
} from '../process/gate-flow.js';
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
import { type GeminiListedSkill, probeGeminiListing } from './listing-probe.js';
import { geminiProviderFrom, hasGeminiGoogleLogin } from './provider.js';
import { GeminiRunAborted, readGeminiVersion, runGeminiMeasurement } from './run.js';
import { scanGeminiSkillFolders } from './skill-folders.js';

export interface GeminiGateSettings extends GateFlowSettings {
  geminiBin: string;
  /** The user's environment: the key, GOOGLE_GEMINI_BASE_URL, HOME (for `~/.gemini`). */
  env: NodeJS.ProcessEnv;
}

export type GeminiGatesResult = GateFlowResult<GeminiRoster>;

export function geminiGates(settings: GeminiGateSettings): Promise<GeminiGatesResult> {
  return runGateFlow(geminiGateSteps(settings), settings);
}

type Chosen = Extract<ReturnType<typeof geminiProviderFrom>, { keySource: unknown }>;

/** Gemini's steps of the gate flow (src/agents/process/gate-flow.ts). */
function geminiGateSteps(settings: GeminiGateSettings): GateSteps<GeminiListedSkill, Chosen, GeminiRoster> {
  const { geminiBin: bin, env, signal } = settings;
  return {
    agent: 'gemini',
    needsCli: 'needs a working Gemini CLI (see the cli gate)',
    version: (root) => readGeminiVersion(bin, env, root),
    judgeCli: (version) => judgeGeminiCli(bin, version),
    probe: (root) => probeGeminiListing({ bin, env, skills: [], root, ...(signal ? { signal } : {}) }),
    auth: () => geminiAuth(settings),
    roundTrip: (chosen) => geminiRoundTrip(settings, chosen),
    conflicts: async () => {
      const folders = await scanGeminiSkillFolders(env.HOME ? { home: env.HOME } : {});
      return (name, listed) =>
        judgeGeminiConflict({
          ...(name === undefined ? {} : { name }),
          listed,
          folders,
          allowConflict: settings.allowConflict,
        });
    },
    roster: geminiRoster,
    judgeRoster: judgeGeminiRoster,
  };
}

/** The auth gate: the provider a key in the environment chooses, or none. */
async function geminiAuth(settings: GeminiGateSettings): Promise<{ result: GateResult; chosen?: Chosen }> {
  // Always a named model: without -m the round trip would go through the auto model's router
  // (docs/gemini.md "The model"), as no measured run does.
  const provided = geminiProviderFrom(settings.env, settings.model ?? GEMINI_DEFAULT_MODEL);
  const chosen = 'keySource' in provided ? provided : undefined;
  const result = judgeGeminiAuth({
    ...(chosen ? { keySource: chosen.keySource } : {}),
    ...(provided.provider.baseUrl ? { baseUrl: provided.provider.baseUrl } : {}),
    googleLogin: chosen ? false : await hasGeminiGoogleLogin(settings.env),
  });
  return { result, ...(chosen ? { chosen } : {}) };
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
