import { describe, expect, it } from 'vitest';
import { compareWithBaseline } from '../../../src/action/results/comparison.js';
import { standingOf } from '../../../src/action/results/results.js';
import type { AgentId } from '../../../src/agents/ids.js';
import type { EvalItem } from '../../../src/inputs/types.js';
import type { RunResult } from '../../../src/measure/loop-spec.js';
import { buildReport } from '../../../src/report/build/build.js';
import { reportSchema } from '../../../src/schemas/report.js';
import { modelRun, modelsReportArgs } from '../../fakes/models-report.js';

/**
 * Several agents are compared with the baseline agent by agent, as several models are: a
 * regression on one agent is the skill's regression, though the pooled comparison hides it.
 */

const items: EvalItem[] = [1, 2, 3, 4].map((n) => ({
  id: `p${n}`,
  query: `write the handoff ${n}`,
  shouldTrigger: true,
  extra: {},
}));
const RUNS = 3;
const run = (agent: AgentId, hit: boolean): RunResult => ({
  ...modelRun(agent === 'claude' ? 'claude-sonnet-4-5' : 'gpt-5', hit ? 'triggered' : 'not-triggered'),
  agent,
});
/** Each query's runs, interleaved per agent as the loop records them: one agent hits, the other misses. */
const records = (codexHits: boolean) =>
  items.map(() =>
    Array.from({ length: RUNS }, () => [run('claude', !codexHits), run('codex', codexHits)]).flat(),
  );

function pairedReport() {
  const args = modelsReportArgs({
    items,
    models: [],
    records: records(false),
    baseline: records(true),
    runsPerQuery: RUNS,
  });
  const { models: _none, ...rest } = args;
  return reportSchema.parse(
    buildReport({ ...rest, agents: [{ agent: 'claude' }, { agent: 'codex', version: '0.169.0' }] }),
  );
}

const names = { base: 'baseline', cand: 'this PR' };

describe('compareWithBaseline with several agents', () => {
  it('compares each agent on its own runs; a regression on Codex alone is the skill’s regression', () => {
    const report = pairedReport();
    const { comparison, byModel } = compareWithBaseline(report, 'paired', names);
    expect(byModel?.map((m) => [m.model, m.comparison.label])).toEqual([
      ['claude', 'improvement'],
      ['codex', 'regression'],
    ]);
    // Pooled, Claude Code's gain hides Codex's loss.
    expect(comparison?.label).toBe('noise');
    const skill = {
      kind: 'measured' as const,
      skill: 'handoff',
      file: 'skills/handoff/SKILL.md',
      descriptionLine: 2,
      change: 'modified' as const,
      report,
      reportPath: 'r.json',
      markdownPath: 'r.md',
      warnings: [],
      ...(comparison ? { comparison } : {}),
      ...(byModel ? { byModel } : {}),
    };
    // The standing `fail-on-regression` counts (results.ts `regressions`).
    expect(standingOf(skill)).toBe('regression');
  });

  it('with the cached baseline of the same agents, too; and nothing without a baseline', () => {
    const report = pairedReport();
    const { baseline: _b, ...alone } = report;
    const cached = { ...alone, candidate: report.baseline ?? report.candidate };
    const { byModel } = compareWithBaseline(alone, cached, names);
    expect(byModel?.find((m) => m.model === 'codex')?.comparison.label).toBe('regression');
    expect(compareWithBaseline(alone, 'none', names)).toEqual({});
  });
});
