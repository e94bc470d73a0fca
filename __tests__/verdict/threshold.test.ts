import { describe, expect, it } from 'vitest';
import { queryPasses } from '../../src/verdict/threshold.js';

describe('queryPasses', () => {
  it('a positive passes strictly above the threshold, a negative strictly below', () => {
    expect(queryPasses(true, 0.51, 0.5)).toBe(true);
    expect(queryPasses(true, 0.5, 0.5)).toBe(false);
    expect(queryPasses(false, 0.49, 0.5)).toBe(true);
    expect(queryPasses(false, 0.5, 0.5)).toBe(false);
  });

  it('the ends: a positive never passes at threshold 1, a negative never at threshold 0', () => {
    expect(queryPasses(true, 1, 1)).toBe(false);
    expect(queryPasses(false, 0, 0)).toBe(false);
    expect(queryPasses(true, 1, 0)).toBe(true);
    expect(queryPasses(false, 0, 1)).toBe(true);
  });

  it('nothing measured is neither pass nor fail', () => {
    expect(queryPasses(true, null, 0.5)).toBeNull();
    expect(queryPasses(false, null, 0.5)).toBeNull();
  });
});
