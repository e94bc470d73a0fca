/**
 * Strict UTF-8 for input files. Node's `readFile(…, 'utf8')` turns a bad byte into U+FFFD without
 * a word, so a prompt saved in Latin-1 or cut mid-character would be measured as a different text
 * than the one the user wrote. These helpers find the first bad byte, so the error can name its line.
 */

import { inputFailure } from './problems.js';

/** Byte offset of the first byte that does not start or continue a valid UTF-8 sequence, if any. */
export function firstInvalidUtf8(bytes: Uint8Array): number | undefined {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    if (b < 0x80) {
      i++;
      continue;
    }
    // Lead byte → sequence length and the allowed range of the second byte (no overlongs,
    // no UTF-16 surrogates ED A0–BF, nothing above U+10FFFF).
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      if (b === 0xe0) low = 0xa0;
      if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      if (b === 0xf0) low = 0x90;
      if (b === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k < length; k++) {
      const c = bytes[i + k];
      const [min, max] = k === 1 ? [low, high] : [0x80, 0xbf];
      if (c === undefined || c < min || c > max) return i;
    }
    i += length;
  }
  return undefined;
}

/** 1-based line of a byte offset (lines end at LF). */
export function lineOfByte(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < bytes.length; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

/** A UTF-16 surrogate without its pair (`"\ud800"` in JSON or YAML escapes): not a character. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The first lone surrogate of `text`, as `U+D800`, if there is one. */
export function loneSurrogate(text: string): string | undefined {
  const found = LONE_SURROGATE.exec(text)?.[0];
  return found === undefined ? undefined : `U+${(found.codePointAt(0) ?? 0).toString(16).toUpperCase()}`;
}

/**
 * Whether the bytes look like UTF-16 rather than UTF-8: a UTF-16 byte-order mark, or ASCII text
 * with a NUL beside every character (Windows editors and PowerShell's `>` save text this way).
 * Such a file needs a UTF-16 conversion; the Latin-1 advice would turn every NUL into a character.
 */
export function looksLikeUtf16(bytes: Uint8Array): 'UTF-16LE' | 'UTF-16BE' | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'UTF-16LE';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'UTF-16BE';
  const head = bytes.subarray(0, Math.min(bytes.length, 200));
  if (head.length < 4) return undefined;
  let evenNul = 0;
  let oddNul = 0;
  head.forEach((b, i) => {
    if (b === 0) {
      if (i % 2 === 0) evenNul++;
      else oddNul++;
    }
  });
  const pairs = Math.floor(head.length / 2);
  if (oddNul >= pairs * 0.75 && evenNul === 0) return 'UTF-16LE';
  if (evenNul >= pairs * 0.75 && oddNul === 0) return 'UTF-16BE';
  return undefined;
}

/**
 * Refuses bytes that are not the UTF-8 text they are read as, naming the file, the line and the
 * byte, with the conversion that fixes it: UTF-16 is told as such, anything else is most likely
 * Latin-1 (or Windows-1252), a text cut mid-character, or not text at all.
 */
export function refuseInvalidUtf8(bytes: Uint8Array, file: string, what: string): void {
  const utf16 = looksLikeUtf16(bytes);
  if (utf16 !== undefined) {
    throw inputFailure(
      { file },
      `is saved as ${utf16} (${bytes[0] === 0xff || bytes[0] === 0xfe ? 'it starts with a UTF-16 byte-order mark' : 'a NUL byte sits beside every character'}), not UTF-8`,
      `save ${what} as UTF-8 (an editor's "Save with encoding", or \`iconv -f ${utf16} -t UTF-8\`)`,
    );
  }
  const bad = firstInvalidUtf8(bytes);
  if (bad === undefined) return;
  const hex = [...bytes.subarray(bad, bad + 4)].map((b) => b.toString(16).toUpperCase().padStart(2, '0'));
  throw inputFailure(
    { file, line: lineOfByte(bytes, bad) },
    `is not valid UTF-8: byte ${bad} (${hex.slice(0, 1).join(' ')}) does not start a valid character${hex.length > 1 ? ` (bytes from there: ${hex.join(' ')})` : ''}; read as text it would silently become U+FFFD`,
    `save ${what} as UTF-8 (an editor's "Save with encoding", or \`iconv -f latin1 -t utf-8\` for a Latin-1 file), then check that line`,
  );
}
