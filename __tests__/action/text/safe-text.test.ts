import { describe, expect, it } from 'vitest';
import { escapeLineStart, sentence, shortSha } from '../../../src/action/text/safe-text.js';

describe('escapeLineStart', () => {
  it('breaks the block openers escapeInline leaves at a line start: ordered lists, "+" bullets, indentation', () => {
    expect(escapeLineStart('1. first')).toBe('1\\. first');
    expect(escapeLineStart('12) twelfth')).toBe('12\\) twelfth');
    expect(escapeLineStart('+ more')).toBe('\\+ more');
    expect(escapeLineStart('    code block')).toBe('code block');
  });

  it('leaves the same characters alone past the start, and still escapes inline Markdown', () => {
    expect(escapeLineStart('version 1. then + more')).toBe('version 1. then + more');
    expect(escapeLineStart('*bold* @team')).toBe('\\*bold\\* @&#8203;team');
  });
});

describe('shortSha', () => {
  it('a hex sha of 7 to 64 digits: its first 7 in a code span', () => {
    expect(shortSha('0123456789abcdef0123456789abcdef01234567')).toBe('`0123456`');
    expect(shortSha('ABCDEF1')).toBe('`ABCDEF1`');
  });

  it('anything else never reaches a code span', () => {
    for (const text of [undefined, '', 'abc123', 'main', '0123456`; rm', 'g123456', 'a'.repeat(65)]) {
      expect(shortSha(text)).toBe('an unknown commit');
    }
  });
});

describe('sentence', () => {
  it('adds a full stop unless the text ends one already', () => {
    expect(sentence('a gate failed')).toBe('a gate failed.');
    for (const text of ['done.', 'really?', 'stop!']) expect(sentence(text)).toBe(text);
    expect(sentence('')).toBe('.');
  });
});
