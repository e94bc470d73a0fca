/**
 * The width Claude Code counts a listing entry in: its terminal display width (Bun's
 * `stringWidth`, ambiguous characters narrow), not its length. A line break or another control
 * character counts 0, a combining mark or a zero-width character 0, an East Asian wide or
 * full-width character and an emoji 2, anything else 1 (docs/listing-budget.md). The ranges below
 * are the common wide blocks; an exotic character outside them is counted 1. Pure.
 */

const ZERO = /^[\p{Cc}\p{Mn}\p{Me}\u200b-\u200f\u2028\u2029\u2060-\u2064\ufeff]$/u;
const EMOJI = /\p{Extended_Pictographic}/u;

const WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];

function isWide(code: number): boolean {
  return WIDE.some(([from, to]) => code >= from && code <= to);
}

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** The display width of one grapheme: 0, 1 or 2. */
function graphemeWidth(grapheme: string): number {
  const chars = Array.from(grapheme);
  if (chars.every((c) => ZERO.test(c))) return 0;
  const first = chars.find((c) => !ZERO.test(c)) ?? '';
  const code = first.codePointAt(0) ?? 0;
  if (isWide(code)) return 2;
  if (EMOJI.test(first) && (code >= 0x1f000 || grapheme.includes('\ufe0f'))) return 2;
  return 1;
}

/** The display width of a text, as the listing budget counts it. */
export function displayWidth(text: string): number {
  // ASCII without control characters: the width is the length (the common case, kept fast).
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let width = 0;
  for (const { segment } of segmenter.segment(text)) width += graphemeWidth(segment);
  return width;
}
