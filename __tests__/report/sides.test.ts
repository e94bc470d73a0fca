import { describe, expect, it } from 'vitest';
import { pairNames } from '../../src/compare/comparison.js';
import { labelled, sidesOf } from '../../src/report/sides.js';
import { buildMeasurement, buildReport } from '../fakes/measurement-builder.js';

const m = (hits: number) => buildMeasurement([{ query: 'p', shouldTrigger: true, hits, runs: 2 }]);

describe('sidesOf and labelled', () => {
  it('a single report has one unlabelled side, and its text goes unprefixed', () => {
    const candidate = m(2);
    const sides = sidesOf(buildReport(candidate));
    expect(sides).toEqual([{ m: candidate }]);
    expect(labelled(sides[0] ?? { m: candidate }, '2 of 2')).toBe('2 of 2');
  });

  it('a paired report walks the baseline first, then the candidate, each labelled', () => {
    const baseline = m(1);
    const candidate = m(2);
    const sides = sidesOf(buildReport(candidate, { baseline }));
    expect(sides.map((s) => s.label)).toEqual(['Baseline', 'Candidate']);
    expect(sides[0]?.m).toBe(baseline);
    expect(sides[1]?.m).toBe(candidate);
    expect(sides.map((s) => labelled(s, 'ok'))).toEqual(['Baseline: ok', 'Candidate: ok']);
  });

  it('a paired report of --versus-clean names its arms by the crowd, not baseline and candidate', () => {
    const report = buildReport(m(2), { baseline: m(1) });
    const clean = {
      ...report,
      settings: {
        ...report.settings,
        roster: {
          sha256: 'a'.repeat(64),
          from: 'folder' as const,
          skills: 3,
          commands: 0,
          versusClean: true as const,
        },
      },
    };
    expect(sidesOf(clean).map((s) => s.label)).toEqual(['Clean room', 'Among the crowd']);
    expect(pairNames(clean)).toEqual({ base: 'clean room', cand: 'among the crowd' });
    expect(pairNames(report)).toEqual({ base: 'baseline', cand: 'candidate' });
  });
});
