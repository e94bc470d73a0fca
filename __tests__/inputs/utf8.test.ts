import { describe, expect, it } from 'vitest';
import { firstInvalidUtf8, lineOfByte, loneSurrogate, looksLikeUtf16 } from '../../src/inputs/utf8.js';

describe('UTF-16 told apart from UTF-8', () => {
  it('by its byte-order mark, or by the NUL beside every ASCII character', () => {
    expect(looksLikeUtf16(Buffer.from('\uFEFF[{"a": 1}]', 'utf16le'))).toBe('UTF-16LE');
    expect(looksLikeUtf16(Buffer.from('[{"a": 1}]', 'utf16le'))).toBe('UTF-16LE');
    expect(looksLikeUtf16(Buffer.from('[{"a": 1}]', 'utf16le').swap16())).toBe('UTF-16BE');
    expect(looksLikeUtf16(Buffer.from([0xfe, 0xff, 0, 0x5b]))).toBe('UTF-16BE');
  });

  it('not UTF-8 text, nor UTF-8 with a stray NUL', () => {
    expect(looksLikeUtf16(Buffer.from('[{"query": "café"}]', 'utf8'))).toBeUndefined();
    expect(looksLikeUtf16(Buffer.from('[\u0000{"query": "a"}]', 'utf8'))).toBeUndefined();
    expect(looksLikeUtf16(Buffer.from('ab', 'utf8'))).toBeUndefined();
  });
});

describe('strict UTF-8', () => {
  it('accepts what Node itself encodes, including 4-byte characters', () => {
    for (const text of ['', 'plain', 'café', '日本語', '🎉 emoji', '\uFEFFbom', '\uFFFD itself']) {
      expect(firstInvalidUtf8(Buffer.from(text, 'utf8'))).toBeUndefined();
    }
  });

  it('finds the first bad byte: Latin-1, a cut sequence, an overlong, a CESU surrogate, beyond U+10FFFF', () => {
    const cases: Array<[number[], number]> = [
      [[0x61, 0xe9, 0x62], 1],
      [[0x61, 0xe2, 0x82], 1],
      [[0xc0, 0xaf], 0],
      [[0xe0, 0x80, 0xaf], 0],
      [[0xed, 0xa0, 0x80], 0],
      [[0xf4, 0x90, 0x80, 0x80], 0],
      [[0x61, 0x62, 0x80], 2],
      [[0xff], 0],
    ];
    for (const [bytes, offset] of cases) expect(firstInvalidUtf8(Uint8Array.from(bytes))).toBe(offset);
  });

  it('names the line of a byte', () => {
    const bytes = Buffer.from('a\nb\nc');
    expect(lineOfByte(bytes, 0)).toBe(1);
    expect(lineOfByte(bytes, 2)).toBe(2);
    expect(lineOfByte(bytes, 4)).toBe(3);
  });

  it('finds a lone surrogate, not a pair', () => {
    expect(loneSurrogate('ok 🎉')).toBeUndefined();
    expect(loneSurrogate('half \ud83d here')).toBe('U+D83D');
    expect(loneSurrogate('\udc00 first')).toBe('U+DC00');
  });
});
