import { describe, expect, it } from 'vitest';
import { crossNegativesEstimate } from '../../src/inputs/siblings.js';

describe('the cross-negatives estimate', () => {
  const item = { id: 'xlsx/q1', query: 'recalc the pivot table', shouldTrigger: false, extra: {} };
  it('counts the runs at most, one or several', () => {
    expect(crossNegativesEstimate({ items: [item], without: ['pdf'] }, 1)).toBe(
      'cross-negatives: 1 positive of the siblings added as negatives: up to 1 more run (1 per query); no eval set beside pdf',
    );
    expect(crossNegativesEstimate({ items: [item, item], without: [] }, 3)).toBe(
      'cross-negatives: 2 positives of the siblings added as negatives: up to 6 more runs (3 per query)',
    );
  });
});
