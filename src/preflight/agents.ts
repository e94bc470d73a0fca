/**
 * The preflight for the agents a measurement runs on (`--agent claude|codex[,…]`): Claude Code's
 * gates as they always ran, then Codex's (codex-gates.ts), one list; it passes when no gate of
 * either failed. With Codex alone the sleep gate, which belongs to the machine rather than to an
 * agent, follows Codex's gates.
 */
import type { AgentId, GateResult } from '../agents/agent.js';
import { type CodexGateSettings, type CodexGatesResult, codexGates } from '../agents/codex/gates.js';
import type { RememberedToggle } from '../schemas/toggles.js';
import { holdOffSleep } from './sleep.js';

export const DEFAULT_AGENTS: readonly AgentId[] = ['claude'];

/** What this module reads of `PreflightSettings` (preflight.ts). */
interface AgentsSettings
  extends Pick<
    CodexGateSettings,
    | 'env'
    | 'model'
    | 'skillName'
    | 'skillNames'
    | 'allowConflict'
    | 'roundTripTimeoutMs'
    | 'signal'
    | 'onGate'
  > {
  codexBin?: string;
  codexSystemSkillsFolder?: string;
  /** Codex's model when claude runs too (`model` is then claude's). */
  codexModel?: string;
  platform?: NodeJS.Platform;
}

/** The part of `PreflightResult` (preflight.ts) this module fills in. */
export interface AgentsPreflight {
  gates: GateResult[];
  passed: boolean;
  interrupted: boolean;
  conflictAllowed: boolean;
  reminders: RememberedToggle[];
  release(): void;
  codex?: CodexGatesResult;
}

export async function preflightWithCodex<S extends AgentsSettings, R extends AgentsPreflight>(
  settings: S,
  agents: readonly AgentId[],
  claudePreflight: (settings: S) => Promise<R>,
): Promise<AgentsPreflight> {
  const withClaude = agents.includes('claude');
  const claude = withClaude ? await claudePreflight(settings) : undefined;
  if (claude?.interrupted) return claude;
  const sleeping = withClaude
    ? undefined
    : holdOffSleep({ env: settings.env, ...(settings.platform ? { platform: settings.platform } : {}) });
  // With claude measured too, `model` is claude's: a Claude model id means nothing to Codex.
  const codexModel = withClaude ? settings.codexModel : (settings.codexModel ?? settings.model);
  const codex = await codexGates({
    codexBin: settings.codexBin ?? 'codex',
    env: settings.env,
    ...(codexModel ? { model: codexModel } : {}),
    ...(settings.skillName ? { skillName: settings.skillName } : {}),
    ...(settings.skillNames ? { skillNames: settings.skillNames } : {}),
    allowConflict: settings.allowConflict,
    ...(settings.roundTripTimeoutMs ? { roundTripTimeoutMs: settings.roundTripTimeoutMs } : {}),
    ...(settings.signal ? { signal: settings.signal } : {}),
    ...(settings.onGate ? { onGate: settings.onGate } : {}),
    ...(settings.codexSystemSkillsFolder ? { systemSkillsFolder: settings.codexSystemSkillsFolder } : {}),
  });
  const sleep = await sleeping;
  const gates: GateResult[] = [...(claude?.gates ?? []), ...codex.gates];
  if (sleep && !codex.interrupted) {
    gates.push(sleep.result);
    settings.onGate?.(sleep.result);
  }
  const interrupted = codex.interrupted || settings.signal?.aborted === true;
  const release = (): void => {
    claude?.release();
    sleep?.holder?.release();
  };
  if (interrupted) release();
  return {
    ...(claude ?? { reminders: [] }),
    gates,
    passed: !interrupted && gates.every((g) => g.status !== 'fail'),
    interrupted,
    conflictAllowed: (claude?.conflictAllowed ?? false) || codex.conflictAllowed,
    codex,
    release,
  };
}
