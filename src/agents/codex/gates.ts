/**
 * The gates for Codex (docs/codex.md "Gates"), in the claude gates' order: cli (`codex --version`
 * in a throwaway CODEX_HOME), auth (a key in the environment), round-trip (one real `codex exec`
 * against the provider, through the measuring adapter), conflict (a same-named skill in a folder
 * Codex scans, or in its listing) and roster (what a measured run lists besides the stub, read
 * by the listing probe against a loopback capture server: no model call), run by the gate flow
 * every such agent shares (src/agents/process/gate-flow.ts). The sleep gate is the preflight's.
 * Never throws for a failing gate.
 */
import type { GateResult } from '../gates.js';
import type { RoundTrip } from '../process/gate-book.js';
import {
  type GateFlowResult,
  type GateFlowSettings,
  type GateSteps,
  runGateFlow,
} from '../process/gate-flow.js';
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
import { type CodexListedSkill, probeCodexListing } from './listing-probe.js';
import { codexProviderFrom, hasCodexLogin } from './provider.js';
import { CodexRunAborted, readCodexVersion, runCodexMeasurement } from './run.js';
import { scanCodexSkillFolders } from './skill-folders.js';

export interface CodexGateSettings extends GateFlowSettings {
  codexBin: string;
  /** The user's environment: the key, OPENAI_BASE_URL, HOME (for `~/.agents/skills`). */
  env: NodeJS.ProcessEnv;
  /** Tests only: the machine-wide skills folder (default `/etc/codex/skills`). */
  systemSkillsFolder?: string;
}

export type CodexGatesResult = GateFlowResult<CodexRoster>;

export function codexGates(settings: CodexGateSettings): Promise<CodexGatesResult> {
  return runGateFlow(codexGateSteps(settings), settings);
}

type Chosen = Extract<ReturnType<typeof codexProviderFrom>, { keySource: unknown }>;

/** Codex's steps of the gate flow (src/agents/process/gate-flow.ts). */
function codexGateSteps(settings: CodexGateSettings): GateSteps<CodexListedSkill, Chosen, CodexRoster> {
  const { codexBin: bin, env, signal } = settings;
  return {
    agent: 'codex',
    needsCli: 'needs a working Codex CLI (see the cli gate)',
    version: (root) => readCodexVersion(bin, env, root),
    judgeCli: (version) => judgeCodexCli(bin, version),
    probe: (root) => probeCodexListing({ bin, env, skills: [], root, ...(signal ? { signal } : {}) }),
    auth: () => codexAuth(settings),
    roundTrip: (chosen) => codexRoundTrip(settings, chosen),
    conflicts: async () => {
      const folders = await scanCodexSkillFolders({
        ...(env.HOME ? { home: env.HOME } : {}),
        ...(settings.systemSkillsFolder ? { systemFolder: settings.systemSkillsFolder } : {}),
      });
      return (name, listed) =>
        judgeCodexConflict({
          ...(name === undefined ? {} : { name }),
          folders,
          listed,
          allowConflict: settings.allowConflict,
        });
    },
    roster: codexRoster,
    judgeRoster: judgeCodexRoster,
  };
}

/** The auth gate: the provider a key in the environment chooses, or none. */
async function codexAuth(settings: CodexGateSettings): Promise<{ result: GateResult; chosen?: Chosen }> {
  const provided = codexProviderFrom(settings.env, settings.model);
  const chosen = 'keySource' in provided ? provided : undefined;
  const result = judgeCodexAuth({
    ...(chosen ? { keySource: chosen.keySource, baseUrl: chosen.provider.baseUrl } : {}),
    storedLogin: chosen ? false : await hasCodexLogin(settings.env),
  });
  return { result, ...(chosen ? { chosen } : {}) };
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
