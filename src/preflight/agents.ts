/**
 * The preflight for the agents a measurement runs on (`--agent claude|codex[,…]`): the default
 * agent's gates as they always ran, then each other agent's through the registry's runtime
 * (src/agents/runtime.ts), one list; it passes when no gate of any failed. Without the default
 * agent the sleep gate, which belongs to the machine rather than to an agent, follows the others'.
 */
import {
  type AgentChoice,
  type AgentGateSettings,
  type AgentGates,
  type AgentId,
  type GateResult,
  measures,
} from '../agents/agent.js';
import { agentFacts, DEFAULT_AGENT } from '../agents/registry.js';
import { runtimeOf } from '../agents/runtime.js';
import type { RememberedToggle } from '../schemas/toggles.js';
import { holdOffSleep } from './sleep.js';

/** What this module reads of `PreflightSettings` (preflight.ts). */
interface AgentsSettings
  extends Pick<
    AgentGateSettings,
    | 'env'
    | 'model'
    | 'skillName'
    | 'skillNames'
    | 'allowConflict'
    | 'roundTripTimeoutMs'
    | 'signal'
    | 'onGate'
  > {
  /** Each agent's executable (default: its own, on PATH). */
  bins?: Partial<Record<AgentId, string>>;
  /** Tests only: the machine-wide skills folder each agent's conflict gate reads. */
  systemSkillsFolders?: Partial<Record<AgentId, string>>;
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
  /** What each agent but the default one found (its version, its round trip's tokens). */
  agentGates?: Partial<Record<AgentId, AgentGates>>;
}

/** The model an agent's gates ask for: its own with several agents, else the one `--model` names. */
function modelFor(choice: AgentChoice, agents: readonly AgentChoice[], model: string | undefined) {
  return choice.model ?? (agents.length === 1 ? model : undefined);
}

export async function preflightAgents<S extends AgentsSettings, R extends AgentsPreflight>(
  settings: S,
  agents: readonly AgentChoice[],
  defaultPreflight: (settings: S) => Promise<R>,
): Promise<AgentsPreflight> {
  const withDefault = measures(agents, DEFAULT_AGENT);
  const first = withDefault ? await defaultPreflight(settings) : undefined;
  if (first?.interrupted) return first;
  const sleeping = withDefault
    ? undefined
    : holdOffSleep({ env: settings.env, ...(settings.platform ? { platform: settings.platform } : {}) });
  const gates: GateResult[] = [...(first?.gates ?? [])];
  const agentGates: Partial<Record<AgentId, AgentGates>> = {};
  let interrupted = false;
  for (const choice of agents) {
    const runtime = runtimeOf(choice.agent);
    if (runtime === undefined || interrupted) continue;
    const model = modelFor(choice, agents, settings.model);
    const folder = settings.systemSkillsFolders?.[choice.agent];
    const found = await runtime.gates({
      bin: settings.bins?.[choice.agent] ?? agentFacts(choice.agent).bin,
      env: settings.env,
      ...(model ? { model } : {}),
      ...(settings.skillName ? { skillName: settings.skillName } : {}),
      ...(settings.skillNames ? { skillNames: settings.skillNames } : {}),
      allowConflict: settings.allowConflict,
      ...(settings.roundTripTimeoutMs ? { roundTripTimeoutMs: settings.roundTripTimeoutMs } : {}),
      ...(settings.signal ? { signal: settings.signal } : {}),
      ...(settings.onGate ? { onGate: settings.onGate } : {}),
      ...(folder ? { systemSkillsFolder: folder } : {}),
    });
    agentGates[choice.agent] = found;
    gates.push(...found.gates);
    interrupted = found.interrupted;
  }
  const sleep = await sleeping;
  if (sleep && !interrupted) {
    gates.push(sleep.result);
    settings.onGate?.(sleep.result);
  }
  interrupted ||= settings.signal?.aborted === true;
  const release = (): void => {
    first?.release();
    sleep?.holder?.release();
  };
  if (interrupted) release();
  return {
    ...(first ?? { reminders: [] }),
    gates,
    passed: !interrupted && gates.every((g) => g.status !== 'fail'),
    interrupted,
    conflictAllowed:
      (first?.conflictAllowed ?? false) || Object.values(agentGates).some((g) => g.conflictAllowed),
    agentGates,
    release,
  };
}
