import { describe, expect, it } from 'vitest';
import { conclude } from '../../../src/action/results/conclusion.js';
import { type ActionRun, regressions, standingOf } from '../../../src/action/results/results.js';
import { readSettings } from '../../../src/action/settings.js';
import { renderComment } from '../../../src/action/text/comment.js';
import { compareReportsByModel } from '../../../src/compare/by-model.js';
import { compareReports } from '../../../src/compare/compare.js';
import { costOf, formatUsd } from '../../../src/cost/cost.js';
import { DEFAULT_PRICE_TABLE } from '../../../src/cost/price-table.js';
import { UsageError } from '../../../src/errors.js';
import type { RunResult } from '../../../src/measure/loop-spec.js';
import { buildReport } from '../../../src/report/build/build.js';
import { renderMarkdown } from '../../../src/report/markdown.js';
import { reportSchema } from '../../../src/schemas/report.js';
import { CACHED_RUN_USAGE, modelRun, modelsReportArgs, TWO_QUERIES } from '../../fakes/models-report.js';

/** The Action's `models` input, its one column per model, and the cost footer of the comment. */
const HAIKU = 'claude-haiku-4-5';
const SONNET = 'claude-sonnet-4-5';
const reader = (values: Record<string, string>) => (name: string) => values[name] ?? '';

describe('the models input', () => {
  it('reads comma- or newline-separated models; one is the model input; a repeat is refused', () => {
    expect(readSettings(reader({ models: `${HAIKU}, ${SONNET}` })).models).toEqual([HAIKU, SONNET]);
    expect(readSettings(reader({ models: `${HAIKU}\n${SONNET}` })).models).toEqual([HAIKU, SONNET]);
    const one = readSettings(reader({ models: HAIKU, model: SONNET }));
    expect(one.models).toBeUndefined();
    expect(one.model).toBe(HAIKU);
    expect(() => readSettings(reader({ models: `${HAIKU},${HAIKU}` }))).toThrow(UsageError);
    expect(() => readSettings(reader({ models: `${HAIKU},${HAIKU}` }))).toThrow(
      /input models: expected each model once/,
    );
  });
});

const items = TWO_QUERIES;
const usage = CACHED_RUN_USAGE;
const runOf = (model: string, kind: 'triggered' | 'not-triggered', late = false): RunResult =>
  modelRun(model, kind, usage, late);

function twoModelReport() {
  return buildReport(twoModelArgs());
}

function twoModelArgs(): Parameters<typeof buildReport>[0] {
  return modelsReportArgs({
    items,
    models: [HAIKU, SONNET],
    runsPerQuery: 2,
    noVerdictShare: 0.1,
    lateTurns: 2,
    records: [
      [
        runOf(HAIKU, 'triggered'),
        runOf(SONNET, 'not-triggered', true),
        runOf(SONNET, 'triggered'),
        runOf(HAIKU, 'triggered'),
      ],
      [
        runOf(HAIKU, 'not-triggered'),
        runOf(SONNET, 'not-triggered'),
        runOf(SONNET, 'not-triggered'),
        runOf(HAIKU, 'triggered'),
      ],
    ],
  });
}

describe('a report of two models', () => {
  it('counts each model apart, prices each, and passes its schema', () => {
    const report = reportSchema.parse(twoModelReport());
    const [q1, q2] = report.candidate.queries;
    expect(q1?.byModel).toEqual({
      [HAIKU]: { hits: 2, runs: 2, late: 0, timeouts: 0, errors: 0 },
      [SONNET]: { hits: 1, runs: 2, late: 1, timeouts: 0, errors: 0 },
    });
    expect(q2?.byModel?.[HAIKU]?.hits).toBe(1);
    expect(q1?.planned).toBe(4);
    expect(q1?.late).toBe(1);
    expect(report.candidate.totals.late).toBe(1);
    expect(report.candidate.byModel?.[HAIKU]?.totals.negatives).toEqual({ fired: 1, runs: 2 });
    const perRun = (m: string) => {
      const c = costOf(usage, m, DEFAULT_PRICE_TABLE);
      return c.kind === 'priced' ? c.usd : Number.NaN;
    };
    expect(report.candidate.cost?.byModel[HAIKU]).toBeCloseTo(4 * perRun(HAIKU), 12);
    expect(report.candidate.cost?.byModel[SONNET]).toBeCloseTo(4 * perRun(SONNET), 12);
    expect(report.candidate.byModel?.[SONNET]?.costUsd).toBeCloseTo(4 * perRun(SONNET), 12);
    const markdown = renderMarkdown(report);
    expect(markdown).toContain(`| Id | Should trigger | ${HAIKU} | ${SONNET} |`);
    expect(markdown).toContain(`| q1 | yes | 2/2 | 1/2, 1 late |`);
    // Misses: q1 1 (sonnet), q2 3.
    expect(markdown).toContain('1 of 4 misses loaded the skill later');
  });

  it('the comment shows one column per model and a cost footer', () => {
    const report = twoModelReport();
    const run: ActionRun = {
      event: 'pull_request',
      eventName: 'pull_request',
      prNumber: 7,
      fromFork: false,
      stage: 'measured',
      gates: [],
      notes: [],
      settings: { runs: 2, baseline: 'none', failOnRegression: false },
      skills: [
        {
          kind: 'measured',
          skill: 'handoff',
          file: 'skills/handoff/SKILL.md',
          descriptionLine: 3,
          change: 'modified',
          report,
          reportPath: 'r.json',
          markdownPath: 'r.md',
          warnings: [],
        },
      ],
    };
    const comment = renderComment(run, '0.1.0');
    // Each model's cell holds its own pass: pooled, q1 (3/4) would pass and q2 (1/4) too, on no model's runs.
    expect(comment).toContain(`| Id | Query | Should load | ${HAIKU} | ${SONNET} |\n`);
    expect(comment).toContain('| q1 | write the handoff | yes | 2/2 · pass | 1/2, 1 late · **fail** |\n');
    expect(comment).toContain('| q2 | rename a variable | no | 1/2 · **fail** | 0/2 · pass |\n');
    expect(comment).not.toMatch(/\| Pass \|/);
    // The totals: a column per model with its own counts and passes; the pooled one never decides.
    // Haiku: q1 2/2 (pass), q2 1/2 (fails); Sonnet: q1 1/2 (fails), q2 0/2 (passes).
    expect(comment).toContain(
      `|  | ${HAIKU} | ${SONNET} | all models pooled (describes no model; never decides) |`,
    );
    expect(comment).toMatch(
      /\| Positives triggered \(should load\) \| 2\/2[^|]* \| 1\/2[^|]* \| 3\/4[^|]* \|/,
    );
    expect(comment).toContain('| Queries pass | 1/2 | 1/2 | — |');
    const total = report.candidate.cost?.usd ?? 0;
    expect(comment).toContain(
      `· ${HAIKU}, ${SONNET} · 2 runs per query · cost ${formatUsd(total)} (${HAIKU} ${formatUsd(report.candidate.cost?.byModel[HAIKU] ?? 0)}, ${SONNET} ${formatUsd(report.candidate.cost?.byModel[SONNET] ?? 0)}) · 1 late loads.`,
    );
  });
});

/** Ten runs per model of one should-load query, haiku hitting `haikuHits` and sonnet `sonnetHits`. */
function pooledReport(haikuHits: number, sonnetHits: number) {
  const records: RunResult[] = [];
  for (let i = 0; i < 10; i++) {
    records.push(runOf(HAIKU, i < haikuHits ? 'triggered' : 'not-triggered'));
    records.push(runOf(SONNET, i < sonnetHits ? 'triggered' : 'not-triggered'));
  }
  const negatives: RunResult[] = Array.from({ length: 20 }, (_, i) =>
    runOf(i % 2 ? SONNET : HAIKU, 'not-triggered'),
  );
  return reportSchema.parse(
    buildReport({
      ...twoModelInputs(),
      rules: { runsPerQuery: 10, triggerThreshold: 0.5, noVerdictShare: 0.1 },
      candidate: {
        description: 'Write HANDOFF.md',
        overridden: false,
        stubNames: [],
        records: [records, negatives],
      },
    }),
  );
}

function twoModelInputs() {
  const { candidate: _c, ...rest } = twoModelArgs();
  return rest;
}

describe('a baseline and two models: compared model by model', () => {
  // Pooled, 10/20 → 10/20 is no change; model by model haiku fell 10/10 → 0/10 and sonnet rose.
  const base = pooledReport(10, 0);
  const cand = pooledReport(0, 10);
  const names = { base: 'baseline', cand: 'this PR' };
  const run = (failOnRegression: boolean): ActionRun => ({
    event: 'pull_request',
    eventName: 'pull_request',
    prNumber: 7,
    fromFork: false,
    stage: 'measured',
    gates: [],
    notes: [],
    settings: { runs: 10, baseline: 'cache', failOnRegression },
    skills: [
      {
        kind: 'measured',
        skill: 'handoff',
        file: 'skills/handoff/SKILL.md',
        descriptionLine: 3,
        change: 'modified',
        report: cand,
        reportPath: 'r.json',
        markdownPath: 'r.md',
        baselineReport: base,
        comparison: compareReports(base, cand, { names }),
        byModel: compareReportsByModel(base, cand, { names }).models,
        warnings: [],
      },
    ],
  });

  it('a regression on one model is the skill regression, though the pooled counts did not move', () => {
    const r = run(true);
    const [skill] = r.skills;
    if (skill?.kind !== 'measured') throw new Error('expected a measured skill');
    expect(skill.comparison?.label).toBe('noise');
    expect(skill.byModel?.map((m) => [m.model, m.comparison.label])).toEqual([
      [HAIKU, 'regression'],
      [SONNET, 'improvement'],
    ]);
    expect(standingOf(skill)).toBe('regression');
    expect(regressions(r)).toHaveLength(1);
    const comment = renderComment(r, '0.1.0');
    expect(comment).toContain('Model by model:');
    expect(comment).toContain(`| ${HAIKU} | 10/10 (100%) → 0/10 (0%) | −100 pp | **regression** |`);
    expect(comment).toContain(`| ${SONNET} | 0/10 (0%) → 10/10 (100%) | +100 pp | improvement |`);
    const c = conclude(r);
    expect(JSON.stringify(c)).toContain(`regressed on ${HAIKU}`);
  });

  it('the per-query table gives each model its own baseline → this PR and label, no pooled cells', () => {
    const comment = renderComment(run(true), '0.1.0');
    expect(comment).toContain(
      `| Id | Query | Should load | ${HAIKU}: baseline → This PR | ${SONNET}: baseline → This PR |`,
    );
    // Pooled, q1 went 10/20 → 10/20 (noise); haiku fell and sonnet rose, each labelled on its own runs.
    expect(comment).toContain(
      '| q1 | write the handoff | yes | 10/10 → 0/10 · **regression** | 0/10 → 10/10 · improvement |',
    );
    expect(comment).toContain('| q2 | rename a variable | no | 0/10 → 0/10 · noise | 0/10 → 0/10 · noise |');
    const perQuery = comment.slice(comment.indexOf('<summary>Per query'));
    expect(perQuery).not.toContain('| Baseline | This PR |');
    expect(perQuery).not.toContain('10/20');
  });

  it('without several models nothing is compared model by model', () => {
    const r = run(false);
    const [skill] = r.skills;
    if (skill?.kind !== 'measured') throw new Error('expected a measured skill');
    const { byModel: _b, ...pooledOnly } = skill;
    expect(standingOf(pooledOnly)).toBe('noise');
    expect(renderComment({ ...r, skills: [pooledOnly] }, '0.1.0')).not.toContain('Model by model:');
  });
});
