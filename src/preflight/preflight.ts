import type { GateFindings } from '../agents/gates.js';
import { DEFAULT_AGENTS } from '../agents/ids.js';
import { type AgentsPreflight, preflightAgents } from './agents.js';
import type { PreflightSettings } from './settings.js';

export type { PreflightSettings } from './settings.js';

/**
 * What the gates found: one result per gate (each agent's in its order, the machine's sleep gate
 * in its place), and the default agent's findings, which the run's report and the cost estimate read.
 */
export type PreflightResult = AgentsPreflight & Partial<Omit<GateFindings, 'conflictAllowed' | 'reminders'>>;

/**
 * Run the gates (docs/design.md) of every agent the measurement runs on, through the registry's
 * runtimes (src/agents/runtime.ts): never throws for a failing gate; the caller refuses on
 * `!passed`.
 */
export async function runPreflight(settings: PreflightSettings): Promise<PreflightResult> {
  return preflightAgents(settings, settings.agents ?? DEFAULT_AGENTS);
}
