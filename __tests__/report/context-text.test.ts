import { describe, expect, it } from 'vitest';
import type { EvalItem } from '../../src/inputs/types.js';
import type { Outcome } from '../../src/outcome.js';
import { buildReport, type ReportedRun } from '../../src/report/build/build.js';
import { contextArmLines } from '../../src/report/context-text.js';
import { headlineLines } from '../../src/report/headline.js';
import { runPageBody } from '../../src/report/html/run-page.js';
import { renderMarkdown } from '../../src/report/markdown.js';

/**
 * The context arms as the terminal, the Markdown report and the HTML page say them (docs/context.md,
 * "Arms", "Fresh against the session"): a line per arm, and with --versus-fresh the session's cost.
 */
const TURNS = [
  { role: 'user' as const, content: 'The deploy broke.' },
  { role: 'assistant' as const, content: 'Fixed.' },
];
const USAGE = { inputTokens: 1, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
const run = (kind: Outcome['kind'], inContext = false): ReportedRun => ({
  outcome: { kind } as Outcome,
  durationMs: 100,
  usage: USAGE,
  ...(inContext ? { inContext: true as const } : {}),
});
const items: EvalItem[] = [
  { id: 'p1', query: 'write the handoff', shouldTrigger: true, extra: {}, context: { turns: TURNS } },
  { id: 'n1', query: 'capital of France', shouldTrigger: false, extra: {}, context: { turns: TURNS } },
];
const report = (versusFresh: boolean, records: ReportedRun[][]) =>
  buildReport({
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
    ...(versusFresh ? { versusFresh: true } : {}),
    candidate: { description: 'Write HANDOFF.md', overridden: false, records, stubNames: [] },
  });
const both = [
  [run('triggered'), run('not-triggered', true), run('triggered'), run('triggered', true)],
  [run('not-triggered'), run('not-triggered', true), run('not-triggered'), run('not-triggered', true)],
];

describe('the context arms in words', () => {
  it('says each arm and what the session costs, in the terminal, the Markdown and the page', () => {
    const r = report(true, both);
    const lines = contextArmLines(r.candidate);
    expect(lines).toEqual([
      'fresh: positives triggered 2/2 · negatives fired 0/2 · 2/2 queries pass',
      'with a context: positives triggered 1/2 · negatives fired 0/2 · 1/2 queries pass',
      expect.stringMatching(
        /^the session costs positives −50 pp \[−\d+ pp, \+\d+ pp\] \(fresh 2\/2 100% → with the context 1\/2 50%\) · negatives ±0 pp .*, over 2 queries measured both ways$/,
      ),
    ]);
    expect(headlineLines(r.candidate).slice(1)).toEqual(lines);
    const markdown = renderMarkdown(r);
    for (const line of lines) expect(markdown).toContain(line);
    expect(runPageBody(r).text).toContain('the session costs positives −50 pp');
  });

  it('says nothing of arms when every run started alike', () => {
    const r = report(
      false,
      both.map((runs) => runs.filter((x) => x.inContext === true)),
    );
    expect(contextArmLines(r.candidate)).toEqual([]);
    expect(renderMarkdown(r)).not.toContain('with a context:');
  });
});
