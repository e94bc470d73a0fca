import type { Measurement, Report } from '../schemas/report.js';

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

/**
 * A report as `compare` reads it agent by agent: its agents as its models (`settings.models`) and
 * each measurement through `agentView`; a report of one agent (and one model) becomes a report of
 * that agent alone, so it is compared with the same agent of a report of several.
 */
export function asAgentsReport(r: Report): Report {
  if ((r.settings.models?.length ?? 0) > 1) return r;
  return {
    ...r,
    settings: { ...r.settings, models: r.agents.map((a) => a.name) },
    candidate: agentView(r.candidate),
    ...(r.baseline ? { baseline: agentView(r.baseline) } : {}),
  };
}

/** True when `compare` goes agent by agent: a report holds several agents and none several models. */
export function comparesByAgent(...reports: Report[]): boolean {
  return (
    reports.some((r) => r.agents.length > 1) && reports.every((r) => (r.settings.models?.length ?? 0) <= 1)
  );
}
