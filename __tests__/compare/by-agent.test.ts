import { describe, expect, it } from 'vitest';
import { agentView, asAgentsReport, comparesByAgent, hasSeveralAgents } from '../../src/compare/by-agent.js';
import { compareReportsByModel } from '../../src/compare/by-model.js';
import type { EvalItem } from '../../src/inputs/types.js';
import type { RunResult } from '../../src/measure/loop-spec.js';
import { buildReport } from '../../src/report/build/build.js';
import { type Report, reportSchema } from '../../src/schemas/report.js';
import { modelRun, modelsReportArgs } from '../fakes/models-report.js';

/** A report of one agent (claude alone) and one of two (claude and codex), as `--agent` writes them. */
const items: EvalItem[] = [
  { id: 'p1', query: 'write the handoff', shouldTrigger: true, extra: {} },
  { id: 'n1', query: 'rename a variable', shouldTrigger: false, extra: {} },
];
const CLAUDE = 'claude-sonnet-4-5';
const CODEX = 'gpt-6.1-sol';
type Kind = 'triggered' | 'not-triggered';
const on = (agent: 'claude' | 'codex', kind: Kind): RunResult => ({
  ...modelRun(agent === 'claude' ? CLAUDE : CODEX, kind),
  agent,
});

function report(agents: Array<'claude' | 'codex'>, positive: Kind): Report {
  const records = items.map((item) =>
    agents.map((agent) => on(agent, item.shouldTrigger ? positive : 'not-triggered')),
  );
  const args = modelsReportArgs({ items, models: [CLAUDE], records, runsPerQuery: 1 });
  return reportSchema.parse(
    buildReport({
      ...args,
      models: undefined,
      agents: agents.map((agent) => ({
        agent,
        model: agent === 'claude' ? CLAUDE : CODEX,
        version: '1.0.0',
      })),
    }),
  );
}

describe('reading several agents as several models', () => {
  const both = report(['claude', 'codex'], 'triggered');
  const alone = report(['claude'], 'triggered');

  it('knows a report of several agents, and compares by agent only then', () => {
    expect(hasSeveralAgents(both.candidate)).toBe(true);
    expect(hasSeveralAgents(alone.candidate)).toBe(false);
    expect(comparesByAgent(alone, both)).toBe(true);
    expect(comparesByAgent(alone, alone)).toBe(false);
  });

  it('splits the runs by agent, and a one-agent report becomes that agent', () => {
    expect(Object.keys(agentView(both.candidate).byModel ?? {})).toEqual(['claude', 'codex']);
    expect(asAgentsReport(both).settings.models).toEqual(['claude', 'codex']);
    expect(asAgentsReport(alone).settings.models).toEqual(['claude']);
  });

  it('says the agent sets differ, in agents’ words, and compares only the agent both measured', () => {
    const names = { base: 'baseline', cand: 'This PR' };
    const split = compareReportsByModel(asAgentsReport(alone), asAgentsReport(both), { names }, 'agent');
    expect(split.models.map((m) => m.model)).toEqual(['claude']);
    expect(split.warnings).toEqual([
      {
        code: 'agents-differ',
        message:
          'the agent sets differ (only in baseline: none; only in This PR: codex): only the agents both measured are compared',
      },
    ]);
  });

  it('keeps the models’ words when the split is by model', () => {
    const split = compareReportsByModel(asAgentsReport(alone), asAgentsReport(both));
    expect(split.warnings.map((w) => w.code)).toEqual(['models-differ']);
    expect(split.warnings[0]?.message).toMatch(/^the model sets differ/);
  });
});
