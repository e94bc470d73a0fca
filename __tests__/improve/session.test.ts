import { describe, expect, it } from 'vitest';
import type { AskResult } from '../../src/agents/agent.js';
import { readRewritePrompt } from '../../src/author/prompts.js';
import { type ImproveDeps, type ImproveSettings, runImproveSession } from '../../src/improve/session.js';
import type { EvalItem } from '../../src/inputs/types.js';
import { improveReportSchema } from '../../src/schemas/improve.js';
import { buildMeasurement, buildReport } from '../fakes/measurement-builder.js';

/**
 * The session's flow with its two seams replaced: measurements built from known hit rates (each
 * query's hits = rate × runs, so every figure is exact) and scripted rewrite answers.
 */
const RUNS = 4;
const ORIGINAL = 'Helps with notes.';

const items: EvalItem[] = [
  { id: 'q1', query: 'train wanted', shouldTrigger: true, extra: {} },
  { id: 'q2', query: 'train wanted too', shouldTrigger: true, extra: {} },
  { id: 'q3', query: 'train unwanted', shouldTrigger: false, extra: {} },
  { id: 'q4', query: 'train unwanted too', shouldTrigger: false, extra: {} },
  { id: 'q5', query: 'held wanted', shouldTrigger: true, extra: { split: 'holdout' } },
  { id: 'q6', query: 'held unwanted', shouldTrigger: false, extra: { split: 'holdout' } },
];

/** Per description: [train positives, train negatives, holdout positives, holdout negatives]. */
type Rates = Record<string, readonly [number, number, number, number]>;

function deps(rates: Rates, answers: AskResult[]) {
  const prompts: string[] = [];
  const measured: string[] = [];
  const side = (description: string, of: EvalItem[]) => {
    const r = rates[description] ?? [0, 0, 0, 0];
    return buildMeasurement(
      of.map((i) => {
        const held = i.extra.split === 'holdout';
        const p = i.shouldTrigger ? r[held ? 2 : 0] : r[held ? 3 : 1];
        return {
          id: i.id,
          query: i.query,
          shouldTrigger: i.shouldTrigger,
          hits: Math.round(p * RUNS),
          runs: RUNS,
        };
      }),
    );
  };
  const d: ImproveDeps = {
    phase: () => {},
    ask: async (prompt) => {
      prompts.push(prompt);
      return answers.shift() ?? { kind: 'answer', text: 'no tags at all' };
    },
    measure: async ({ phase, items: of, description, baseline }) => {
      measured.push(phase);
      const candidate = side(description, of);
      return buildReport(candidate, baseline === undefined ? {} : { baseline: side(baseline, of) });
    },
  };
  return { d, prompts, measured };
}

const settings: ImproveSettings = {
  skillName: 'handoff',
  body: '# handoff',
  original: ORIGINAL,
  items,
  iterations: 3,
  runsPerQuery: RUNS,
  runsAuto: false,
  triggerThreshold: 0.5,
  stub: 'command',
  simulated: true,
  toolVersion: '0.0.0-test',
  now: () => new Date('2026-12-01T00:00:00Z'),
};

const proposal = (text: string): AskResult => ({
  kind: 'answer',
  text: `<new_description>${text}</new_description>`,
});

describe('runImproveSession', () => {
  it('reports a train winner that reverses on the holdout as did-not-generalise', async () => {
    const { d } = deps({ [ORIGINAL]: [0, 0, 1, 0], 'Overfit text.': [1, 0, 0, 1] }, [
      proposal('Overfit text.'),
    ]);
    const report = improveReportSchema.parse(await runImproveSession({ ...settings, iterations: 1 }, d));
    expect(report.candidates[0]).toMatchObject({ decision: 'accepted' });
    expect(report.final.recommendation).toBe('did-not-generalise');
    expect(report.final.winner).toBe('Overfit text.');
    expect(report.final.holdout?.label).toBe('regression');
  });

  it('shows the rewriter the train failures only, and the earlier attempts', async () => {
    const { d, prompts } = deps({ [ORIGINAL]: [0, 1, 0, 1], 'Second.': [0, 1, 0, 1] }, [
      proposal('Second.'),
      proposal('Third.'),
    ]);
    await runImproveSession(settings, d);
    const first = readRewritePrompt(prompts[0] ?? '');
    expect(first?.failing.map((f) => f.query).sort()).toEqual([
      'train unwanted',
      'train unwanted too',
      'train wanted',
      'train wanted too',
    ]);
    for (const p of prompts) expect(p).not.toMatch(/held/);
    expect(readRewritePrompt(prompts[1] ?? '')?.attempts.map((a) => a.description)).toEqual(['Second.']);
  });

  it('rejects a repeat and an untagged answer without measuring them, then stops after two rejections', async () => {
    const { d, measured } = deps({}, [proposal(ORIGINAL), { kind: 'answer', text: 'I would say: notes.' }]);
    const report = await runImproveSession(settings, d);
    expect(report.candidates.map((c) => c.proposal)).toEqual(['repeat', 'no-answer']);
    expect(report.stopReason).toBe('two proposals in a row were rejected');
    expect(measured).toEqual(['original']);
    expect(report.final.recommendation).toBe('keep-original');
  });

  it('rejects a proposal over the 1,024-character limit, naming no path', async () => {
    const { d, measured } = deps({}, [proposal('x'.repeat(1100)), proposal(ORIGINAL)]);
    const report = await runImproveSession(settings, d);
    expect(report.candidates[0]).toMatchObject({ proposal: 'invalid', decision: 'rejected' });
    expect(report.candidates[0]?.reason).toMatch(/^the proposed description: .*1024/);
    expect(measured).toEqual(['original']);
  });

  it('stops when a rewrite call fails', async () => {
    const { d } = deps({}, [{ kind: 'timeout', seconds: 180 }]);
    const report = await runImproveSession(settings, d);
    expect(report.stopReason).toBe('the rewrite call failed: no answer within 180 s');
    expect(report.candidates).toHaveLength(1);
  });
});

describe('runImproveSession with --max-cost-usd', () => {
  /**
   * Every measured run costs $1 and a rewrite call $3; a measurement given a budget stops before
   * the run that would pass it, as the loop does, and says so in `budgetStop`.
   */
  function priced(rates: Rates, answers: AskResult[]) {
    const base = deps(rates, answers);
    const measure: ImproveDeps['measure'] = async (request) => {
      const report = await base.d.measure(request);
      const runs = request.items.length * RUNS * (request.baseline === undefined ? 1 : 2);
      const paid = request.budget ? Math.min(runs, Math.floor(request.budget.maxUsd)) : runs;
      const cost = { usd: paid, pricedRuns: paid, unpricedRuns: 0, unknownModels: [], byModel: {} };
      return {
        ...report,
        candidate: {
          ...report.candidate,
          cost,
          ...(paid < runs
            ? { budgetStop: { spentUsd: paid, nextEstimateUsd: 1, maxUsd: request.budget?.maxUsd ?? 1 } }
            : {}),
        },
        ...(report.baseline
          ? { baseline: { ...report.baseline, cost: { ...cost, usd: 0, pricedRuns: 0 } } }
          : {}),
      };
    };
    const usage = { inputTokens: 3, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
    const d: ImproveDeps = {
      ...base.d,
      measure,
      ask: async (prompt) => {
        const answer = await base.d.ask(prompt);
        return answer.kind === 'answer' ? { ...answer, usage } : answer;
      },
    };
    return { d, prompts: base.prompts, measured: base.measured };
  }
  const budgeted = (maxUsd: number): ImproveSettings => ({
    ...settings,
    iterations: 1,
    budget: { maxUsd, firstRunUsd: 1, rewriteUsd: 2 },
    costOfUsage: (u) => u.inputTokens,
  });

  it('stops in the candidate’s paired measurement: the candidate not judged, no verdict, the spend reported', async () => {
    // The original: 6 queries × 4 runs = $24; the rewrite $3; the candidate's 32 runs get the $13 left.
    const { d, measured } = priced({ [ORIGINAL]: [0, 0, 0, 0], 'Better.': [1, 0, 1, 0] }, [
      proposal('Better.'),
    ]);
    const report = improveReportSchema.parse(await runImproveSession(budgeted(40), d));
    expect(measured).toEqual(['original', 'candidate 1']);
    expect(report.candidates).toHaveLength(1);
    expect(report.candidates[0]).toMatchObject({
      description: 'Better.',
      decision: 'rejected',
      label: 'no-verdict',
      reason: 'not judged: --max-cost-usd stopped its measurement',
      pValue: null,
    });
    expect(report.final).toEqual({
      winner: null,
      holdout: null,
      recommendation: 'no-verdict',
      written: false,
    });
    expect(report.stopReason).toMatch(/^budget: stopped before a measured run \(candidate 1\)/);
    expect(report.cost).toEqual({ usd: 40, measuredUsd: 37, rewriteUsd: 3, rewriteCalls: 1 });
    expect(report.budgetStop).toMatchObject({
      before: 'run',
      phase: 'candidate 1',
      spentUsd: 40,
      maxUsd: 40,
    });
    expect(report.settings.maxCostUsd).toBe(40);
  });

  it('stops before a rewrite call the budget cannot pay for, without making it', async () => {
    const { d, prompts } = priced({ [ORIGINAL]: [0, 0, 0, 0] }, [proposal('Better.')]);
    const report = improveReportSchema.parse(await runImproveSession(budgeted(25), d));
    expect(prompts).toHaveLength(0);
    expect(report.candidates).toEqual([]);
    expect(report.final.recommendation).toBe('no-verdict');
    expect(report.budgetStop).toMatchObject({ before: 'rewrite', phase: 'rewrite 1', nextEstimateUsd: 2 });
    expect(report.stopReason).toMatch(/^budget: stopped before a rewrite call \(rewrite 1\)/);
  });

  it('stops in the original’s measurement and still reports what it measured', async () => {
    const { d, measured, prompts } = priced({ [ORIGINAL]: [0.5, 0, 0.5, 0] }, []);
    const report = improveReportSchema.parse(await runImproveSession(budgeted(10), d));
    expect(measured).toEqual(['original']);
    expect(prompts).toHaveLength(0);
    expect(report.original.train.positives.runs).toBe(8);
    expect(report.final.recommendation).toBe('no-verdict');
    expect(report.budgetStop?.phase).toBe('original');
  });

  it('stops in the holdout check: the winner is named, unchecked, never adopted', async () => {
    // $24 + $3 + $32 = $59 before the holdout; its 16 runs get the $6 left.
    const { d } = priced({ [ORIGINAL]: [0, 0, 0, 0], 'Better.': [1, 0, 1, 0] }, [proposal('Better.')]);
    const report = improveReportSchema.parse(await runImproveSession(budgeted(65), d));
    expect(report.candidates[0]?.decision).toBe('accepted');
    expect(report.final.winner).toBe('Better.');
    expect(report.final.recommendation).toBe('no-verdict');
    expect(report.final.holdout).toMatchObject({ label: 'no-verdict', reason: /not judged/ });
    expect(report.budgetStop?.phase).toBe('holdout');
  });

  it('without a budget, reports the spend and never stops', async () => {
    const { d } = priced({ [ORIGINAL]: [0, 0, 0, 0], 'Better.': [1, 0, 1, 0] }, [proposal('Better.')]);
    const { budget: _, ...free } = budgeted(1);
    const report = improveReportSchema.parse(await runImproveSession(free, d));
    expect(report.final.recommendation).toBe('adopt');
    expect(report.budgetStop).toBeUndefined();
    expect(report.cost).toEqual({ usd: 24 + 3 + 32 + 16, measuredUsd: 72, rewriteUsd: 3, rewriteCalls: 1 });
  });
});
