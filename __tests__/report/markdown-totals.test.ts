import { describe, expect, it } from 'vitest';
import { totalsSection } from '../../src/report/markdown-totals.js';
import type { Measurement } from '../../src/schemas/report.js';
import { buildMeasurement } from '../fakes/measurement-builder.js';

/** Two queries: p1 measured whole; p_2 with one timeout and one error (a cause holding Markdown). */
function measurement(): Measurement {
  const m = buildMeasurement([
    { query: 'p1', shouldTrigger: true, hits: 2, runs: 2 },
    { id: 'p_2', query: 'p2', shouldTrigger: true, hits: 0, runs: 0, lost: 2 },
  ]);
  const lossy = m.queries[1];
  if (!lossy) throw new Error('fixture');
  m.queries[1] = { ...lossy, outcomes: ['timeout', 'error:api:5*9'], timeouts: 1, errors: 1, pass: null };
  m.totals = {
    ...m.totals,
    timeouts: 1,
    errors: 1,
    errorCauses: { 'api:5*9': 1, 'api:429': 0 },
    passed: 1,
    failed: 0,
    usage: {
      inputTokens: 1234567,
      outputTokens: 89,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 1000,
    },
  };
  return m;
}

describe('totalsSection', () => {
  it('one side: its counts, the unmeasured queries, error causes (none at zero), usage, then each lost run', () => {
    expect(totalsSection([{ m: measurement() }])).toEqual([
      '## Totals',
      '',
      '- Queries: 1 pass, 0 fail, 1 unmeasured',
      '- Runs: 4 of 4 planned ran; 1 timeout, 1 error',
      '- Errors by cause: api:5\\*9 1',
      '- Usage: 1,234,567 input, 89 output, 0 cache read, 1,000 cache write tokens',
      '',
      'Lost runs (counted apart):',
      '',
      '- p\\_2: run 1 timed out; run 2 error (api:5\\*9)',
    ]);
  });

  it('a whole measurement has no causes line and no lost runs', () => {
    const whole = buildMeasurement([{ query: 'p1', shouldTrigger: true, hits: 2, runs: 2 }]);
    const lines = totalsSection([{ m: whole }]);
    expect(lines).toContain('- Runs: 2 of 2 planned ran; 0 timeouts, 0 errors');
    expect(lines.some((l) => l.startsWith('- Errors by cause'))).toBe(false);
    expect(lines).not.toContain('Lost runs (counted apart):');
  });

  it('two sides: a heading for each, baseline first', () => {
    const lines = totalsSection([
      { label: 'Baseline', m: measurement() },
      { label: 'Candidate', m: buildMeasurement([{ query: 'p1', shouldTrigger: true, hits: 1, runs: 2 }]) },
    ]);
    const baseline = lines.indexOf('### Baseline');
    const candidate = lines.indexOf('### Candidate');
    expect(baseline).toBeGreaterThan(0);
    expect(candidate).toBeGreaterThan(baseline);
    expect(lines.indexOf('Lost runs (counted apart):')).toBeLessThan(candidate);
  });
});
