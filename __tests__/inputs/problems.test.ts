import { describe, expect, it } from 'vitest';
import { InputErrors } from '../../src/errors.js';
import { codePointLength, describeValue, inputFailure, Problems, quote } from '../../src/inputs/problems.js';

describe('Problems', () => {
  it('collects defects and throws them all at once, each naming its place and fix', () => {
    const problems = new Problems();
    expect(() => problems.throwIfAny()).not.toThrow();
    problems.add({ file: 'evals.json', entry: 'entry #1' }, 'query is empty', 'write the prompt');
    problems.add({ file: 'evals.json', line: 4 }, 'should_trigger is missing');
    expect(problems.count).toBe(2);
    let thrown: unknown;
    try {
      problems.throwIfAny();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InputErrors);
    expect((thrown as InputErrors).message).toBe(
      'evals.json (entry #1): query is empty. Fix: write the prompt\nevals.json:line 4: should_trigger is missing',
    );
  });

  it('inputFailure is one defect thrown the same way', () => {
    const error = inputFailure({ file: 'SKILL.md', line: 1 }, 'no frontmatter', 'add it');
    expect(error.errors).toHaveLength(1);
    expect(error.message).toBe('SKILL.md:line 1: no frontmatter. Fix: add it');
  });
});

describe('quote', () => {
  it('JSON-escapes (no raw line break or control byte reaches a message)', () => {
    expect(quote('a "b"\nc\u0007')).toBe('"a \\"b\\"\\nc\\u0007"');
  });

  it('caps at max code points with an ellipsis, never splitting a surrogate pair', () => {
    expect(quote('abcdef', 6)).toBe('"abcdef"');
    expect(quote('abcdefg', 6)).toBe('"abcde…"');
    expect(quote('😀😀😀😀', 3)).toBe('"😀😀…"');
  });
});

describe('describeValue', () => {
  it('names each kind of value for an "expected X, got Y" message', () => {
    expect(describeValue(null)).toBe('null');
    expect(describeValue(undefined)).toBe('nothing');
    expect(describeValue('yes')).toBe('the string "yes"');
    expect(describeValue(3)).toBe('number 3');
    expect(describeValue(false)).toBe('boolean false');
    expect(describeValue([1])).toBe('a list');
    expect(describeValue({ a: 1 })).toBe('an object');
    expect(describeValue(10n)).toBe('a bigint');
  });
});

describe('codePointLength', () => {
  it('counts code points, not UTF-16 units', () => {
    expect(codePointLength('')).toBe(0);
    expect(codePointLength('abc')).toBe(3);
    expect(codePointLength('😀é')).toBe(2);
  });
});
