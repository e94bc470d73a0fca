import { describe, expect, it } from 'vitest';
import type { LoadedEntry } from '../../../src/agents/runs.js';
import { siblingSetWarnings } from '../../../src/compare/siblings.js';
import type { Outcome } from '../../../src/outcome.js';
import { attachSiblingCounts, siblingSet, topThieves } from '../../../src/report/build/sibling-counts.js';
import { lostToSiblingsText } from '../../../src/report/siblings.js';
import { sha256Hex } from '../../../src/schemas/privacy.js';
import type { Measurement, QueryResult } from '../../../src/schemas/report.js';

type Run = { outcome: Outcome; loaded?: LoadedEntry };
const stub: Run = { outcome: { kind: 'triggered' }, loaded: { kind: 'stub' } };
const to = (name: string): Run => ({ outcome: { kind: 'not-triggered' }, loaded: { kind: 'sibling', name } });
const none: Run = { outcome: { kind: 'not-triggered' }, loaded: { kind: 'none' } };
const lost: Run = { outcome: { kind: 'timeout' } };

function query(
  id: string,
  shouldTrigger: boolean,
  runs: Run[],
  extra: Record<string, unknown> = {},
): QueryResult {
  const measured = runs.filter((r) => r.loaded !== undefined);
  const hits = measured.filter((r) => r.loaded?.kind === 'stub').length;
  const rate = measured.length === 0 ? null : hits / measured.length;
  return {
    id,
    query: id,
    shouldTrigger,
    extra,
    outcomes: [],
    models: [],
    durationsMs: [],
    planned: runs.length,
    runs: measured.length,
    hits,
    timeouts: 0,
    errors: 0,
    rate,
    pass: rate === null ? null : shouldTrigger ? rate > 0.5 : rate < 0.5,
    partial: false,
    usage: { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
  };
}

function measurement(queries: QueryResult[]): Measurement {
  return { queries, totals: {} } as unknown as Measurement;
}

describe('sibling counts in a measurement', () => {
  it('counts per query, positives lost per sibling, negatives that went to their owner, cross-negatives apart', () => {
    const records: Run[][] = [
      [stub, to('xlsx'), to('xlsx'), lost],
      [to('pdf'), stub, none, stub],
      [to('xlsx'), to('xlsx'), stub, none],
      [to('pdf'), none],
      [stub, to('xlsx')],
    ];
    const m = measurement([
      query('p1', true, records[0] ?? []),
      query('p2', true, records[1] ?? []),
      query('n1', false, records[2] ?? [], { owner: 'xlsx' }),
      query('n2', false, records[3] ?? []),
      query('xlsx/q1', false, records[4] ?? [], { from: 'xlsx', owner: 'xlsx' }),
    ]);
    attachSiblingCounts(m, records, ['pdf', 'xlsx']);
    expect(m.queries.map((q) => q.siblingHits)).toEqual([
      { xlsx: 2 },
      { pdf: 1 },
      { xlsx: 2 },
      { pdf: 1 },
      { xlsx: 1 },
    ]);
    expect(m.totals.siblings).toEqual({
      lostPositives: 3,
      positiveRuns: 7,
      lostTo: { xlsx: 2, pdf: 1 },
      ownedNegativeRuns: 6,
      toOwner: 3,
      crossNegatives: { queries: 1, passed: 0, fired: 1, runs: 2 },
    });
    expect(topThieves(m.totals.siblings ?? ({} as never))).toEqual([
      ['xlsx', 2],
      ['pdf', 1],
    ]);
    expect(lostToSiblingsText(m)).toBe(
      'positives lost to siblings: 3/7 runs (xlsx 2, pdf 1); negatives that went to their owner: 3/6 runs',
    );
  });

  it('an owner that is not a sibling counts for nothing, and a query nobody stole has no siblingHits', () => {
    const records: Run[][] = [[none, stub]];
    const m = measurement([query('n1', false, records[0] ?? [], { owner: 'docx' })]);
    attachSiblingCounts(m, records, ['pdf']);
    expect(m.queries[0]?.siblingHits).toBeUndefined();
    expect(m.totals.siblings?.ownedNegativeRuns).toBe(0);
  });
});

describe('the sibling set and compare', () => {
  const set = (entries: Record<string, string>, cross = false) =>
    siblingSet(
      Object.entries(entries).map(([name, listed]) => ({ name, listed })),
      cross,
    );
  const names = { base: 'A', cand: 'B' };

  it('records names sorted with the listed text hashed', () => {
    expect(set({ xlsx: 'Sheets', pdf: 'Forms' })).toEqual({
      members: [
        { name: 'pdf', sha256: sha256Hex('Forms') },
        { name: 'xlsx', sha256: sha256Hex('Sheets') },
      ],
      crossNegatives: false,
    });
  });

  it('warns when a sibling was added, removed or rewritten, or one side had none', () => {
    const a = { siblings: set({ xlsx: 'Sheets', pdf: 'Forms' }) };
    expect(siblingSetWarnings(a, a, names)).toEqual([]);
    expect(siblingSetWarnings({}, {}, names)).toEqual([]);
    const [w] = siblingSetWarnings(
      a,
      { siblings: set({ xlsx: 'Sheets and formulas', docx: 'Docs' }) },
      names,
    );
    expect(w?.code).toBe('siblings');
    expect(w?.message).toBe(
      'the competition changed (sibling skills) from A to B: added docx; removed pdf; description changed: xlsx',
    );
    expect(siblingSetWarnings({}, a, names)[0]?.message).toContain('added pdf, xlsx');
    expect(
      siblingSetWarnings(a, { siblings: set({ xlsx: 'Sheets', pdf: 'Forms' }, true) }, names)[0]?.message,
    ).toBe('cross-negatives differ: A without, B with');
  });
});
