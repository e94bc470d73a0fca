import { describe, expect, it } from 'vitest';
import { improveIssues } from '../../../src/report/read/improve-consistency.js';
import { improveFixture } from '../../fakes/improve-fixture.js';

const paths = (r: ReturnType<typeof improveFixture>) => improveIssues(r).map((i) => i.path.join('.'));
const final = improveFixture().final;

describe('improveIssues', () => {
  it('a session as improve writes it agrees with itself', () => {
    expect(improveIssues(improveFixture())).toEqual([]);
  });

  it('names each contradiction by its field', () => {
    expect(
      paths(improveFixture(undefined, { final: { ...final, winner: 'Writes the handoff note.' } })),
    ).toEqual(['final.winner']);
    const regression = {
      ...final,
      holdout: final.holdout && { ...final.holdout, label: 'regression' as const },
    };
    expect(paths(improveFixture(undefined, { final: regression }))).toEqual(['final.holdout.label']);
    expect(paths(improveFixture(undefined, { final: { ...final, recommendation: 'no-verdict' } }))).toEqual([
      'final.recommendation',
    ]);
    expect(
      paths(improveFixture(undefined, { final: { ...final, recommendation: 'keep-original' } })),
    ).toEqual(['final.recommendation']);
    const candidates = improveFixture().candidates.map((c) =>
      c.iteration === 3 ? { ...c, decision: 'accepted' as const } : c,
    );
    expect(paths(improveFixture(undefined, { candidates }))).toContain('candidates.2.decision');
  });
});
