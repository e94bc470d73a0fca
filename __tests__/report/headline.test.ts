import { describe, expect, it } from 'vitest';
import {
  counted,
  hasSeveralModels,
  headline,
  headlineLines,
  OUTCOME_LEGEND,
  outcomeSymbol,
  outcomeSymbols,
  POOLED_AGENTS_MARK,
  POOLED_MARK,
  passesText,
  queriesPassText,
  settingsText,
} from '../../src/report/headline.js';
import type { Measurement, ModelSummaryReport, Report } from '../../src/schemas/report.js';
import { buildMeasurement, buildReport, type QuerySpec } from '../fakes/measurement-builder.js';

// The short shared texts of a measurement, on hand-built measurements.
const SPECS: QuerySpec[] = [
  { query: 'p1', shouldTrigger: true, hits: 2, runs: 2 },
  { query: 'p2', shouldTrigger: true, hits: 1, runs: 2 },
  { query: 'n1', shouldTrigger: false, hits: 0, runs: 1, lost: 1 },
];
const m = buildMeasurement(SPECS);

/** A per-model (or per-agent) summary with its own totals. */
function summary(
  pos: [number, number],
  neg: [number, number],
  passed: number,
  queries: number,
): ModelSummaryReport {
  return {
    verdict: 'ok',
    noVerdictReasons: [],
    lostQueries: [],
    totals: {
      ...m.totals,
      positives: { triggered: pos[0], runs: pos[1] },
      negatives: { fired: neg[0], runs: neg[1] },
      timeouts: 0,
      errors: 0,
      passed,
      queries,
    },
  };
}
/** 2 runs per query, timeout 30 s, threshold 0.5, no verdict above 10%, command stub, 2 retries. */
const SETTINGS: Report['settings'] = buildReport(m).settings;

describe('outcome symbols', () => {
  it('one per outcome code, every error cause a cross', () => {
    expect(
      ['triggered', 'not-triggered', 'timeout', 'error:auth', 'error:overloaded'].map(outcomeSymbol),
    ).toEqual(['●', '○', '◌', '✕', '✕']);
    expect(outcomeSymbols(['triggered', 'timeout', 'not-triggered'])).toBe('●◌○');
    expect(outcomeSymbols([])).toBe('');
  });

  it('the legend names every symbol', () => {
    for (const symbol of ['●', '○', '◌', '✕']) expect(OUTCOME_LEGEND).toContain(symbol);
  });
});

describe('counted', () => {
  it('singular for exactly one, the plural given or with an s', () => {
    expect(counted(1, 'timeout')).toBe('1 timeout');
    expect(counted(0, 'timeout')).toBe('0 timeouts');
    expect(counted(2, 'API retry', 'API retries')).toBe('2 API retries');
    expect(counted(1, 'API retry', 'API retries')).toBe('1 API retry');
  });
});

describe('settingsText', () => {
  it('fixed runs: every setting in one line', () => {
    expect(settingsText(SETTINGS, 'unused')).toBe(
      '2 runs per query · timeout 30 s · trigger threshold 0.5 · no verdict above 10% lost runs · stub as a command · 2 API retries',
    );
  });

  it('auto runs: the most a query could get and what auto did; singulars for one', () => {
    expect(
      settingsText(
        { ...SETTINGS, runsMode: 'auto', runsPerQuery: 1, maxRetries: 1, stub: 'skill' },
        '3 stopped early',
      ),
    ).toBe(
      'up to 1 run per query (3 stopped early) · timeout 30 s · trigger threshold 0.5 · no verdict above 10% lost runs · stub as a skill · 1 API retry',
    );
  });

  it('the no-verdict share is a whole percent, halves up', () => {
    expect(settingsText({ ...SETTINGS, noVerdictShare: 0.125 }, '')).toContain(
      'no verdict above 13% lost runs',
    );
  });
});

describe('headline', () => {
  it('measured runs per class, and the lost runs counted apart', () => {
    expect(headline(m)).toBe(
      'positives triggered 3/4 · negatives fired 0/1 · 1 timeout, 0 errors counted apart',
    );
  });

  it('a class with queries marked needs_context also shows its total without them', () => {
    const subsets: Measurement['subsets'] = {
      withoutContext: {
        queries: 2,
        positives: { queries: 1, passed: 1, triggered: 2, runs: 2 },
        negatives: { queries: 1, passed: 1, fired: 0, runs: 1 },
        passed: 2,
        failed: 0,
      },
    };
    expect(headline({ ...m, subsets })).toBe(
      'positives triggered 3/4 · 2/2 without the 1 that presupposes a session · negatives fired 0/1 · 1 timeout, 0 errors counted apart',
    );
  });
});

describe('queriesPassText', () => {
  it('agrees in number with the queries', () => {
    expect(queriesPassText(m)).toBe(`${m.totals.passed}/3 queries pass`);
    const one = buildMeasurement([{ query: 'p', shouldTrigger: true, hits: 2, runs: 2 }]);
    expect(queriesPassText(one)).toBe('1/1 query passes');
  });
});

describe('several models or agents', () => {
  const byModel = {
    'claude-haiku|x': summary([3, 4], [0, 4], 4, 4),
    'claude-sonnet': summary([1, 4], [2, 4], 1, 4),
  };

  it('one model, or none, is not several; two models or two agents are', () => {
    expect(hasSeveralModels(m)).toBe(false);
    expect(hasSeveralModels({ ...m, byModel: { one: summary([1, 1], [0, 1], 2, 2) } })).toBe(false);
    expect(hasSeveralModels({ ...m, byModel })).toBe(true);
    expect(hasSeveralModels({ ...m, byAgent: byModel })).toBe(true);
    expect(hasSeveralModels({ ...m, byAgent: { claude: summary([1, 1], [0, 1], 2, 2) } })).toBe(false);
  });

  it('one model: the headline and the pass count on one line', () => {
    expect(headlineLines(m)).toEqual([`${headline(m)} · ${queriesPassText(m)}`]);
    expect(passesText(m)).toBe(queriesPassText(m));
  });

  it('several models: a line per model, names escaped by the caller, then the pooled counts marked', () => {
    const esc = (t: string) => t.replace('|', '\\|');
    const lines = headlineLines({ ...m, byModel }, esc);
    expect(lines).toEqual([
      'claude-haiku\\|x: positives triggered 3/4 · negatives fired 0/4 · 4/4 queries pass',
      'claude-sonnet: positives triggered 1/4 · negatives fired 2/4 · 1/4 queries pass',
      `${POOLED_MARK}: ${headline(m)}`,
    ]);
    expect(POOLED_MARK).toContain('never decides');
    expect(passesText({ ...m, byModel }, esc)).toBe(
      'claude-haiku\\|x 4/4 queries pass, claude-sonnet 1/4 queries pass',
    );
  });

  it('several agents: a line per agent, the pooled line marked for agents', () => {
    const byAgent = { claude: summary([3, 4], [0, 4], 4, 4), codex: summary([1, 1], [0, 1], 1, 1) };
    const lines = headlineLines({ ...m, byAgent });
    expect(lines[0]).toMatch(/^claude: positives triggered 3\/4/);
    expect(lines[1]).toMatch(/^codex: positives triggered 1\/1/);
    expect(lines[2]).toBe(`${POOLED_AGENTS_MARK}: ${headline(m)}`);
    expect(passesText({ ...m, byAgent })).toBe('claude 4/4 queries pass, codex 1/1 query passes');
  });
});
