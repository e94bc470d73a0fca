import { describe, expect, it } from 'vitest';
import { markdownTable, percent, percentOf, utcDate } from '../src/format.js';

describe('percent: whole percent, halves up, one rule for every renderer', () => {
  it('rounds halves up, whichever way the share was computed', () => {
    // 29/200 is 14.5%: (29 / 200) * 100 is 14.499999999999998 in floating point, 100 * 29 / 200 is 14.5.
    expect(percent(29 / 200)).toBe('15%');
    expect(percentOf(29, 200)).toBe('15%');
    expect(percent(0.145)).toBe('15%');
    expect(percent(1 / 8)).toBe('13%');
    expect(percent(0.285)).toBe('29%');
  });

  it('rounds everything else to the nearest whole percent', () => {
    expect(percent(2 / 3)).toBe('67%');
    expect(percent(1 / 3)).toBe('33%');
    expect(percent(0.004)).toBe('0%');
    expect(percent(0.995)).toBe('100%');
    expect(percent(0)).toBe('0%');
    expect(percent(1)).toBe('100%');
    expect(percent(0.95)).toBe('95%');
  });

  it('prints a dash without a measured run', () => {
    expect(percentOf(0, 0)).toBe('–');
    expect(percentOf(6, 7)).toBe('86%');
  });
});

describe('markdownTable', () => {
  it('writes the header, its rule, then one row per entry', () => {
    expect(markdownTable(['A', 'B'], [['1', '2']])).toEqual(['| A | B |', '| --- | --- |', '| 1 | 2 |']);
  });
});

describe('utcDate', () => {
  it('gives the UTC day of a timestamp, and says so when it does not parse', () => {
    expect(utcDate('2026-12-01T23:59:59-02:00')).toBe('2026-12-02');
    expect(utcDate('not a date')).toBe('an unknown date');
  });
});
