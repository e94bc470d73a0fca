import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { describeMatrixSkill } from '../../src/matrix/build.js';
import { mergeMatrixLegs } from '../../src/matrix/merge.js';
import { MATRIX_SCHEMA_VERSION, matrixReportSchema } from '../../src/schemas/matrix.js';
import { FIXTURE_SKILLS, matrixFixture, scriptedRuns } from '../fakes/matrix-report.js';

const now = new Date('2026-12-01T12:00:00Z');
const legs = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    file: `leg-${i + 1}.json`,
    report: matrixFixture(scriptedRuns, { shard: { index: i + 1, count } }),
  }));
const refusal = (run: () => unknown): InputError => {
  try {
    run();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('matrix --merge', () => {
  it('the legs of a sharded matrix merge into the matrix measured whole, in the whole order', () => {
    const whole = matrixFixture(scriptedRuns);
    for (const count of [1, 2, 3, 5]) {
      const merged = mergeMatrixLegs(legs(count).reverse(), now);
      expect(matrixReportSchema.parse(merged)).toEqual(merged);
      expect(merged.shard).toBeNull();
      expect(merged.mergedLegs).toBe(count);
      expect(merged.queries).toEqual(whole.queries);
      expect(merged.rows).toEqual(whole.rows);
      expect(merged.figures).toEqual(whole.figures);
      expect(merged.stolen).toEqual(whole.stolen);
      expect(merged.totals).toEqual(whole.totals);
      expect(merged.model.reported).toEqual(whole.model.reported);
    }
  });

  it('refuses a leg with other descriptions, settings, CLI version, skills; names the leg and the difference', () => {
    const [one, two] = legs(2) as [ReturnType<typeof legs>[number], ReturnType<typeof legs>[number]];
    const cases: [Partial<typeof two.report>, RegExp][] = [
      [
        {
          skills: two.report.skills.map((s) =>
            s.name === 'beta' ? describeMatrixSkill('beta', 'Greedy.', FIXTURE_SKILLS[1]?.items ?? null) : s,
          ),
        },
        /leg-2\.json: measured other descriptions or eval sets than leg-1\.json \(skill beta\)/,
      ],
      [
        { skills: two.report.skills.slice(0, 2) },
        /leg-2\.json: installed other skills \(alpha, beta\) than leg-1\.json \(alpha, beta, gamma\)/,
      ],
      [
        { settings: { ...two.report.settings, runsPerQuery: 3 } },
        /leg-2\.json: was measured with other settings/,
      ],
      [
        { cli: { version: '2.1.400' } },
        /leg-2\.json: was measured with Claude CLI 2\.1\.400, leg-1\.json with 2\.1\.328/,
      ],
      [{ model: { requested: 'opus', reported: {} } }, /leg-2\.json: asked for model opus/],
    ];
    for (const [change, message] of cases) {
      const error = refusal(() =>
        mergeMatrixLegs([one, { ...two, report: { ...two.report, ...change } }], now),
      );
      expect(error.exitCode).toBe(1);
      expect(error.message).toMatch(message);
      expect(error.message).toMatch(/Fix: /);
    }
  });

  it('merges a version 1 leg (no launch: cold) with a cold one, and refuses one whose launch differs', () => {
    const [one, two] = legs(2) as [ReturnType<typeof legs>[number], ReturnType<typeof legs>[number]];
    expect(mergeMatrixLegs([one, two], now).settings.launch).toBe('standby');
    const { launch: _, ...v1Settings } = one.report.settings;
    const v1 = { ...one, report: { ...one.report, schemaVersion: 1, settings: v1Settings } };
    const cold = {
      ...two,
      report: { ...two.report, settings: { ...two.report.settings, launch: 'cold' as const } },
    };
    const merged = mergeMatrixLegs([v1, cold], now);
    expect(merged.schemaVersion).toBe(MATRIX_SCHEMA_VERSION);
    expect(merged.settings.launch).toBe('cold');
    const error = refusal(() => mergeMatrixLegs([v1, two], now));
    expect(error.exitCode).toBe(1);
    expect(error.message).toMatch(
      /leg-2\.json: ran its prompts through warm standbys \(launch standby\), leg-1\.json cold \(launch cold, --standby 0 or a version 1 report\)/,
    );
  });

  it('refuses a whole matrix, a leg twice, a missing leg, legs of different splits', () => {
    const [one, two, three] = legs(3) as [
      ReturnType<typeof legs>[number],
      ReturnType<typeof legs>[number],
      ReturnType<typeof legs>[number],
    ];
    expect(
      refusal(() => mergeMatrixLegs([one, { file: 'whole.json', report: matrixFixture(scriptedRuns) }], now))
        .message,
    ).toMatch(/whole\.json: is a whole matrix/);
    expect(refusal(() => mergeMatrixLegs([one, two, { ...two, file: 'again.json' }], now)).message).toMatch(
      /again\.json: is leg 2\/3 again \(so is leg-2\.json\)/,
    );
    expect(refusal(() => mergeMatrixLegs([one, three], now)).message).toMatch(/lacks leg 2\/3 of the 3/);
    const other = {
      file: 'other.json',
      report: matrixFixture(scriptedRuns, { shard: { index: 2, count: 2 } }),
    };
    expect(refusal(() => mergeMatrixLegs([one, other], now)).message).toMatch(
      /other\.json: is leg 2\/2, but leg-1\.json is a leg of 3/,
    );
  });
});
