/**
 * Strict UTF-8 for input files. Node's `readFile(…, 'utf8')` turns a bad byte into U+FFFD without
 * a word, so a prompt saved in Latin-1 or cut mid-character would be measured as a different text
 * than the one the user wrote. These helpers find the first bad byte, so the error can name its line.
 */

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
