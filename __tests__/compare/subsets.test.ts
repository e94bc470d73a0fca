import { describe, expect, it } from 'vitest';
import { compareMeasurements, compareReport, compareReports } from '../../src/compare/compare.js';
import { comparisonJson, renderComparisonText } from '../../src/compare/render.js';
import { buildMeasurement, buildReport, type QuerySpec, SHA_B } from '../fakes/measurement-builder.js';

/**
 * 10 positives and 6 negatives at 10 runs. Four positives and three negatives are held out; two
 * train positives (t4, t5) are marked needs_context. The candidate lifts every train positive to
 * 10/10 but drops the held-out ones from 10/10 to 2/10: in total the positives barely move (70 →
 * 68 of 100), so the whole set reads noise, while train improved and holdout regressed.
 */
function specs(
  side: 'base' | 'cand',
  annotate: (id: string) => Record<string, unknown> = ANNOTATIONS,
): QuerySpec[] {
  const pos = (id: string, base: number, cand: number): QuerySpec => ({
    id,
    query: `positive ${id}`,
    shouldTrigger: true,
    hits: side === 'base' ? base : cand,
    runs: 10,
    extra: annotate(id),
  });
  const neg = (id: string): QuerySpec => ({
    id,
    query: `negative ${id}`,
    shouldTrigger: false,
    hits: 0,
    runs: 10,
    extra: annotate(id),
  });
  return [
    ...['h0', 'h1', 'h2', 'h3'].map((id) => pos(id, 10, 2)),
    ...['t0', 't1', 't2', 't3', 't4', 't5'].map((id) => pos(id, 5, 10)),
    ...['hn0', 'hn1', 'hn2', 'tn0', 'tn1', 'tn2'].map(neg),
  ];
}

function ANNOTATIONS(id: string): Record<string, unknown> {
  return {
    ...(id.startsWith('h') ? { split: 'holdout' } : {}),
    ...(id === 't4' || id === 't5' ? { needs_context: true } : {}),
  };
}

const base = buildMeasurement(specs('base'));
const cand = buildMeasurement(specs('cand'), { sha256: SHA_B });

describe('compare per annotated subset', () => {
  it('compares each subset with the same test and labels it on its own; the overall label stays the whole set’s', () => {
    const c = compareMeasurements(base, cand);
    expect(c.positives.base).toEqual({ hits: 70, runs: 100, rate: 0.7 });
    expect(c.positives.cand).toEqual({ hits: 68, runs: 100, rate: 0.68 });
    expect(c.positives.label).toBe('noise');
    expect(c.label).toBe('noise');
    const byName = Object.fromEntries((c.subsets ?? []).map((s) => [s.name, s]));
    expect(Object.keys(byName)).toEqual(['withoutContext', 'train', 'holdout']);

    expect(byName.withoutContext?.queries).toBe(14);
    expect(byName.withoutContext?.positives.base.hits).toBe(60);
    expect(byName.withoutContext?.positives.cand.hits).toBe(48);

    const train = byName.train;
    expect(train?.queries).toBe(9);
    expect(train?.positives.base).toEqual({ hits: 30, runs: 60, rate: 0.5 });
    expect(train?.positives.cand).toEqual({ hits: 60, runs: 60, rate: 1 });
    expect(train?.positives.label).toBe('improvement');
    expect(train?.positives.pGood).toBeLessThan(train?.positives.alpha ?? 0);
    expect(train?.passed).toEqual({
      base: { positives: 0, negatives: 3 },
      cand: { positives: 6, negatives: 3 },
    });

    const holdout = byName.holdout;
    expect(holdout?.queries).toBe(7);
    expect(holdout?.positives.base).toEqual({ hits: 40, runs: 40, rate: 1 });
    expect(holdout?.positives.cand).toEqual({ hits: 8, runs: 40, rate: 0.2 });
    expect(holdout?.positives.label).toBe('regression');
    expect(holdout?.label).toBe('regression');
    expect(holdout?.positives.interval?.upper).toBeLessThan(0);
    expect(holdout?.negatives.label).toBe('noise');
    expect(holdout?.passed).toEqual({
      base: { positives: 4, negatives: 3 },
      cand: { positives: 0, negatives: 3 },
    });
    expect(c.warnings).toEqual([]);
  });

  it('renders the subsets after the totals, and in the JSON', () => {
    const c = compareMeasurements(base, cand);
    const text = renderComparisonText(c);
    expect(text).toContain('Subsets of the shared queries — the same tests, each labelled on its own');
    const line = (title: string) => text.split('\n').find((l) => l.trimStart().startsWith(title)) ?? '';
    expect(line('positives triggered, without the 2 that presuppose a session')).toMatch(
      /60\/80 \(75%\)\s+48\/80 \(60%\)/,
    );
    expect(line('train positives triggered')).toMatch(/30\/60 \(50%\)\s+60\/60 \(100%\).*improvement$/);
    expect(line('holdout positives triggered')).toMatch(/40\/40 \(100%\)\s+8\/40 \(20%\).*regression$/);
    expect(line('holdout negatives fired')).toMatch(/noise$/);
    // No negative is marked needs_context: its row would only repeat the whole set's.
    expect(text).not.toContain('negatives fired, without');
    expect(text.startsWith('Overall: noise\n')).toBe(true);

    const json = JSON.parse(comparisonJson(c));
    expect(json.subsets.map((s: { name: string; label: string }) => [s.name, s.label])).toEqual([
      ['withoutContext', 'noise'],
      ['train', 'improvement'],
      ['holdout', 'regression'],
    ]);
    expect(json.subsets[2].positives.cand).toEqual({ hits: 8, runs: 40, rate: 0.2 });
  });

  it('leaves the comparison of an unannotated set as it was: no subsets, no new key in the JSON', () => {
    const none = () => ({});
    const c = compareMeasurements(
      buildMeasurement(specs('base', none)),
      buildMeasurement(specs('cand', none)),
    );
    expect(c.subsets).toBeUndefined();
    expect('subsets' in JSON.parse(comparisonJson(c))).toBe(false);
    expect(renderComparisonText(c)).not.toContain('Subsets');
  });

  it('compares a paired report’s subsets (one eval set, so the annotations always agree)', () => {
    const c = compareReport(buildReport(cand, { baseline: base }));
    expect(c.subsets?.map((s) => s.name)).toEqual(['withoutContext', 'train', 'holdout']);
    expect(c.warnings).toEqual([]);
  });
});

describe('an annotation that changed between two reports', () => {
  it('is an environment warning, and that annotation’s subsets are not labelled', () => {
    // The candidate's eval set also marks t3 needs_context and no longer holds out h0 and h1.
    const changed = (id: string) => ({
      ...(id.startsWith('h') && id !== 'h0' && id !== 'h1' ? { split: 'holdout' } : {}),
      ...(id === 't3' || id === 't4' || id === 't5' ? { needs_context: true } : {}),
    });
    const c = compareReports(
      buildReport(base),
      buildReport(buildMeasurement(specs('cand', changed), { sha256: SHA_B })),
    );
    expect(c.warnings.map((w) => w.code)).toEqual(['needs-context-changed', 'split-changed']);
    expect(c.warnings[0]?.message).toBe(
      'the needs_context annotation differs between the two eval sets: 1 shared query is marked needs_context on one side only (1 only in candidate), so the totals without the prompts that presuppose a session are not compared',
    );
    expect(c.warnings[1]?.message).toBe(
      'the split annotation differs between the two eval sets: 2 shared queries are held out on one side only (2 only in baseline), so train and holdout are not compared',
    );
    expect(c.subsets).toBeUndefined();
    // The whole set is compared as before: the annotations change no query's runs.
    expect(c.positives.label).toBe('noise');
    const text = renderComparisonText(c);
    expect(text).toContain('! the split annotation differs between the two eval sets');
    expect(text).not.toContain('Subsets of the shared queries');
  });

  it('keeps the subsets of an annotation that did not change', () => {
    const onlyContext = (id: string) => ({
      ...ANNOTATIONS(id),
      ...(id === 't3' ? { needs_context: true } : {}),
    });
    const c = compareReports(
      buildReport(base),
      buildReport(buildMeasurement(specs('cand', onlyContext), { sha256: SHA_B })),
    );
    expect(c.warnings.map((w) => w.code)).toEqual(['needs-context-changed']);
    expect(c.subsets?.map((s) => s.name)).toEqual(['train', 'holdout']);
  });

  it('is warned after the environment differences and before the no-verdict and unshared-query ones', () => {
    const other = buildReport(buildMeasurement(specs('cand', () => ({})).slice(1), { sha256: SHA_B }), {
      cli: { version: '2.1.400' },
    });
    const codes = compareReports(buildReport(base), other).warnings.map((w) => w.code);
    expect(codes).toEqual(['cli-version', 'needs-context-changed', 'split-changed', 'queries-unshared']);
  });
});
