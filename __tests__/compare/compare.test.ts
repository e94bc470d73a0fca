import { describe, expect, it } from 'vitest';
import {
  type ComparisonWarningCode,
  compareMeasurements,
  compareReport,
  compareReports,
} from '../../src/compare/compare.js';
import { comparisonJson, renderComparisonText } from '../../src/compare/render.js';
import { UsageError } from '../../src/errors.js';
import { type Report, reportSchema } from '../../src/schemas/report.js';
import {
  buildMeasurement,
  buildReport,
  type QuerySpec,
  rosterMembers,
  SHA_A,
  SHA_B,
} from '../fakes/measurement-builder.js';

/** n positives and n negatives, every query with the same counts. */
function evalSet(
  n: number,
  pos: { hits: number; runs: number },
  neg: { hits: number; runs: number },
): QuerySpec[] {
  return [
    ...Array.from({ length: n }, (_, i) => ({ query: `positive ${i}`, shouldTrigger: true, ...pos })),
    ...Array.from({ length: n }, (_, i) => ({ query: `negative ${i}`, shouldTrigger: false, ...neg })),
  ];
}

const steady = buildMeasurement(evalSet(5, { hits: 2, runs: 2 }, { hits: 0, runs: 2 }));
const baseReport = buildReport(steady);

describe('the test fixtures', () => {
  it('build reports the schema accepts', () => {
    expect(reportSchema.safeParse(baseReport).success).toBe(true);
    const partial = buildMeasurement([{ query: 'x', shouldTrigger: true, hits: 1, runs: 1, lost: 1 }]);
    expect(reportSchema.safeParse(buildReport(partial)).success).toBe(true);
  });
});

describe('environment warnings', () => {
  const cases: [string, (r: Report) => Report, ComparisonWarningCode][] = [
    ['skill', (r) => ({ ...r, skill: 'other' }), 'skill'],
    ['tool version', (r) => ({ ...r, tool: { name: 'skilltrigger', version: '0.2.0' } }), 'tool-version'],
    [
      'model requested',
      (r) => ({ ...r, model: { ...r.model, requested: 'claude-other' } }),
      'model-requested',
    ],
    [
      'models reported',
      (r) => ({ ...r, model: { ...r.model, reported: { 'claude-other': 20 } } }),
      'models-reported',
    ],
    ['CLI version', (r) => ({ ...r, cli: { version: '2.1.400' } }), 'cli-version'],
    ['roster missing', (r) => ({ ...r, roster: null }), 'roster-unknown'],
    [
      'roster members, same size',
      (r) => ({ ...r, roster: { slashCommands: 4, skills: 6, members: rosterMembers(10, 1) } }),
      'roster-members',
    ],
    [
      'roster counts, same members',
      (r) => ({ ...r, roster: { slashCommands: 3, skills: 7, members: rosterMembers(10) } }),
      'roster-size',
    ],
    ['environment missing', (r) => ({ ...r, environment: null }), 'environment-unknown'],
    [
      'environment counts',
      (r) => ({ ...r, environment: { memoryFiles: { project: 0, user: 1 }, hooks: 2, mcpServers: 0 } }),
      'environment',
    ],
    [
      'trigger threshold',
      (r) => ({ ...r, settings: { ...r.settings, triggerThreshold: 0.6 } }),
      'trigger-threshold',
    ],
    ['runs per query', (r) => ({ ...r, settings: { ...r.settings, runsPerQuery: 3 } }), 'runs-per-query'],
    ['timeout', (r) => ({ ...r, settings: { ...r.settings, timeoutSeconds: 60 } }), 'timeout'],
    ['stub layout', (r) => ({ ...r, settings: { ...r.settings, stub: 'skill' } }), 'stub-layout'],
    [
      'no-verdict share',
      (r) => ({ ...r, settings: { ...r.settings, noVerdictShare: 0.2 } }),
      'no-verdict-share',
    ],
    ['max retries', (r) => ({ ...r, settings: { ...r.settings, maxRetries: 0 } }), 'max-retries'],
    // A report without `launch` (older, or cold) against one whose runs were standbys.
    ['launch', (r) => ({ ...r, settings: { ...r.settings, launch: 'standby' } }), 'launch'],
    ['conflict allowed', (r) => ({ ...r, conflictAllowed: true }), 'conflict-allowed'],
    ['simulated', (r) => ({ ...r, simulated: true }), 'simulated'],
  ];

  it('none when only the description differs — that is the point — but it says whether the text matched', () => {
    const c = compareReports(
      baseReport,
      buildReport(
        buildMeasurement(evalSet(5, { hits: 2, runs: 2 }, { hits: 0, runs: 2 }), { sha256: SHA_B }),
      ),
    );
    expect(c.warnings).toEqual([]);
    expect(c.description.sameText).toBe(false);
    expect(compareReports(baseReport, baseReport).description.sameText).toBe(true);
    expect(renderComparisonText(compareReports(baseReport, baseReport))).toContain('an A/A comparison');
  });

  it.each(cases)('%s alone gives exactly one warning', (_, change, code) => {
    const c = compareReports(baseReport, change(baseReport));
    expect(c.warnings.map((w) => w.code)).toEqual([code]);
    expect(c.warnings[0]?.message).toMatch(/\S/);
  });

  it('counts roster members added and removed by hash, and the size change apart', () => {
    const a = { ...baseReport, roster: { slashCommands: 10, skills: 59, members: rosterMembers(69) } };
    // 69 members (0..68) → 90 members (3..92): 3 removed, 24 added; 59 → 80 skills.
    const b = { ...baseReport, roster: { slashCommands: 10, skills: 80, members: rosterMembers(90, 3) } };
    const c = compareReports(a, b);
    expect(c.warnings.map((w) => w.code)).toEqual(['roster-members', 'roster-size']);
    expect(c.warnings[0]?.message).toContain('24 added, 3 removed');
    expect(c.warnings[1]?.message).toContain('skills 59 → 80');
  });

  it('come first, before the no-verdict and unshared-query warnings, in a fixed order', () => {
    const nv = buildMeasurement([{ query: 'positive 0', shouldTrigger: true, hits: 1, runs: 2 }], {
      verdict: 'no-verdict',
    });
    const b = buildReport(nv, { cli: { version: '2.1.400' }, model: { requested: 'other', reported: {} } });
    const codes = compareReports(baseReport, b).warnings.map((w) => w.code);
    expect(codes.slice(0, 3)).toEqual(['model-requested', 'models-reported', 'cli-version']);
    expect(codes.indexOf('no-verdict')).toBeGreaterThan(codes.indexOf('cli-version'));
    expect(codes.at(-2)).toBe('queries-unshared');
    expect(codes.at(-1)).toBe('class-not-shared');
  });

  it('names the sides as asked', () => {
    const c = compareReports(
      baseReport,
      { ...baseReport, cli: { version: '9' } },
      {
        names: { base: 'a.json', cand: 'b.json' },
      },
    );
    expect(c.warnings[0]?.message).toBe('Claude CLI version differs: a.json 2.1.328, b.json 9');
  });
});

describe('shared queries', () => {
  it('are matched by text, in the baseline order; the rest are counted and warned about', () => {
    const base = buildMeasurement([
      { query: 'only in base', shouldTrigger: true, hits: 2, runs: 2 },
      { query: 'shared positive', shouldTrigger: true, hits: 2, runs: 2, id: 'b1' },
      { query: 'label flipped', shouldTrigger: true, hits: 2, runs: 2 },
      { query: 'shared negative', shouldTrigger: false, hits: 0, runs: 2 },
    ]);
    const cand = buildMeasurement([
      { query: 'shared negative', shouldTrigger: false, hits: 1, runs: 2 },
      { query: 'label flipped', shouldTrigger: false, hits: 2, runs: 2 },
      { query: 'shared positive', shouldTrigger: true, hits: 1, runs: 2, id: 'c7' },
      { query: 'only in cand 1', shouldTrigger: true, hits: 2, runs: 2 },
      { query: 'only in cand 2', shouldTrigger: false, hits: 0, runs: 2 },
    ]);
    const c = compareMeasurements(base, cand);
    expect(c.rows.map((r) => [r.id, r.query])).toEqual([
      ['c7', 'shared positive'],
      ['q1', 'shared negative'],
    ]);
    expect(c.queries).toEqual({ shared: 2, baseOnly: 1, candOnly: 2, shouldTriggerChanged: 1 });
    expect(c.warnings.map((w) => w.code)).toEqual(['queries-unshared', 'should-trigger-changed']);
    // Totals are over the shared queries only.
    expect(c.positives.base).toEqual({ hits: 2, runs: 2, rate: 1 });
    expect(c.positives.cand).toEqual({ hits: 1, runs: 2, rate: 0.5 });
    expect(c.negatives.cand).toEqual({ hits: 1, runs: 2, rate: 0.5 });
  });

  it('uses measured runs only: lost runs are neither hits nor misses', () => {
    const base = buildMeasurement([{ query: 'p', shouldTrigger: true, hits: 4, runs: 4 }]);
    const cand = buildMeasurement([{ query: 'p', shouldTrigger: true, hits: 2, runs: 2, lost: 2 }]);
    const row = compareMeasurements(base, cand).rows[0];
    expect(row).toMatchObject({ deltaHits: -2, deltaRate: 0, partial: true, pBad: 1, label: 'noise' });
  });
});

describe('labels', () => {
  it('a clear drop of positives at 10 runs is a regression, per query and in total', () => {
    const base = buildMeasurement(evalSet(10, { hits: 10, runs: 10 }, { hits: 1, runs: 10 }));
    const cand = buildMeasurement(evalSet(10, { hits: 3, runs: 10 }, { hits: 1, runs: 10 }), {
      sha256: SHA_B,
    });
    const c = compareMeasurements(base, cand);
    expect(c.positives).toMatchObject({ label: 'regression', deltaHits: -70, noiseBand: null });
    expect(c.positives.pBad).toBeLessThan(1e-20);
    expect(c.positives.deltaRate).toBeCloseTo(-0.7, 12);
    expect(c.positives.interval?.upper).toBeLessThan(0);
    expect(c.negatives.label).toBe('noise');
    expect(c.label).toBe('regression');
    const row = c.rows[0];
    expect(row?.pBad).toBeCloseTo(286 / 184756, 12);
    expect(row?.pBadAdjusted).toBeCloseTo((20 * 286) / 184756, 12);
    expect(row?.label).toBe('regression');
  });

  it('more negatives fired is a regression; fewer is an improvement', () => {
    const quiet = buildMeasurement(evalSet(10, { hits: 8, runs: 8 }, { hits: 0, runs: 8 }));
    const loud = buildMeasurement(evalSet(10, { hits: 8, runs: 8 }, { hits: 5, runs: 8 }));
    expect(compareMeasurements(quiet, loud)).toMatchObject({
      label: 'regression',
      negatives: { label: 'regression' },
    });
    expect(compareMeasurements(loud, quiet)).toMatchObject({
      label: 'improvement',
      negatives: { label: 'improvement' },
    });
  });

  it('regression wins over improvement in the overall label', () => {
    const base = buildMeasurement(evalSet(10, { hits: 8, runs: 8 }, { hits: 0, runs: 8 }));
    const cand = buildMeasurement(evalSet(10, { hits: 2, runs: 8 }, { hits: 0, runs: 8 }));
    const better = buildMeasurement(evalSet(10, { hits: 8, runs: 8 }, { hits: 0, runs: 8 }));
    const worseNeg = buildMeasurement(evalSet(10, { hits: 2, runs: 8 }, { hits: 6, runs: 8 }));
    expect(compareMeasurements(worseNeg, cand).label).toBe('improvement');
    expect(compareMeasurements(base, better).label).toBe('noise');
    const mixed = buildMeasurement(evalSet(10, { hits: 8, runs: 8 }, { hits: 6, runs: 8 }));
    expect(compareMeasurements(cand, mixed)).toMatchObject({
      positives: { label: 'improvement' },
      negatives: { label: 'regression' },
      label: 'regression',
    });
  });
});

describe("the seeds' noise band at 2 runs per query", () => {
  it('2/2 → 0/2 on one query is noise at the default level: p = 1/6 can never reach it', () => {
    const base = buildMeasurement([{ query: 'p', shouldTrigger: true, hits: 2, runs: 2 }]);
    const cand = buildMeasurement([{ query: 'p', shouldTrigger: true, hits: 0, runs: 2 }]);
    const c = compareMeasurements(base, cand);
    expect(c.rows[0]).toMatchObject({ deltaHits: -2, noiseBand: 1, label: 'noise' });
    expect(c.rows[0]?.pBad).toBeCloseTo(1 / 6, 12);
  });

  it('keeps a one-hit difference per query noise even where the test alone would flag it', () => {
    const base = buildMeasurement([{ query: 'p', shouldTrigger: true, hits: 2, runs: 2 }]);
    const one = buildMeasurement([{ query: 'p', shouldTrigger: true, hits: 1, runs: 2 }]);
    const two = buildMeasurement([{ query: 'p', shouldTrigger: true, hits: 0, runs: 2 }]);
    // A permissive level, so the band is what decides.
    expect(compareMeasurements(base, one, { alpha: 0.99 }).rows[0]?.label).toBe('noise');
    expect(compareMeasurements(base, two, { alpha: 0.99 }).rows[0]?.label).toBe('regression');
  });

  it('keeps a total difference of up to two hits noise; three is beyond it', () => {
    const base = buildMeasurement(evalSet(5, { hits: 2, runs: 2 }, { hits: 0, runs: 2 }));
    const drop = (n: number) =>
      buildMeasurement(
        evalSet(5, { hits: 2, runs: 2 }, { hits: 0, runs: 2 }).map((q, i) =>
          q.shouldTrigger && i < n ? { ...q, hits: 1 } : q,
        ),
      );
    const two = compareMeasurements(base, drop(2), { alpha: 0.99 }).positives;
    expect(two).toMatchObject({ deltaHits: -2, noiseBand: 2, label: 'noise' });
    expect(two.pBad).toBeLessThan(0.495);
    expect(compareMeasurements(base, drop(3), { alpha: 0.99 }).positives).toMatchObject({
      deltaHits: -3,
      label: 'regression',
    });
  });

  it('does not apply beyond 2 runs per query', () => {
    const c = compareMeasurements(
      buildMeasurement(evalSet(3, { hits: 3, runs: 3 }, { hits: 0, runs: 3 })),
      buildMeasurement(evalSet(3, { hits: 2, runs: 3 }, { hits: 0, runs: 3 })),
    );
    expect(c.positives.noiseBand).toBeNull();
    expect(c.rows[0]?.noiseBand).toBeNull();
  });
});

describe('no verdict', () => {
  const ok = buildMeasurement(evalSet(10, { hits: 10, runs: 10 }, { hits: 0, runs: 10 }));
  const dropped = buildMeasurement(
    [
      ...evalSet(10, { hits: 2, runs: 10 }, { hits: 0, runs: 10 }),
      { query: 'lost', shouldTrigger: true, hits: 0, runs: 0, lost: 10 },
    ],
    { verdict: 'no-verdict', noVerdictReasons: ['query lost every run: q21'] },
  );
  const okWithLost = buildMeasurement([
    ...evalSet(10, { hits: 10, runs: 10 }, { hits: 0, runs: 10 }),
    { query: 'lost', shouldTrigger: true, hits: 5, runs: 10 },
  ]);

  it('gives no regression label in total, even for a drop the test finds, and says why', () => {
    const c = compareMeasurements(okWithLost, dropped);
    expect(c.positives.pBad).toBeLessThan(1e-10);
    expect(c.positives.label).toBe('no-verdict');
    expect(c.negatives.label).toBe('no-verdict');
    expect(c.label).toBe('no-verdict');
    expect(c.verdicts).toEqual({ base: 'ok', cand: 'no-verdict' });
    expect(c.warnings[0]).toMatchObject({ code: 'no-verdict' });
    expect(c.warnings[0]?.message).toContain('query lost every run: q21');
    expect(c.rows.find((r) => r.query === 'lost')?.label).toBe('no-verdict');
    const text = renderComparisonText(c);
    expect(text).toContain('Overall: no verdict');
  });

  it('either side: a no-verdict baseline too', () => {
    expect(compareMeasurements(dropped, ok).label).toBe('no-verdict');
  });

  it('a report-level no-verdict counts even when the measurement says ok', () => {
    const r = { ...buildReport(ok), verdict: 'no-verdict' as const };
    expect(compareReports(buildReport(ok), r).label).toBe('no-verdict');
  });
});

describe('paired reports', () => {
  const base = buildMeasurement(evalSet(10, { hits: 10, runs: 10 }, { hits: 0, runs: 10 }));
  const cand = buildMeasurement(evalSet(10, { hits: 2, runs: 10 }, { hits: 0, runs: 10 }), { sha256: SHA_B });
  const paired = buildReport(cand, { baseline: base });

  it('compareReport compares the baseline with the candidate of one report, without environment warnings', () => {
    const c = compareReport(paired);
    expect(c).toMatchObject({ mode: 'paired', label: 'regression', warnings: [] });
    expect(c.description.sameText).toBe(false);
    expect(c.description.base.sha256).toBe(SHA_A);
  });

  it('compareReport refuses a report without a baseline', () => {
    expect(() => compareReport(buildReport(cand))).toThrow(UsageError);
  });

  it('compareReports given a paired report compares its candidate and says so', () => {
    const c = compareReports(paired, buildReport(base));
    expect(c.warnings[0]?.code).toBe('paired-input');
    expect(c.label).toBe('improvement');
  });
});

describe('rendering', () => {
  const base = buildMeasurement([
    {
      query: 'summarise this session into HANDOFF.md\nbefore I clear it',
      shouldTrigger: true,
      hits: 10,
      runs: 10,
    },
    ...evalSet(6, { hits: 9, runs: 10 }, { hits: 1, runs: 10 }),
  ]);
  const cand = buildMeasurement(
    [
      {
        query: 'summarise this session into HANDOFF.md\nbefore I clear it',
        shouldTrigger: true,
        hits: 2,
        runs: 8,
        lost: 2,
      },
      ...evalSet(6, { hits: 4, runs: 10 }, { hits: 1, runs: 10 }),
    ],
    { sha256: SHA_B, bytes: 98 },
  );
  const c = compareReports(buildReport(base), buildReport(cand, { cli: { version: '2.1.400' } }), {
    names: { base: 'main.json', cand: 'pr.json' },
  });

  it('text: warnings first, then the table and the totals with p-values and intervals', () => {
    const text = renderComparisonText(c);
    expect(text.indexOf('Claude CLI version differs')).toBeGreaterThan(0);
    expect(text.indexOf('Claude CLI version differs')).toBeLessThan(text.indexOf('Per query'));
    expect(text.indexOf('Per query')).toBeLessThan(text.indexOf('Totals'));
    expect(text).toContain('different text (sha256 aaaaaaaaaaaa → bbbbbbbbbbbb, 120 → 98 bytes)');
    expect(text).toMatch(
      /positives triggered\s+64\/70 \(91%\)\s+26\/68 \(38%\)\s+−53 pp\s+\[−6[45], −3[89]\] pp\s+\S+\s+1\s+regression/,
    );
    expect(text).toContain('2/8*');
    expect(text).toContain('summarise this session into HANDOFF.md before I clear it');
    expect(text.startsWith('Overall: regression\n')).toBe(true);
    for (const line of text.split('\n')) expect(line).not.toMatch(/NaN|undefined|Infinity/);
  });

  it('JSON: a stable, versioned shape that round-trips', () => {
    const json = comparisonJson(c);
    const value = JSON.parse(json);
    expect(Object.keys(value)).toEqual([
      'schema',
      'schemaVersion',
      'mode',
      'simulated',
      'names',
      'label',
      'warnings',
      'verdicts',
      'description',
      'method',
      'queries',
      'totals',
      'rows',
    ]);
    expect(value).toMatchObject({
      schema: 'skilltrigger/comparison',
      schemaVersion: 2,
      label: 'regression',
      warnings: [{ code: 'cli-version' }],
      method: {
        classTest: 'stratified-exact-conditional',
        alpha: 0.05,
        alphaPerClass: 0.025,
        confidence: 0.95,
      },
      totals: { positives: { label: 'regression', base: { hits: 64, runs: 70 } } },
    });
    expect(Object.keys(value.rows[0])).toEqual([
      'id',
      'query',
      'shouldTrigger',
      'base',
      'cand',
      'deltaHits',
      'deltaRate',
      'pBad',
      'pGood',
      'pBadAdjusted',
      'pGoodAdjusted',
      'partial',
      'noiseBand',
      'label',
    ]);
    expect(json).not.toMatch(/NaN|Infinity/);
  });

  it('JSON: null rates and intervals where a side has no run, never NaN', () => {
    const lost = buildMeasurement([{ query: 'p', shouldTrigger: true, hits: 0, runs: 0, lost: 2 }]);
    const value = JSON.parse(comparisonJson(compareMeasurements(lost, lost)));
    expect(value.totals.positives).toMatchObject({ deltaRate: null, interval: null, base: { rate: null } });
  });
});
