import type { Measurement, Report } from '../../schemas/report.js';

/** One contradiction, by JSON path (the shape of consistency.ts's issues, which include these). */
interface ConsistencyIssue {
  path: PropertyKey[];
  message: string;
}

/**
 * The agent fields of a report read back (src/report/read/consistency.ts says why): `agents` names
 * each agent once, `cli.version` is the first agent's, `settings.agents` is the same list, and
 * with several agents each query's per-run `agents` and `byAgent` counts agree with its outcomes.
 * Pure.
 */
export function agentIssues(report: Report): ConsistencyIssue[] {
  const issues: ConsistencyIssue[] = [];
  const names = report.agents.map((a) => a.name);
  if (new Set(names).size !== names.length)
    issues.push({ path: ['agents'], message: `names an agent twice (${names.join(', ')})` });
  const first = report.agents[0]?.version ?? null;
  if (report.cli.version !== first)
    issues.push({
      path: ['cli', 'version'],
      message: `${JSON.stringify(report.cli.version)}, but the first agent's version is ${JSON.stringify(first)}`,
    });
  const listed = report.settings.agents;
  const several = names.length > 1;
  if (several ? listed?.join(',') !== names.join(',') : listed !== undefined)
    issues.push({
      path: ['settings', 'agents'],
      message: `${JSON.stringify(listed ?? null)}, but the report's agents are ${JSON.stringify(names)}`,
    });
  const sides = [
    ['candidate', report.candidate] as const,
    ...(report.baseline ? [['baseline', report.baseline] as const] : []),
  ];
  for (const [side, m] of sides) issues.push(...measurementAgentIssues(side, m, several ? names : undefined));
  return issues;
}

function measurementAgentIssues(
  side: 'candidate' | 'baseline',
  m: Measurement,
  agents: string[] | undefined,
): ConsistencyIssue[] {
  const issues: ConsistencyIssue[] = [];
  if (!agents) {
    if (m.byAgent !== undefined)
      issues.push({ path: [side, 'byAgent'], message: 'present, but the report measured one agent' });
    return issues;
  }
  const keys = Object.keys(m.byAgent ?? {});
  if (keys.join(',') !== agents.join(','))
    issues.push({
      path: [side, 'byAgent'],
      message: `holds ${JSON.stringify(keys)}, but the report's agents are ${JSON.stringify(agents)}`,
    });
  m.queries.forEach((q, i) => {
    const perRun = q.agents ?? [];
    if (perRun.length !== q.outcomes.length) {
      issues.push({
        path: [side, 'queries', i, 'agents'],
        message: `names ${perRun.length} runs' agents, but the query has ${q.outcomes.length} outcomes`,
      });
      return;
    }
    for (const agent of agents) {
      const own = q.outcomes.filter((_, r) => perRun[r] === agent);
      const want = {
        hits: own.filter((o) => o === 'triggered').length,
        runs: own.filter((o) => o === 'triggered' || o === 'not-triggered').length,
        timeouts: own.filter((o) => o === 'timeout').length,
        errors: own.filter((o) => o.startsWith('error:')).length,
      };
      const got = q.byAgent?.[agent];
      for (const field of ['hits', 'runs', 'timeouts', 'errors'] as const) {
        if (got?.[field] !== want[field])
          issues.push({
            path: [side, 'queries', i, 'byAgent', agent, field],
            message: `${JSON.stringify(got?.[field] ?? null)}, but the ${agent} runs' outcomes make it ${want[field]}`,
          });
      }
    }
  });
  return issues;
}
