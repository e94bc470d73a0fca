/**
 * The preflight for the agents a measurement runs on (`--agent claude|codex[,…]`): each agent's
 * gates through the registry's runtime (src/agents/runtime.ts), the default agent's first, one
 * list; it passes when no gate of any failed. The machine's sleep gate is held here: an agent
 * whose gates place it in their own order starts it there; with none, it follows the others'.
 */
import type { AgentGates, GateFindings, GateResult } from '../agents/gates.js';
import type { AgentChoice, AgentId } from '../agents/ids.js';
import { agentFacts, DEFAULT_AGENT } from '../agents/registry.js';
import { loopRuntimeOf } from '../agents/runtime.js';
import type { RememberedToggle } from '../schemas/toggles.js';
import type { PreflightSettings } from './settings.js';
import { holdOffSleep, type SleepHolder } from './sleep.js';

/** The part of `PreflightResult` (preflight.ts) every preflight has. */
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

/** The machine's sleep gate, started once, when first asked; its holder kept for `release`. */
function machineSleep(settings: PreflightSettings) {
  let started: Promise<{ result: GateResult; holder?: SleepHolder }> | undefined;
  return {
    start(): Promise<GateResult> {
      started ??= holdOffSleep({
        env: settings.env,
        ...(settings.platform ? { platform: settings.platform } : {}),
      });
      return started.then((s) => s.result);
    },
    async release(): Promise<void> {
      (await started?.catch(() => undefined))?.holder?.release();
    },
    async holder(): Promise<SleepHolder | undefined> {
      return (await started?.catch(() => undefined))?.holder;
    },
  };
}

/** The default agent first, as its gates have always run; the others in the order given. */
function gateOrder(agents: readonly AgentChoice[]): AgentChoice[] {
  return [
    ...agents.filter((c) => c.agent === DEFAULT_AGENT),
    ...agents.filter((c) => c.agent !== DEFAULT_AGENT),
  ];
}

export async function preflightAgents(
  settings: PreflightSettings,
  agents: readonly AgentChoice[],
): Promise<AgentsPreflight & Partial<GateFindings>> {
  const sleep = machineSleep(settings);
  const placed = agents.some((c) => loopRuntimeOf(c.agent).placesSleepGate === true);
  // No agent places the sleep gate: it starts now, beside the agents' gates, and is told after them.
  if (!placed) void sleep.start();
  const gates: GateResult[] = [];
  const agentGates: Partial<Record<AgentId, AgentGates>> = {};
  let findings: GateFindings | undefined;
  let interrupted = false;
  try {
    for (const choice of gateOrder(agents)) {
      if (interrupted) break;
      const found = await agentGatesOf(choice, agents, settings, sleep.start);
      if (choice.agent === DEFAULT_AGENT) findings = found.findings;
      else agentGates[choice.agent] = found;
      gates.push(...found.gates);
      interrupted = found.interrupted;
    }
  } catch (error) {
    await sleep.release();
    throw error;
  }
  if (!placed && !interrupted) {
    const result = await sleep.start();
    gates.push(result);
    settings.onGate?.(result);
  }
  interrupted ||= settings.signal?.aborted === true;
  const holder = await sleep.holder();
  const release = (): void => holder?.release();
  if (interrupted) release();
  return {
    ...(findings ?? { reminders: [] }),
    gates,
    passed: !interrupted && gates.every((g) => g.status !== 'fail'),
    interrupted,
    conflictAllowed:
      (findings?.conflictAllowed ?? false) || Object.values(agentGates).some((g) => g.conflictAllowed),
    ...(Object.keys(agentGates).length === 0 ? {} : { agentGates }),
    release,
  };
}

/** One agent's gates, with its executable, its model and the machine's sleep gate to place. */
function agentGatesOf(
  choice: AgentChoice,
  agents: readonly AgentChoice[],
  settings: PreflightSettings,
  sleep: () => Promise<GateResult>,
): Promise<AgentGates> {
  const model = modelFor(choice, agents, settings.model);
  const folder = settings.systemSkillsFolders?.[choice.agent];
  return loopRuntimeOf(choice.agent).gates({
    bin: settings.bins?.[choice.agent] ?? agentFacts(choice.agent).bin,
    env: settings.env,
    maxRetries: settings.maxRetries,
    out: settings.out,
    ...(model ? { model } : {}),
    ...(settings.models && agents.length === 1 ? { models: settings.models } : {}),
    ...(settings.skillName ? { skillName: settings.skillName } : {}),
    ...(settings.skillNames ? { skillNames: settings.skillNames } : {}),
    allowConflict: settings.allowConflict,
    ...(settings.commandTimeoutMs ? { commandTimeoutMs: settings.commandTimeoutMs } : {}),
    ...(settings.roundTripTimeoutMs ? { roundTripTimeoutMs: settings.roundTripTimeoutMs } : {}),
    ...(settings.signal ? { signal: settings.signal } : {}),
    ...(settings.onGate ? { onGate: settings.onGate } : {}),
    ...(settings.now ? { now: settings.now } : {}),
    ...(folder ? { systemSkillsFolder: folder } : {}),
    sleep,
  });
}
