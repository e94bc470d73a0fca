import { describe, expect, it } from 'vitest';
import { mergeLegMatrices } from '../../../src/action/results/matrix-merge.js';
import type { ActionRun, RoutingMatrix } from '../../../src/action/results/results.js';
import {
  parseResultsFile,
  resultsFileName,
  type ShardResults,
  toResultsFile,
} from '../../../src/action/results/results-file.js';
import type { MatrixReport } from '../../../src/schemas/matrix.js';
import { matrixLegFixture as legOf, matrixFixture } from '../../fakes/matrix-fixture.js';

/**
 * `mode: merge` for the routing matrix: the legs' slices joined, or the legs' shared verdict kept
 * (invalid before not-run), or refused with every leg named in shard order.
 */

const OUT = '/runner/out';

function run(matrix?: RoutingMatrix): ActionRun {
  return {
    event: 'pull_request',
    eventName: 'pull_request',
    prNumber: 4,
    headSha: 'a'.repeat(40),
    fromFork: false,
    stage: 'measured',
    skills: [],
    gates: [],
    notes: [],
    settings: { runs: 2, baseline: 'none', failOnRegression: false },
    ...(matrix === undefined ? {} : { matrix }),
  };
}

const measured = (report: MatrixReport): RoutingMatrix => ({
  kind: 'measured',
  report,
  reportPath: `${OUT}/2025-03-14-matrix.json`,
  markdownPath: `${OUT}/2025-03-14-matrix.md`,
});

/** A leg's results file as the merge job reads it: written, through JSON, from the leg's download folder. */
function leg(index: number, count: number, matrix?: RoutingMatrix): ShardResults {
  const dir = `/dl/leg-${index}`;
  const file = `${dir}/${resultsFileName({ index, count })}`;
  const written = toResultsFile(run(matrix), { index, count }, 'a'.repeat(40), OUT, '0.1.0');
  return { file, dir, results: parseResultsFile(JSON.parse(JSON.stringify(written)), file) };
}
const name = (index: number, count: number) =>
  `/dl/leg-${index}/skilltrigger-results.shard-${index}-of-${count}.json (shard ${index}/${count})`;

const AT = new Date('2026-12-04T12:00:00.000Z');

describe('mergeLegMatrices', () => {
  it('no legs, or legs none of which measured a matrix, merge to none', () => {
    expect(mergeLegMatrices([], AT)).toEqual({ kind: 'none' });
    expect(mergeLegMatrices([leg(1, 3), leg(2, 3), leg(3, 3)], AT)).toEqual({ kind: 'none' });
  });

  it('refuses legs of which only some hold a matrix, naming each side in shard order', () => {
    const m = measured(legOf(2, 3));
    const out = mergeLegMatrices([leg(3, 3), leg(2, 3, m), leg(1, 3)], AT);
    expect(out).toEqual({
      kind: 'refused',
      problems: [
        `the legs disagree on the routing matrix: ${name(2, 3)} measured it, ${name(1, 3)}, ${name(3, 3)} did not; give every leg the same routing-matrix input`,
      ],
    });
  });

  it('a leg holding an invalid matrix is disagreement too when another holds none', () => {
    const out = mergeLegMatrices([leg(1, 2, { kind: 'invalid', problems: ['x'] }), leg(2, 2)], AT);
    expect(out.kind).toBe('refused');
  });

  it('keeps the legs’ invalid verdict: problems deduplicated, first-seen order by shard, over any not-run', () => {
    const out = mergeLegMatrices(
      [
        leg(3, 3, { kind: 'invalid', problems: ['b/SKILL.md:2: bad', 'a/SKILL.md:1: bad'] }),
        leg(2, 3, { kind: 'not-run', why: 'a gate failed' }),
        leg(1, 3, { kind: 'invalid', problems: ['a/SKILL.md:1: bad'] }),
      ],
      AT,
    );
    expect(out).toEqual({
      kind: 'kept',
      matrix: { kind: 'invalid', problems: ['a/SKILL.md:1: bad', 'b/SKILL.md:2: bad'] },
    });
  });

  it('an invalid leg wins over measured ones', () => {
    const out = mergeLegMatrices(
      [leg(1, 2, measured(legOf(1, 2))), leg(2, 2, { kind: 'invalid', problems: ['p'] })],
      AT,
    );
    expect(out).toEqual({ kind: 'kept', matrix: { kind: 'invalid', problems: ['p'] } });
  });

  it('keeps not-run with each leg’s reason, in shard order, joined by “; ”', () => {
    const out = mergeLegMatrices(
      [
        leg(3, 3, { kind: 'not-run', why: 'the job was cancelled' }),
        leg(2, 3, measured(legOf(2, 3))),
        leg(1, 3, { kind: 'not-run', why: 'a gate failed' }),
      ],
      AT,
    );
    expect(out).toEqual({
      kind: 'kept',
      matrix: { kind: 'not-run', why: 'shard 1/3: a gate failed; shard 3/3: the job was cancelled' },
    });
  });

  it('merges measured legs given in any order into the whole matrix, dated by the merge', () => {
    const whole = matrixFixture();
    const out = mergeLegMatrices(
      [leg(2, 3, measured(legOf(2, 3))), leg(3, 3, measured(legOf(3, 3))), leg(1, 3, measured(legOf(1, 3)))],
      AT,
    );
    if (out.kind !== 'merged') throw new Error(`expected merged, got ${out.kind}`);
    expect(out.report.mergedLegs).toBe(3);
    expect(out.report.shard).toBeNull();
    expect(out.report.createdAt).toBe(AT.toISOString());
    expect(out.report.queries).toEqual(whole.queries);
    expect(out.report.rows).toEqual(whole.rows);
  });

  it('refuses a merge that lacks a leg, naming the missing one', () => {
    const out = mergeLegMatrices([leg(1, 3, measured(legOf(1, 3))), leg(3, 3, measured(legOf(3, 3)))], AT);
    expect(out).toEqual({
      kind: 'refused',
      problems: [
        "the routing matrix's legs cannot be merged: --merge: lacks leg 2/3 of the 3. Fix: run every leg of the workflow matrix on the same commit with the same inputs (runs, timeout, model, routing-matrix)",
      ],
    });
  });

  it('refuses a leg given twice, and a whole matrix among legs, naming the file', () => {
    const twice = mergeLegMatrices([leg(1, 2, measured(legOf(1, 2))), leg(1, 2, measured(legOf(1, 2)))], AT);
    expect(twice.kind === 'refused' && twice.problems).toEqual([
      expect.stringMatching(
        /cannot be merged: \/dl\/leg-1\/skilltrigger-results\.shard-1-of-2\.json: is leg 1\/2 again/,
      ),
    ]);
    const whole = mergeLegMatrices(
      [leg(1, 2, measured(legOf(1, 2))), leg(2, 2, measured(matrixFixture()))],
      AT,
    );
    expect(whole.kind === 'refused' && whole.problems).toEqual([
      expect.stringMatching(/shard-2-of-2\.json: is a whole matrix, not a leg of a sharded one/),
    ]);
  });
});
