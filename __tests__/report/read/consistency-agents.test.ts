import { describe, expect, it } from 'vitest';
import { agentIssues } from '../../../src/report/read/consistency-agents.js';
import type { Measurement, Report } from '../../../src/schemas/report.js';
import { buildMeasurement, buildReport } from '../../fakes/measurement-builder.js';

const one = () => buildMeasurement([{ query: 'p1', shouldTrigger: true, hits: 1, runs: 2 }]);
const zero = { hits: 0, runs: 0, late: 0, timeouts: 0, errors: 0 };

/** Two agents, one run each on p1: claude triggered, codex did not; byAgent agrees with the outcomes. */
function twoAgents(over: Partial<Report> = {}): Report {
  const m: Measurement = one();
  const [q] = m.queries;
  if (!q) throw new Error('fixture');
  m.queries = [
    {
      ...q,
      agents: ['claude', 'codex'],
      byAgent: { claude: { ...zero, hits: 1, runs: 1 }, codex: { ...zero, runs: 1 } },
    },
  ];
  m.byAgent = { claude: {} as never, codex: {} as never };
  return buildReport(m, {
    agents: [
      { name: 'claude', version: '2.1.328' },
      { name: 'codex', version: '0.169.0' },
    ],
    settings: { ...buildReport(m).settings, agents: ['claude', 'codex'] },
    ...over,
  });
}
const paths = (r: Report) => agentIssues(r).map((i) => i.path.join('.'));

describe('agentIssues', () => {
  it('a consistent report, of one agent or two, has none', () => {
    expect(agentIssues(buildReport(one()))).toEqual([]);
    expect(agentIssues(twoAgents())).toEqual([]);
  });

  it('an agent named twice, and cli.version not the first agent’s, are each an issue with both values', () => {
    const report = buildReport(one(), {
      agents: [
        { name: 'claude', version: '2.1.0' },
        { name: 'claude', version: '2.1.0' },
      ],
    });
    const issues = agentIssues(report);
    expect(issues[0]).toEqual({ path: ['agents'], message: 'names an agent twice (claude, claude)' });
    expect(issues[1]).toEqual({
      path: ['cli', 'version'],
      message: '"2.1.328", but the first agent\'s version is "2.1.0"',
    });
  });

  it('settings.agents: absent with one agent, the same list with several', () => {
    const single = buildReport(one(), { settings: { ...buildReport(one()).settings, agents: ['claude'] } });
    expect(paths(single)).toEqual(['settings.agents']);
    const other = twoAgents();
    other.settings = { ...other.settings, agents: ['codex', 'claude'] };
    expect(agentIssues(other)[0]?.message).toBe(
      '["codex","claude"], but the report\'s agents are ["claude","codex"]',
    );
  });

  it('byAgent on a one-agent report is an issue on its side', () => {
    const m = one();
    m.byAgent = {};
    expect(paths(buildReport(m, { baseline: m }))).toEqual(['candidate.byAgent', 'baseline.byAgent']);
  });

  it("with several agents each query's per-run agents and counts must agree with its outcomes", () => {
    const wrongCount = twoAgents();
    const q = wrongCount.candidate.queries[0];
    if (!q?.byAgent?.codex) throw new Error('fixture');
    q.byAgent.codex = { ...q.byAgent.codex, hits: 1 };
    const [issue] = agentIssues(wrongCount);
    expect(issue).toEqual({
      path: ['candidate', 'queries', 0, 'byAgent', 'codex', 'hits'],
      message: "1, but the codex runs' outcomes make it 0",
    });

    const short = twoAgents();
    const sq = short.candidate.queries[0];
    if (!sq) throw new Error('fixture');
    sq.agents = ['claude'];
    expect(agentIssues(short)).toEqual([
      {
        path: ['candidate', 'queries', 0, 'agents'],
        message: "names 1 runs' agents, but the query has 2 outcomes",
      },
    ]);
  });
});
