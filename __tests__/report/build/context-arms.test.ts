import { describe, expect, it } from 'vitest';
import { describeContext } from '../../../src/inputs/context.js';
import type { EvalItem } from '../../../src/inputs/types.js';
import type { Outcome } from '../../../src/outcome.js';
import { buildReport, type ReportedRun, type ReportInput } from '../../../src/report/build/build.js';
import { reportSchema } from '../../../src/schemas/report.js';

/**
 * Runs with a context as their own arm (docs/context.md, "Arms"): each arm judged over its own
 * queries, with its own totals and verdict; each query says its context's summary, never its text;
 * a needs_context query that carries a context is no longer counted apart.
 */
const TURNS = [
  { role: 'user' as const, content: 'The deploy broke after the rename.' },
  { role: 'assistant' as const, content: 'Fixed deploy.sh.' },
];
const USAGE = { inputTokens: 10, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
const run = (kind: Outcome['kind'], inContext = false): ReportedRun => ({
  outcome: kind === 'error' ? { kind, cause: 'overloaded' } : ({ kind } as Outcome),
  durationMs: 100,
  usage: USAGE,
  ...(inContext ? { inContext: true as const } : {}),
});

function report(items: EvalItem[], records: ReportedRun[][], versusFresh = false) {
  const input: ReportInput = {
    ...(versusFresh ? { versusFresh: true } : {}),
    toolVersion: '1.2.3',
    createdAt: new Date('2026-12-06T10:00:00.000Z'),
    skill: 'handoff',
    simulated: true,
    items,
    rules: { runsPerQuery: 2, triggerThreshold: 0.5, noVerdictShare: 0.1 },
    timeoutSeconds: 60,
    stub: 'command',
    maxRetries: 0,
    conflictAllowed: false,
    environment: null,
    aborted: false,
    interrupted: false,
    candidate: { description: 'Write HANDOFF.md', overridden: false, records, stubNames: [] },
  };
  return reportSchema.parse(buildReport(input));
}

describe('a measurement whose queries start fresh and with a context', () => {
  const items: EvalItem[] = [
    { id: 'p1', query: 'write the handoff', shouldTrigger: true, extra: {} },
    {
      id: 'p2',
      query: 'hand it over now',
      shouldTrigger: true,
      extra: { needs_context: true },
      context: { turns: TURNS },
    },
    { id: 'n1', query: 'capital of France', shouldTrigger: false, extra: {} },
  ];
  const records = [
    [run('triggered'), run('triggered')],
    [run('not-triggered', true), run('triggered', true)],
    [run('not-triggered'), run('not-triggered')],
  ];

  it('judges each arm over its own queries, and says each query’s context by its summary', () => {
    const r = report(items, records);
    const { fresh, context } = r.candidate.byContext ?? {};
    expect(fresh?.totals.positives).toEqual({ triggered: 2, runs: 2 });
    expect(fresh?.totals.queries).toBe(2);
    expect(context?.totals.positives).toEqual({ triggered: 1, runs: 2 });
    expect(context?.totals.queries).toBe(1);
    expect(fresh?.verdict).toBe('ok');
    expect(context?.verdict).toBe('ok');
    expect(r.candidate.queries.map((q) => q.context)).toEqual([undefined, describeContext(TURNS), undefined]);
    expect(r.candidate.queries[1]?.byContext).toEqual({
      context: { hits: 1, runs: 2, late: 0, timeouts: 0, errors: 0 },
    });
    expect(JSON.stringify(r)).not.toContain('deploy');
  });

  it('counts a needs_context query that carries a context as any other', () => {
    expect(report(items, records).candidate.subsets).toBeUndefined();
    const fresh = items.map(({ context: _, ...item }) => item);
    expect(
      report(
        fresh,
        records.map((runs) => runs.map(({ inContext: _, ...r }) => r)),
      ).candidate.subsets?.withoutContext?.queries,
    ).toBe(2);
  });

  it('splits nothing when every run started alike', () => {
    const r = report(
      items,
      records.map((runs) => runs.map((x) => ({ ...x, inContext: true as const }))),
    );
    expect(r.candidate.byContext).toBeUndefined();
  });

  it('leaves the whole without a verdict when one arm lost too many runs', () => {
    const r = report(items, [records[0] ?? [], [run('error', true), run('error', true)], records[2] ?? []]);
    expect(r.candidate.byContext?.context?.verdict).toBe('no-verdict');
    expect(r.candidate.verdict).toBe('no-verdict');
    expect(r.candidate.noVerdictReasons.some((reason) => reason.startsWith('context: '))).toBe(true);
  });
});

describe('--versus-fresh: each query with a context measured fresh and with it', () => {
  const items: EvalItem[] = [
    { id: 'p1', query: 'write the handoff', shouldTrigger: true, extra: {}, context: { turns: TURNS } },
    { id: 'p2', query: 'hand it over now', shouldTrigger: true, extra: {}, context: { turns: TURNS } },
    { id: 'n1', query: 'capital of France', shouldTrigger: false, extra: {}, context: { turns: TURNS } },
  ];
  // Interleaved as the loop runs them: fresh, then with the context, each pass.
  const records = [
    [run('triggered'), run('not-triggered', true), run('triggered'), run('not-triggered', true)],
    [run('triggered'), run('triggered', true), run('triggered'), run('not-triggered', true)],
    [run('not-triggered'), run('triggered', true), run('not-triggered'), run('not-triggered', true)],
  ];

  it('plans each query in both arms and says how many points the session costs', () => {
    const r = report(items, records, true);
    expect(r.settings.versusFresh).toBe(true);
    // Planned twice over: no query is partial, and the loss budget counts every run.
    expect(r.candidate.totals.planned).toBe(12);
    expect(r.candidate.partialQueries).toEqual([]);
    expect(r.candidate.queries.map((q) => q.planned)).toEqual([4, 4, 4]);
    const { fresh, context } = r.candidate.byContext ?? {};
    expect(fresh?.totals.planned).toBe(6);
    expect(fresh?.totals.positives).toEqual({ triggered: 4, runs: 4 });
    expect(context?.totals.positives).toEqual({ triggered: 1, runs: 4 });
    expect(r.candidate.sessionCost?.queries).toBe(3);
    expect(r.candidate.sessionCost?.positives).toMatchObject({
      fresh: { hits: 4, runs: 4 },
      context: { hits: 1, runs: 4 },
      deltaRate: -0.75,
    });
    expect(r.candidate.sessionCost?.negatives.deltaRate).toBe(0.5);
    const interval = r.candidate.sessionCost?.positives.interval;
    expect(interval?.lower).toBeLessThan(-0.75);
    expect(interval?.upper).toBeGreaterThan(-0.75);
    expect(interval?.upper).toBeLessThan(0);
  });

  it('says no cost where no query ran both ways', () => {
    const r = report(
      items,
      records.map((runs) => runs.filter((x) => x.inContext === true)),
      true,
    );
    expect(r.candidate.sessionCost).toBeUndefined();
    expect(r.candidate.byContext).toBeUndefined();
  });
});
