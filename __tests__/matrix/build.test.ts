import { describe, expect, it } from 'vitest';
import type { EvalItem } from '../../src/inputs/types.js';
import { buildMatrixReport, describeMatrixSkill } from '../../src/matrix/build.js';
import { MATRIX_SCHEMA_VERSION, type MatrixRun, matrixReportSchema } from '../../src/schemas/matrix.js';
import { matrixFixture, scriptedRuns } from '../fakes/matrix-report.js';

// The matrix report from what was measured; tally.test.ts tests the rows, figures and verdict rules.
const item = (id: string, shouldTrigger: boolean, extra: Record<string, unknown> = {}): EvalItem => ({
  id,
  query: `query ${id}`,
  shouldTrigger,
  extra,
});
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

describe('describeMatrixSkill', () => {
  it('records the listed text as UTF-8 bytes and SHA-256, never the text', () => {
    const skill = describeMatrixSkill('notes', 'Écrit des notes.', null);
    expect(skill).toEqual({
      name: 'notes',
      description: { bytes: 17, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      evalSet: null,
    });
    expect(JSON.stringify(skill)).not.toContain('des notes');
    expect(describeMatrixSkill('x', '', null).description).toEqual({ bytes: 0, sha256: EMPTY_SHA256 });
  });

  it('counts the eval set by class and hashes its ids, queries and labels', () => {
    const items = [item('a', true), item('b', true), item('c', false)];
    const skill = describeMatrixSkill('notes', 'Writes notes.', items);
    expect(skill.evalSet).toEqual({
      queries: 3,
      positives: 2,
      negatives: 1,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(describeMatrixSkill('notes', 'x', []).evalSet).toMatchObject({
      queries: 0,
      positives: 0,
      negatives: 0,
    });
  });

  it('the set’s hash ignores extra fields and the description, and changes with a label, a text or the order', () => {
    const hash = (items: EvalItem[], listed = 'Writes notes.') =>
      describeMatrixSkill('n', listed, items).evalSet?.sha256;
    const base = [item('a', true), item('b', false)];
    expect(hash([item('a', true, { split: 'holdout' }), item('b', false)])).toBe(hash(base));
    expect(hash(base, 'Another description.')).toBe(hash(base));
    expect(hash([item('a', false), item('b', false)])).not.toBe(hash(base));
    expect(hash([{ ...item('a', true), query: 'other' }, item('b', false)])).not.toBe(hash(base));
    expect(hash([item('b', false), item('a', true)])).not.toBe(hash(base));
  });
});

describe('buildMatrixReport', () => {
  const report = matrixFixture(scriptedRuns);

  it('writes a report its schema accepts, with the document head of this version', () => {
    expect(matrixReportSchema.safeParse(report).success).toBe(true);
    expect(report).toMatchObject({
      $schema: 'https://unpkg.com/skilltrigger@0.0.0-test/schema/matrix.schema.json',
      schema: 'skilltrigger/matrix',
      schemaVersion: MATRIX_SCHEMA_VERSION,
      tool: { name: 'skilltrigger', version: '0.0.0-test' },
      createdAt: '2026-12-01T10:00:00.000Z',
      shard: null,
    });
  });

  it('totals the runs: executed, measured, lost by kind and error cause', () => {
    const lost: Record<string, MatrixRun[]> = {
      a1: [
        { to: 'lost', outcome: 'timeout' },
        { to: 'skill', skill: 'alpha' },
      ],
      b2: [{ to: 'lost', outcome: 'error:overloaded', status: 529 }, { to: 'none-other' }],
    };
    const r = matrixFixture((owner, id) => lost[id] ?? scriptedRuns(owner, id));
    expect(r.totals).toMatchObject({ planned: 10, executed: 10, measured: 8, timeouts: 1, errors: 1 });
    expect(Object.values(r.totals.errorCauses)).toEqual([1]);
    expect(Object.keys(r.totals.errorCauses)[0]).toContain('overloaded');
    expect(matrixReportSchema.safeParse(r).success).toBe(true);
  });

  it('an agent other than Claude Code is written; Claude Code, named or not, is left out', () => {
    expect(Object.keys(report)).not.toContain('agent');
    expect(Object.keys(matrixFixture(scriptedRuns, { meta: { agent: 'claude' } }))).not.toContain('agent');
    expect(matrixFixture(scriptedRuns, { meta: { agent: 'codex' } }).agent).toBe('codex');
  });

  it('mergedLegs only for a merged matrix', () => {
    expect(Object.keys(report)).not.toContain('mergedLegs');
    expect(matrixFixture(scriptedRuns, { meta: { mergedLegs: 3 } }).mergedLegs).toBe(3);
  });

  it('derives the rows, figures and stolen list for every installed skill, in skill order', () => {
    expect(report.figures.map((f) => f.skill)).toEqual(['alpha', 'beta', 'gamma']);
    expect(report.rows.map((r) => `${r.owner}:${r.label}`)).toEqual([
      'alpha:positive',
      'alpha:negative',
      'beta:positive',
      'beta:negative',
    ]);
    expect(report.stolen).toEqual([
      { owner: 'alpha', id: 'a2', query: 'query a2', thief: 'beta', ownerRuns: 0, thiefRuns: 2, runs: 2 },
    ]);
  });

  it('an interrupted run has no verdict and says so first', () => {
    const r = matrixFixture(scriptedRuns, { meta: { interrupted: true } });
    expect(r.verdict).toBe('no-verdict');
    expect(r.noVerdictReasons[0]).toBe('the run was interrupted before every planned run finished');
    expect(r.interrupted).toBe(true);
    expect(report.verdict).toBe('ok');
    expect(report.noVerdictReasons).toEqual([]);
  });

  it('keeps its own copy of the queries', () => {
    const queries = [...report.queries];
    const built = buildMatrixReport({ ...metaOf(report) }, queries);
    expect(built.queries).toEqual(queries);
    expect(built.queries).not.toBe(queries);
  });
});

/** The meta a report was built from, read back from it. */
function metaOf(r: ReturnType<typeof matrixFixture>) {
  return {
    toolVersion: r.tool.version,
    createdAt: new Date(r.createdAt),
    simulated: r.simulated,
    cliVersion: r.cli.version,
    requestedModel: r.model.requested,
    reportedModels: r.model.reported,
    roster: r.roster,
    environment: r.environment,
    settings: r.settings,
    conflictAllowed: r.conflictAllowed,
    shard: r.shard,
    skills: r.skills,
    planned: r.totals.planned,
    aborted: r.aborted,
    interrupted: r.interrupted,
  };
}
