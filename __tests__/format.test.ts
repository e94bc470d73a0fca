import { describe, expect, it } from 'vitest';
import {
  clipChars,
  markdownTable,
  percent,
  percentOf,
  points,
  signedPoints,
  utcDate,
} from '../src/format.js';

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

describe('points: a change in rate in whole percentage points, one rule for every renderer', () => {
  it('rounds to whole points as percent rounds a rate, float artifacts ignored', () => {
    expect(points(0.36)).toBe('+36 pp');
    expect(points(1 / 7)).toBe('+14 pp');
    expect(points(-1)).toBe('−100 pp');
    // 0.285 - 0.14 is 0.14499999999999996 in floating point: the 14.5 it stands for rounds to 15.
    expect(points(0.285 - 0.14)).toBe('+15 pp');
  });

  it('rounds halves away from zero, so a change and its reverse print the same size', () => {
    expect(points(0.125)).toBe('+13 pp');
    expect(points(-0.125)).toBe('−13 pp');
    expect(points(0.005)).toBe('+1 pp');
    expect(points(-0.005)).toBe('−1 pp');
  });

  it('signs with + and the minus sign (U+2212), and writes a change that rounds to nothing as ±0', () => {
    expect(points(0)).toBe('±0 pp');
    expect(points(0.004)).toBe('±0 pp');
    expect(points(-0.004)).toBe('±0 pp');
    expect(points(-0)).toBe('±0 pp');
    expect(points(-0.25)).toBe('−25 pp');
    expect(points(-0.25)).not.toContain('-');
  });

  it('prints a dash without a change, and the number alone for an interval written around it', () => {
    expect(points(null)).toBe('–');
    expect(signedPoints(-0.353)).toBe('−35');
    expect(signedPoints(0.7)).toBe('+70');
    expect(signedPoints(0.001)).toBe('±0');
  });
});

describe('markdownTable', () => {
  it('writes the header, its rule, then one row per entry', () => {
    expect(markdownTable(['A', 'B'], [['1', '2']])).toEqual(['| A | B |', '| --- | --- |', '| 1 | 2 |']);
  });
});

describe('clipChars', () => {
  it('keeps text of at most max characters whole, counting code points, not UTF-16 units', () => {
    expect(clipChars('abc', 3)).toBe('abc');
    expect(clipChars('ab😀', 3)).toBe('ab😀');
  });

  it('cuts longer text to max characters, the last one …, never splitting a surrogate pair', () => {
    expect(clipChars('abcd', 3)).toBe('ab…');
    expect(clipChars('a😀😀😀', 3)).toBe('a😀…');
    expect(clipChars('😀😀😀😀', 2)).toBe('😀…');
  });
});

describe('utcDate', () => {
  it('gives the UTC day of a timestamp, and says so when it does not parse', () => {
    expect(utcDate('2026-12-01T23:59:59-02:00')).toBe('2026-12-02');
    expect(utcDate('not a date')).toBe('an unknown date');
  });
});
