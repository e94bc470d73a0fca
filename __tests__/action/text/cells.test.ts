import { describe, expect, it } from 'vitest';
import { counts, labelCell } from '../../../src/action/text/cells.js';

describe("the comment's and summary's shared cells", () => {
  it('counts: hits/runs and the rate, a dash for no runs', () => {
    expect(counts(6, 7)).toBe('6/7 (86%)');
    expect(counts(0, 4)).toBe('0/4 (0%)');
    expect(counts(0, 0)).toBe('0/0 (–)');
  });

  it('labelCell: a regression in bold, every other label as written', () => {
    expect(labelCell('regression')).toBe('**regression**');
    expect(labelCell('improvement')).toBe('improvement');
    expect(labelCell('noise')).toBe('noise');
    expect(labelCell('no-verdict')).not.toContain('**');
  });
});
