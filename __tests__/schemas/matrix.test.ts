import { describe, expect, it } from 'vitest';
import {
  MATRIX_SCHEMA_VERSION,
  type MatrixReport,
  matrixJsonSchemaUrl,
  matrixReportSchema,
  matrixRunSchema,
  NONE_OTHER,
  OLDEST_MATRIX_SCHEMA_VERSION,
} from '../../src/schemas/matrix.js';
import { matrixFixture, scriptedRuns } from '../fakes/matrix-report.js';

// The matrix report's schema (docs/matrix.md): a valid document parses, and each documented
// constraint refuses what it should, at the path that names it.
const HEX64 = 'b'.repeat(64);

/** The issue paths a mutated copy of a valid matrix report is refused with ([] when it parses). */
function refused(mutate: (r: MatrixReport) => void): string[] {
  const r = structuredClone(matrixFixture(scriptedRuns));
  mutate(r);
  const parsed = matrixReportSchema.safeParse(r);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.path.join('.'));
}

describe('the head and its versions', () => {
  it('the JSON Schema URL names the package version; the none/other column has its name', () => {
    expect(matrixJsonSchemaUrl('2.0.0')).toBe(
      'https://unpkg.com/skilltrigger@2.0.0/schema/matrix.schema.json',
    );
    expect(NONE_OTHER).toBe('none/other');
  });

  it('a report built by the rules parses, as written', () => {
    const r = matrixFixture(scriptedRuns);
    expect(matrixReportSchema.parse(r)).toEqual(r);
  });

  it('every version from the oldest to this one reads; others do not', () => {
    for (let v = OLDEST_MATRIX_SCHEMA_VERSION; v <= MATRIX_SCHEMA_VERSION; v++) {
      expect(
        refused((r) => Object.assign(r, { schemaVersion: v })),
        String(v),
      ).toEqual([]);
    }
    expect(refused((r) => Object.assign(r, { schemaVersion: OLDEST_MATRIX_SCHEMA_VERSION - 1 }))).toEqual([
      'schemaVersion',
    ]);
    expect(refused((r) => Object.assign(r, { schemaVersion: MATRIX_SCHEMA_VERSION + 1 }))).toEqual([
      'schemaVersion',
    ]);
    expect(refused((r) => Object.assign(r, { schemaVersion: 2.5 }))).toEqual(['schemaVersion']);
  });

  it('another schema id, or a time that is not ISO, is refused', () => {
    expect(refused((r) => Object.assign(r, { schema: 'skilltrigger/report' }))).toEqual(['schema']);
    expect(refused((r) => Object.assign(r, { createdAt: 'yesterday' }))).toEqual(['createdAt']);
  });

  it('an older file without agent or settings.launch still reads; the agent is one that routes a matrix', () => {
    expect(
      refused((r) => {
        delete r.agent;
        delete r.settings.launch;
      }),
    ).toEqual([]);
    expect(refused((r) => Object.assign(r, { agent: 'codex' }))).toEqual([]);
    expect(refused((r) => Object.assign(r, { agent: 'gemini' }))).toEqual([]);
    expect(refused((r) => Object.assign(r, { agent: 'copilot' }))).toEqual(['agent']);
  });
});

describe('runs', () => {
  it('a run went to a skill, to none/other, or was lost with an outcome code', () => {
    const ok = [
      { to: 'skill', skill: 'alpha' },
      { to: 'none-other' },
      { to: 'lost', outcome: 'timeout' },
      { to: 'lost', outcome: 'error:overloaded', status: 529 },
    ];
    for (const run of ok) expect(matrixRunSchema.safeParse(run).success, JSON.stringify(run)).toBe(true);
    const bad = [
      { to: 'skill' },
      { to: 'nowhere' },
      { to: 'lost' },
      { to: 'lost', outcome: 'error:bogus' },
      { to: 'lost', outcome: 'error:api', status: 500.5 },
    ];
    for (const run of bad) expect(matrixRunSchema.safeParse(run).success, JSON.stringify(run)).toBe(false);
  });

  it('a bad run in a query is refused at its place', () => {
    expect(refused((r) => r.queries[0]?.runs.splice(0, 1, { to: 'elsewhere' } as never))).toEqual([
      'queries.0.runs.0.to',
    ]);
  });
});

describe('counts, shares and intervals', () => {
  it('counts are whole and not negative', () => {
    expect(refused((r) => Object.assign(r.totals, { measured: -1 }))).toEqual(['totals.measured']);
    expect(refused((r) => Object.assign(r.queries[0] ?? {}, { measured: 0.5 }))).toEqual([
      'queries.0.measured',
    ]);
    expect(refused((r) => Object.assign(r.rows[0]?.cells ?? {}, { alpha: -2 }))).toEqual([
      'rows.0.cells.alpha',
    ]);
  });

  it('a rate within 0–1 or null; an interval within 0–1 at a confidence strictly between', () => {
    const interval = { lower: 0.1, upper: 0.9, confidence: 0.95 };
    const recall = (patch: Record<string, unknown>) => (r: MatrixReport) =>
      Object.assign(r.figures[0]?.recall ?? {}, { hits: 1, of: 2, rate: 0.5, interval, ...patch });
    expect(refused(recall({}))).toEqual([]);
    expect(refused(recall({ rate: null, interval: null }))).toEqual([]);
    expect(refused(recall({ rate: 1.5 }))).toEqual(['figures.0.recall.rate']);
    expect(refused(recall({ interval: { ...interval, upper: 1.1 } }))).toEqual([
      'figures.0.recall.interval.upper',
    ]);
    expect(refused(recall({ interval: { ...interval, confidence: 1 } }))).toEqual([
      'figures.0.recall.interval.confidence',
    ]);
    expect(refused(recall({ interval: { ...interval, confidence: 0 } }))).toEqual([
      'figures.0.recall.interval.confidence',
    ]);
  });

  it('a row is a positive or negative row', () => {
    expect(refused((r) => Object.assign(r.rows[0] ?? {}, { label: 'neutral' }))).toEqual(['rows.0.label']);
  });
});

describe('skills: hashed descriptions and eval sets', () => {
  it('a description is bytes and a 64-hex SHA-256, never text', () => {
    expect(
      refused((r) => Object.assign(r.skills[0]?.description ?? {}, { sha256: 'Alpha things.' })),
    ).toEqual(['skills.0.description.sha256']);
    expect(
      refused((r) => Object.assign(r.skills[0]?.description ?? {}, { sha256: HEX64.toUpperCase() })),
    ).toEqual(['skills.0.description.sha256']);
  });

  it('an eval set is its counts and hash, or null for a competitor only', () => {
    expect(refused((r) => Object.assign(r.skills[0] ?? {}, { evalSet: null }))).toEqual([]);
    expect(
      refused((r) =>
        Object.assign(r.skills[0] ?? {}, {
          evalSet: { queries: 1, positives: 1, negatives: 0, sha256: 'x' },
        }),
      ),
    ).toEqual(['skills.0.evalSet.sha256']);
  });
});

describe('settings, shard and legs', () => {
  it('runs per query a positive whole number, the timeout above zero, the share within 0–1', () => {
    expect(refused((r) => Object.assign(r.settings, { runsPerQuery: 0 }))).toEqual(['settings.runsPerQuery']);
    expect(refused((r) => Object.assign(r.settings, { timeoutSeconds: 0 }))).toEqual([
      'settings.timeoutSeconds',
    ]);
    expect(refused((r) => Object.assign(r.settings, { noVerdictShare: 1.2 }))).toEqual([
      'settings.noVerdictShare',
    ]);
    expect(refused((r) => Object.assign(r.settings, { stub: 'plugin' }))).toEqual(['settings.stub']);
    expect(refused((r) => Object.assign(r.settings, { launch: 'hot' }))).toEqual(['settings.launch']);
  });

  it('a shard is 1-based, a merged matrix has at least one leg', () => {
    expect(refused((r) => Object.assign(r, { shard: { index: 2, count: 3 } }))).toEqual([]);
    expect(refused((r) => Object.assign(r, { shard: { index: 0, count: 3 } }))).toEqual(['shard.index']);
    expect(refused((r) => Object.assign(r, { shard: { index: 1, count: 0 } }))).toEqual(['shard.count']);
    expect(refused((r) => Object.assign(r, { mergedLegs: 0 }))).toEqual(['mergedLegs']);
  });

  it('the verdict is ok or no-verdict; the roster and environment may be unknown', () => {
    expect(refused((r) => Object.assign(r, { verdict: 'maybe' }))).toEqual(['verdict']);
    expect(refused((r) => Object.assign(r, { roster: null, environment: null }))).toEqual([]);
    expect(
      refused((r) => Object.assign(r, { roster: { slashCommands: 1, skills: 0, members: ['alpha'] } })),
    ).toEqual(['roster.members.0']);
  });
});
