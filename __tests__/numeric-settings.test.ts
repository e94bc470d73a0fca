import { describe, expect, it } from 'vitest';
import { accepted, NUMERIC_SETTINGS, readNumber, TIMEOUT_FLOOR_SECONDS } from '../src/numeric-settings.js';

const { timeout, runs, threshold, late } = NUMERIC_SETTINGS;
const dollars = NUMERIC_SETTINGS['max-cost-usd'];

describe('one grammar for every numeric setting', () => {
  it.each(['0x10', '1e3', '1E1', '+30', '-30', '.5', '30.', '3_0', '30s', 'Infinity', 'NaN', '', ' ', '1 0'])(
    'refuses %j in every setting',
    (text) => {
      for (const setting of Object.values(NUMERIC_SETTINGS))
        expect(readNumber(setting, text)).toBeUndefined();
    },
  );

  it('reads digits with an optional decimal part, spaces around them ignored', () => {
    expect(readNumber(timeout, '30')).toBe(30);
    expect(readNumber(timeout, ' 45.5 ')).toBe(45.5);
    expect(readNumber(timeout, '007')).toBe(7);
    expect(readNumber(threshold, '0.5')).toBe(0.5);
    expect(readNumber(dollars, '$2.50')).toBe(2.5);
    // A dollar sign is a budget's only: a timeout of "$30" is a typo.
    expect(readNumber(timeout, '$30')).toBeUndefined();
  });

  it('a whole-number setting refuses a decimal part', () => {
    expect(readNumber(runs, '2')).toBe(2);
    expect(readNumber(runs, '2.0')).toBeUndefined();
    expect(readNumber(late, '1.5')).toBeUndefined();
  });

  it('holds each range, floors and caps alike', () => {
    expect(readNumber(timeout, String(TIMEOUT_FLOOR_SECONDS))).toBe(TIMEOUT_FLOOR_SECONDS);
    expect(readNumber(timeout, '4.999')).toBeUndefined();
    expect(readNumber(timeout, '0.001')).toBeUndefined();
    expect(readNumber(timeout, '3600')).toBe(3600);
    expect(readNumber(timeout, '3600.5')).toBeUndefined();
    expect(readNumber(threshold, '0')).toBeUndefined();
    expect(readNumber(threshold, '0.999')).toBe(0.999);
    expect(readNumber(dollars, '0')).toBeUndefined();
    expect(readNumber(dollars, '0.01')).toBe(0.01);
    expect(readNumber(late, '0')).toBe(0);
    expect(readNumber(runs, '0')).toBeUndefined();
    expect(readNumber(runs, '99999999999999999999')).toBeUndefined();
  });

  it('says what each setting takes', () => {
    expect(accepted(runs)).toBe('a whole number from 1 to 100');
    expect(accepted(timeout)).toBe('a number of seconds from 5 to 3600');
    expect(accepted(threshold)).toBe('a number above 0 and at most 0.999');
    expect(accepted(dollars)).toBe('a number of US dollars above 0, such as 2.50');
    expect(accepted(late)).toBe('a whole number from 0 to 10 (turns to watch a miss for)');
  });
});
