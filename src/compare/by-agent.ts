import type { Measurement } from '../shapes/report.js';

/**
 * Several agents (`--agent a,b`) are split exactly as several models are, so every reader of the
 * per-model split (the headline, the Markdown table, the JUnit suites, `compare`) reads the
 * per-agent split through this view: `byAgent` as `byModel`, each query's per-run agents as its
 * per-run models. A measurement of one agent is returned as it is. Pure.
 */
export function agentView(m: Measurement): Measurement {
  if (!m.byAgent) return m;
  return {
    ...m,
    byModel: m.byAgent,
    queries: m.queries.map((q) => ({
      ...q,
      ...(q.byAgent ? { byModel: q.byAgent } : {}),
      ...(q.agents ? { models: q.agents } : {}),
    })),
  };
}

/** True when the measurement holds several agents' runs. */
export function hasSeveralAgents(m: Measurement): boolean {
  return m.byAgent !== undefined && Object.keys(m.byAgent).length > 1;
}
