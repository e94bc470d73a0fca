import { describe, expect, it } from 'vitest';
import { compareMeasurements } from '../../src/compare/compare.js';
import { DEFAULT_NAMES } from '../../src/compare/comparison.js';
import { renderComparisonText } from '../../src/compare/render.js';
import { buildMeasurement } from '../fakes/measurement-builder.js';

// comparison.ts is the comparison's types and one value: the names of the sides when none is given.
describe('DEFAULT_NAMES', () => {
  it('are baseline and candidate', () => {
    expect(DEFAULT_NAMES).toEqual({ base: 'baseline', cand: 'candidate' });
  });

  it('name the sides of a comparison, and its text, when the caller gives no names', () => {
    const m = buildMeasurement([
      { query: 'write the notes', shouldTrigger: true, hits: 2, runs: 2 },
      { query: 'book a flight', shouldTrigger: false, hits: 0, runs: 2 },
    ]);
    const c = compareMeasurements(m, m);
    expect(c.names).toEqual(DEFAULT_NAMES);
    expect(renderComparisonText(c)).toContain('skilltrigger compare · base baseline → cand candidate\n');
  });
});
