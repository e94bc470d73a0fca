import { describe, expect, it } from 'vitest';
import { type Comparison, compareMeasurements } from '../../src/compare/compare.js';
import {
  COMPARISON_SCHEMA_ID,
  COMPARISON_SCHEMA_VERSION,
  comparisonJson,
  formatP,
  labelText,
  renderComparisonText,
  rowP,
  SIMULATED_LINE,
  subsetClassRows,
} from '../../src/compare/render.js';
import { buildMeasurement, type QuerySpec, SHA_A, SHA_B } from '../fakes/measurement-builder.js';

// The renderings of a comparison on their own; compare.test.ts tests what compare computes.

/** n positives and n negatives with the same counts each. */
function set(
  n: number,
  pos: [number, number],
  neg: [number, number],
  extra = (_i: number) => ({}),
): QuerySpec[] {
  return [
    ...Array.from({ length: n }, (_, i) => ({
      query: `positive ${i}`,
      shouldTrigger: true,
      hits: pos[0],
      runs: pos[1],
      extra: extra(i),
    })),
    ...Array.from({ length: n }, (_, i) => ({
      query: `negative ${i}`,
      shouldTrigger: false,
      hits: neg[0],
      runs: neg[1],
      extra: extra(i),
    })),
  ];
}

const compare = (base: QuerySpec[], cand: QuerySpec[], names = { base: 'main', cand: 'pr' }): Comparison =>
  compareMeasurements(buildMeasurement(base), buildMeasurement(cand, { sha256: SHA_B, bytes: 98 }), {
    names,
  });

describe('formatP', () => {
  it('three decimals from 0.001, 1 from 0.9995, two significant digits below 0.001', () => {
    expect(formatP(1)).toBe('1');
    expect(formatP(0.9995)).toBe('1');
    expect(formatP(0.99949)).toBe('0.999');
    expect(formatP(0.05)).toBe('0.050');
    expect(formatP(0.0125)).toBe('0.013');
    expect(formatP(0.001)).toBe('0.001');
    expect(formatP(0.000999)).toBe('1.0e-3');
    expect(formatP(1.26e-7)).toBe('1.3e-7');
  });
});

describe('labelText', () => {
  it('reads each label as the PR comment does', () => {
    expect(['noise', 'improvement', 'regression', 'no-verdict'].map((l) => labelText(l as never))).toEqual([
      'noise',
      'improvement',
      'regression',
      'no verdict',
    ]);
  });
});

describe('rowP', () => {
  const row = (shouldTrigger: boolean, deltaRate: number | null) =>
    ({ shouldTrigger, deltaRate, pBad: 0.2, pGood: 0.8, pBadAdjusted: 0.4, pGoodAdjusted: 1 }) as Parameters<
      typeof rowP
    >[0];

  it('takes the good direction when the rate moved the good way for the class', () => {
    expect(rowP(row(true, 0.5))).toEqual({ p: 0.8, adjusted: 1 });
    expect(rowP(row(false, -0.5))).toEqual({ p: 0.8, adjusted: 1 });
  });

  it('takes the bad direction when it moved the bad way, did not move, or a side has no run', () => {
    expect(rowP(row(true, -0.5))).toEqual({ p: 0.2, adjusted: 0.4 });
    expect(rowP(row(false, 0.5))).toEqual({ p: 0.2, adjusted: 0.4 });
    expect(rowP(row(true, 0))).toEqual({ p: 0.2, adjusted: 0.4 });
    expect(rowP(row(true, null))).toEqual({ p: 0.2, adjusted: 0.4 });
  });
});

describe('renderComparisonText', () => {
  const c = compare(set(3, [2, 2], [0, 2]), set(3, [2, 2], [0, 2]));

  it('opens with the overall label, then the sides by name; says a different description with short hashes', () => {
    const text = renderComparisonText(c);
    expect(text.startsWith('Overall: noise\nskilltrigger compare · base main → cand pr\n\n')).toBe(true);
    expect(text).toContain(
      `Description: different text (sha256 ${SHA_A.slice(0, 12)} → ${SHA_B.slice(0, 12)}, 120 → 98 bytes).`,
    );
    expect(text).toContain('Queries: 6 shared · 0 only in main · 0 only in pr\n');
    expect(text).not.toContain('Warnings');
    expect(text.match(/Overall/g)).toHaveLength(1);
  });

  it('a simulated comparison says so first', () => {
    expect(
      renderComparisonText(c, { simulated: true }).startsWith(`${SIMULATED_LINE}\n\nOverall: noise\n`),
    ).toBe(true);
    expect(SIMULATED_LINE).toMatch(/^SIMULATED: .* not by Claude/);
  });

  it('the same description is called an A/A comparison', () => {
    const same = compareMeasurements(
      buildMeasurement(set(2, [2, 2], [0, 2])),
      buildMeasurement(set(2, [2, 2], [0, 2])),
    );
    expect(renderComparisonText(same)).toContain(
      `Description: the same text on both sides (sha256 ${SHA_A.slice(0, 12)}, 120 bytes) — an A/A comparison: any labelled change is a false alarm.`,
    );
  });

  it('warnings are listed with their codes, and the unshared and changed queries are counted', () => {
    const base = [...set(2, [2, 2], [0, 2]), { query: 'flip', shouldTrigger: true, hits: 1, runs: 2 }];
    const cand = [
      ...set(2, [2, 2], [0, 2]),
      { query: 'flip', shouldTrigger: false, hits: 1, runs: 2 },
      { query: 'new one', shouldTrigger: true, hits: 2, runs: 2 },
    ];
    const text = renderComparisonText(compare(base, cand));
    expect(text).toContain(
      'Queries: 4 shared · 0 only in main · 1 only in pr · 1 with should_trigger changed\n',
    );
    expect(text).toMatch(/Warnings \(\d+\):\n {2}! .+ \[queries-unshared\]/);
    expect(text).toMatch(/ {2}! .+ \[should-trigger-changed\]/);
  });

  it('the per-query table: counts, a * on partial sides, signed hit changes, and the notes they need', () => {
    const base = [{ query: 'write the notes', shouldTrigger: true, hits: 2, runs: 2, id: 'notes' }];
    const cand = [{ query: 'write the notes', shouldTrigger: true, hits: 0, runs: 1, lost: 1, id: 'notes' }];
    const text = renderComparisonText(compare(base, cand));
    const lines = text.split('\n');
    const header = lines.findIndex((l) => l.startsWith('  id'));
    expect(lines[header]).toMatch(/^ {2}id\s+class\s+base\s+cand\s+Δ hits\s+p\s+p Holm\s+label\s+query$/);
    expect(lines[header + 1]).toMatch(
      /^ {2}notes\s+pos\s+2\/2\s+0\/1\*\s+-2\s+\S+\s+\S+\s+noise\s+write the notes$/,
    );
    expect(text).toContain('  * measured on fewer runs than planned (lost runs are left out)');
    expect(text).toContain('At 2 runs per query a difference of one hit is noise');
  });

  it('no shared query: no per-query table, and each class says none shared', () => {
    const text = renderComparisonText(compare([{ query: 'a', shouldTrigger: true, hits: 1, runs: 2 }], []));
    expect(text).not.toContain('Per query');
    expect(text).toMatch(/positives triggered \(none shared\)\s+0\/0\s+0\/0\s+–\s+–/);
  });

  it('a query is shown on one line, control characters turned to spaces, cut at 60 characters', () => {
    const long = `${'word '.repeat(20)}end`;
    const hostile = 'line one\n\tline\u001b[31m two\u007f';
    const specs = (q: string): QuerySpec[] => [{ query: q, shouldTrigger: true, hits: 2, runs: 2 }];
    const text = renderComparisonText(
      compare([...specs(long), ...specs(hostile)], [...specs(long), ...specs(hostile)]),
    );
    expect(text).toContain(`${long.slice(0, 59)}…\n`);
    expect(text).not.toContain(long.slice(0, 61));
    expect(text).toContain('line one line [31m two\n');
    expect(text).not.toContain('\u001b');
  });

  it('a query cut at 60 characters counts characters and never splits a surrogate pair (an emoji at the cut)', () => {
    // 58 letters, then emoji: cut after 59 characters, the 59th an emoji whole; no lone surrogate.
    const emoji = `${'a'.repeat(58)}${'😀'.repeat(5)}`;
    const specs: QuerySpec[] = [{ query: emoji, shouldTrigger: true, hits: 2, runs: 2 }];
    const text = renderComparisonText(compare(specs, specs));
    expect(text).toContain(`${'a'.repeat(58)}😀…\n`);
    expect(text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    // Exactly 60 characters (61 UTF-16 units): shown whole, not cut.
    const sixty = `${'b'.repeat(59)}😀`;
    const whole: QuerySpec[] = [{ query: sixty, shouldTrigger: true, hits: 2, runs: 2 }];
    expect(renderComparisonText(compare(whole, whole))).toContain(`${sixty}\n`);
  });

  it('the id column is cleaned of control characters as the query column is (ids in a report are any string)', () => {
    const specs: QuerySpec[] = [
      { id: 'q1\u001b[2J\nx', query: 'a query', shouldTrigger: true, hits: 2, runs: 2 },
    ];
    const text = renderComparisonText(compare(specs, specs));
    expect(text).not.toContain('\u001b');
    expect(text).toMatch(/^ {2}q1 \[2J x\s+pos\s+2\/2/m);
  });

  it('the totals show both rates, the change, the interval and both p-values', () => {
    const text = renderComparisonText(compare(set(6, [9, 10], [1, 10]), set(6, [3, 10], [1, 10])));
    expect(text).toMatch(
      /positives triggered\s+54\/60 \(90%\)\s+18\/60 \(30%\)\s+−60 pp\s+\[−\d+, −\d+\] pp\s+\S+\s+1\s+regression/,
    );
    expect(text).toMatch(/negatives fired\s+6\/60 \(10%\)\s+6\/60 \(10%\)\s+±0 pp\s+\[−\d+, \+\d+\] pp/);
    expect(text).toContain('α = 0.025 per class; 95% interval on the change in rate:');
    expect(text.startsWith('Overall: regression\n')).toBe(true);
  });
});

describe('subsetClassRows', () => {
  it('none without subsets', () => {
    expect(subsetClassRows(compare(set(2, [2, 2], [0, 2]), set(2, [2, 2], [0, 2])))).toEqual([]);
  });

  it('splits are titled by name; without needs_context, only the class with marked queries, saying how many', () => {
    const q = (query: string, shouldTrigger: boolean, extra: Record<string, unknown> = {}): QuerySpec => ({
      query,
      shouldTrigger,
      hits: shouldTrigger ? 2 : 0,
      runs: 2,
      extra,
    });
    const specs = [
      q('p0', true, { split: 'holdout' }),
      q('p1', true, { needs_context: true }),
      q('p2', true),
      q('n0', false, { split: 'holdout' }),
      q('n1', false),
    ];
    const titles = subsetClassRows(compare(specs, specs)).map((r) => r.title);
    expect(titles).toEqual([
      'positives triggered, without the 1 that presupposes a session',
      'train positives triggered',
      'train negatives fired',
      'holdout positives triggered',
      'holdout negatives fired',
    ]);
  });
});

describe('comparisonJson', () => {
  const c = compare(set(2, [2, 2], [0, 2]), set(2, [1, 2], [0, 2]));

  it('is versioned, two-space indented and ends with a newline', () => {
    const json = comparisonJson(c);
    expect(json.endsWith('}\n')).toBe(true);
    expect(
      json.startsWith(
        `{\n  "schema": "${COMPARISON_SCHEMA_ID}",\n  "schemaVersion": ${COMPARISON_SCHEMA_VERSION},`,
      ),
    ).toBe(true);
  });

  it('says simulated only when asked, and false otherwise', () => {
    expect(JSON.parse(comparisonJson(c)).simulated).toBe(false);
    expect(JSON.parse(comparisonJson(c, { simulated: true })).simulated).toBe(true);
  });

  it('has no subsets key for unannotated sets, and one when a subset is compared', () => {
    expect(Object.keys(JSON.parse(comparisonJson(c)))).not.toContain('subsets');
    const held = set(2, [2, 2], [0, 2], (i) => ({ split: i === 0 ? 'holdout' : 'train' }));
    const value = JSON.parse(comparisonJson(compare(held, held)));
    expect(value.subsets.map((s: { name: string }) => s.name)).toEqual(['train', 'holdout']);
    expect(Object.keys(value.subsets[0])).toEqual([
      'name',
      'queries',
      'positives',
      'negatives',
      'passed',
      'label',
    ]);
  });

  it('keeps the query text whole, with its newlines, where the text table cuts it', () => {
    const query = `${'x'.repeat(70)}\nsecond line`;
    const specs: QuerySpec[] = [{ query, shouldTrigger: true, hits: 2, runs: 2 }];
    expect(JSON.parse(comparisonJson(compare(specs, specs))).rows[0].query).toBe(query);
  });
});
