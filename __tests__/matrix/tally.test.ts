import { describe, expect, it } from 'vitest';
import type { EvalItem } from '../../src/inputs/types.js';
import {
  destinationOf,
  matrixRows,
  matrixVerdict,
  skillFigures,
  stolenQueries,
  summarizeMatrixQuery,
} from '../../src/matrix/tally.js';
import type { MatrixRun } from '../../src/schemas/matrix.js';
import { wilsonInterval } from '../../src/verdict/statistics.js';

const installed = new Set(['alpha', 'beta', 'gamma']);
const to = (skill: string): MatrixRun => ({ to: 'skill', skill });
const NONE: MatrixRun = { to: 'none-other' };
const TIMEOUT: MatrixRun = { to: 'lost', outcome: 'timeout' };
const item = (id: string, shouldTrigger: boolean): EvalItem => ({
  id,
  query: `query ${id}`,
  shouldTrigger,
  extra: {},
});
const query = (owner: string, id: string, shouldTrigger: boolean, runs: MatrixRun[]) =>
  summarizeMatrixQuery({ owner, item: item(id, shouldTrigger) }, runs);

describe('where a run went', () => {
  it('the stub is the owner, an installed sibling is that skill, anything else is none/other', () => {
    expect(destinationOf({ kind: 'triggered' }, { kind: 'stub' }, 'alpha', installed)).toEqual(to('alpha'));
    expect(destinationOf({ kind: 'triggered' }, undefined, 'alpha', installed)).toEqual(to('alpha'));
    expect(
      destinationOf({ kind: 'not-triggered' }, { kind: 'sibling', name: 'beta' }, 'alpha', installed),
    ).toEqual(to('beta'));
    expect(
      destinationOf({ kind: 'not-triggered' }, { kind: 'sibling', name: 'stranger' }, 'alpha', installed),
    ).toEqual(NONE);
    expect(destinationOf({ kind: 'not-triggered' }, { kind: 'other' }, 'alpha', installed)).toEqual(NONE);
    expect(destinationOf({ kind: 'not-triggered' }, { kind: 'none' }, 'alpha', installed)).toEqual(NONE);
  });

  it('a timeout or an error is lost, never a cell; the status of an API error is kept', () => {
    expect(destinationOf({ kind: 'timeout' }, undefined, 'alpha', installed)).toEqual(TIMEOUT);
    expect(
      destinationOf({ kind: 'error', cause: 'api', status: 500 }, undefined, 'alpha', installed),
    ).toEqual({
      to: 'lost',
      outcome: 'error:api',
      status: 500,
    });
    const q = query('alpha', 'a1', true, [to('alpha'), TIMEOUT, { to: 'lost', outcome: 'error:network' }]);
    expect(q).toMatchObject({ measured: 1, loaded: { alpha: 1 }, noneOther: 0, timeouts: 1, errors: 1 });
  });
});

describe('the cells, the figures, the stolen list', () => {
  const queries = [
    query('alpha', 'a1', true, [to('alpha'), to('alpha'), to('beta'), NONE]),
    query('alpha', 'a2', true, [to('beta'), to('beta'), to('alpha'), to('gamma')]),
    query('alpha', 'a3', false, [NONE, to('alpha'), NONE, NONE]),
    query('beta', 'b1', true, [to('beta'), to('beta'), TIMEOUT, to('beta')]),
    query('beta', 'b2', false, [to('alpha'), NONE, NONE, NONE]),
  ];
  const skills = ['alpha', 'beta', 'gamma'];

  it('a row per owner and label, a cell per installed skill (zeros included) and none/other', () => {
    expect(matrixRows(skills, queries)).toEqual([
      {
        owner: 'alpha',
        label: 'positive',
        queries: 2,
        runs: 8,
        cells: { alpha: 3, beta: 3, gamma: 1 },
        noneOther: 1,
      },
      {
        owner: 'alpha',
        label: 'negative',
        queries: 1,
        runs: 4,
        cells: { alpha: 1, beta: 0, gamma: 0 },
        noneOther: 3,
      },
      {
        owner: 'beta',
        label: 'positive',
        queries: 1,
        runs: 3,
        cells: { alpha: 0, beta: 3, gamma: 0 },
        noneOther: 0,
      },
      {
        owner: 'beta',
        label: 'negative',
        queries: 1,
        runs: 4,
        cells: { alpha: 1, beta: 0, gamma: 0 },
        noneOther: 3,
      },
    ]);
  });

  it('recall and precision per skill, with the Wilson interval of the project', () => {
    const [alpha, beta, gamma] = skillFigures(skills, queries);
    // alpha: 3 of its 8 positive runs; it was loaded 5 times (3 own, 1 own negative, 1 on beta's negative).
    expect(alpha?.recall).toMatchObject({ hits: 3, of: 8, rate: 3 / 8 });
    expect(alpha?.recall.interval).toEqual({ ...wilsonInterval({ hits: 3, runs: 8 }) });
    expect(alpha?.precision).toMatchObject({ hits: 3, of: 5, rate: 3 / 5 });
    // beta took 3 of alpha's positives: 3 own of 6 loads.
    expect(beta?.recall).toMatchObject({ hits: 3, of: 3, rate: 1 });
    expect(beta?.precision).toMatchObject({ hits: 3, of: 6, rate: 0.5 });
    // gamma owns no query: no recall to speak of, precision 0 of its 1 load.
    expect(gamma?.recall).toEqual({ hits: 0, of: 0, rate: null, interval: null });
    expect(gamma?.precision).toMatchObject({ hits: 0, of: 1, rate: 0 });
  });

  it('a positive of A is stolen by B only when B loaded it more often than A', () => {
    expect(stolenQueries(queries)).toEqual([
      { owner: 'alpha', id: 'a2', query: 'query a2', thief: 'beta', ownerRuns: 1, thiefRuns: 2, runs: 4 },
    ]);
    // A tie is not a theft, nor is a negative that went elsewhere.
    expect(stolenQueries([query('alpha', 'x', true, [to('alpha'), to('beta')])])).toEqual([]);
  });
});

describe('the no-verdict rule over every run of the matrix', () => {
  const settings = { runsPerQuery: 2, share: 0.1, aborted: false, interrupted: false };
  it('a verdict while the lost runs stay within the share', () => {
    const queries = Array.from({ length: 10 }, (_, i) =>
      query('alpha', `q${i}`, true, i === 0 ? [TIMEOUT, to('alpha')] : [to('alpha'), NONE]),
    );
    expect(matrixVerdict(queries, { ...settings, planned: 20 })).toEqual({ verdict: 'ok', reasons: [] });
  });

  it('no verdict past the share, or when a query lost every run, with what they were lost to', () => {
    const lostAll = [
      query('alpha', 'q1', true, [TIMEOUT, TIMEOUT]),
      query('beta', 'q2', true, [to('beta'), to('beta')]),
    ];
    const { verdict, reasons } = matrixVerdict(lostAll, { ...settings, planned: 4 });
    expect(verdict).toBe('no-verdict');
    expect(reasons.join('\n')).toMatch(/2 of 4 planned runs were lost/);
    expect(reasons.join('\n')).toMatch(/1 query lost every run/);
    expect(reasons.join('\n')).toMatch(/timed out/);
  });

  it('an interrupted or stopped matrix has no verdict', () => {
    const q = [query('alpha', 'q1', true, [to('alpha')])];
    expect(matrixVerdict(q, { ...settings, planned: 2, interrupted: true }).verdict).toBe('no-verdict');
    expect(matrixVerdict(q, { ...settings, planned: 2, aborted: true }).reasons).toEqual([
      'the run was stopped before every planned run finished',
    ]);
  });
});
