/**
 * Escaping of user text (queries, notes, ids, skill and model names) for Markdown that GitHub
 * renders: the Markdown report, the PR comment and the job summary.
 *
 * The contract of {@link escapeInline}: its output, placed in a table cell or after other text on a
 * line, renders as exactly one run of plain text. It cannot end the cell or the row, open HTML or
 * a comment (a user-typed `<!-- marker -->` must not be mistaken for the sticky comment's marker),
 * start emphasis, code, a link, an image, strikethrough or math, notify anyone, or cross-reference
 * an issue. Invisible and bidi characters are shown as `⟨U+XXXX⟩` so a reader sees what the model
 * got and a right-to-left override cannot reorder the table. Two outputs put side by side are
 * still safe. The output must not be wrapped in a code span: code spans do not read `\` escapes or
 * entities.
 *
 * Not neutralised, on purpose: bare URLs (GitHub autolinks them, but the link shows its own
 * address, which is what the user wrote) and `:emoji:` shortcodes.
 */

/**
 * GitHub links `@user` and `#123` in its HTML pipeline, after entities are decoded, so `&#64;` and
 * `&#35;` do not stop it (github/cmark-gfm#181); a zero-width space after the sigil does. Written
 * as an entity so the raw Markdown shows where it was inserted.
 */
const ZERO_WIDTH_SPACE = '&#8203;';

/** ASCII punctuation that starts or ends an inline construct in GFM (with `|` for the table, `$` for math). */
const BACKSLASH_ESCAPED = new Set(['\\', '`', '*', '_', '[', ']', '(', ')', '!', '~', '|', '$']);

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Line breaks as Unicode and CommonMark count them; each becomes one visible `↵` (CRLF included). */
const LINE_BREAK = /^[\n\r\v\f\u0085\u2028\u2029]$/u;

/**
 * Characters nobody can see, that reorder text, or that are not text: default-ignorables
 * (zero-width, word joiner, BOM, tag characters, Hangul fillers), format characters (bidi
 * embeddings, overrides and isolates), controls and lone surrogates.
 */
const HIDDEN = /^[\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}\p{Cs}]$/u;

/** Variation selectors are default-ignorable too, but they only pick a glyph (❤ vs ❤️); kept. */
const VARIATION_SELECTOR = /^[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]$/u;

function codePointMarker(char: string): string {
  const hex = (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return `⟨U+${hex}⟩`;
}

/**
 * How a line break (`↵`), a tab (a space) or a hidden character (`⟨U+XXXX⟩`) is shown; undefined
 * for a character shown as itself. The HTML report shows user text the same way.
 */
export function shownAs(char: string): string | undefined {
  if (LINE_BREAK.test(char)) return '↵';
  if (char === '\t') return ' ';
  if (HIDDEN.test(char) && !VARIATION_SELECTOR.test(char)) return codePointMarker(char);
  return undefined;
}

/** Makes arbitrary user text safe as inline Markdown on GitHub (see the module comment for the contract). */
export function escapeInline(text: string): string {
  // Code points, so a surrogate pair stays whole and a lone surrogate stands alone.
  const chars = Array.from(text);
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i] as string;
    if (char === '\r' && chars[i + 1] === '\n') continue; // CRLF: the \n that follows writes the one ↵
    const shown = shownAs(char);
    if (shown !== undefined) {
      out += shown;
    } else if (char in ENTITIES) {
      out += ENTITIES[char];
    } else if (BACKSLASH_ESCAPED.has(char)) {
      out += `\\${char}`;
    } else if (char === '@' || char === '#') {
      out += char + ZERO_WIDTH_SPACE;
    } else if (char === '-' && (i === 0 || chars[i - 1] === 'h' || chars[i - 1] === 'H')) {
      // `GH-123` is an issue reference too. A leading hyphen is broken as well, so that one
      // piece ending in `gh` and the next starting with `-1` cannot form it side by side.
      out += char + ZERO_WIDTH_SPACE;
    } else {
      out += char;
    }
  }
  return out;
}

/**
 * One unit of escaped text: a sigil with its zero-width space, a backslash pair, an entity, a
 * code-point marker, or one code point. Cutting between units keeps every escape whole.
 */
const ESCAPED_UNIT = /[@#-]&#8203;|\\[\s\S]|&#?[0-9A-Za-z]+;|⟨U\+[0-9A-F]{4,6}⟩|[\s\S]/gu;

const ELLIPSIS = '…';

/**
 * Caps text produced by {@link escapeInline} at `max` UTF-16 code units (GitHub's size limits are
 * counted in characters; code units never undercount them), ending it with `…` when cut. Never cuts
 * inside an escape, a code-point marker or a surrogate pair, so the result is as safe as its input.
 */
export function truncate(escaped: string, max: number): string {
  if (!Number.isInteger(max) || max < 0)
    throw new RangeError(`truncate: max must be a whole number ≥ 0, got ${max}`);
  if (escaped.length <= max) return escaped;
  if (max < ELLIPSIS.length) return '';
  let kept = '';
  for (const unit of escaped.match(ESCAPED_UNIT) ?? []) {
    if (kept.length + unit.length + ELLIPSIS.length > max) break;
    kept += unit;
  }
  return kept + ELLIPSIS;
}

/**
 * Mermaid has no escaping for labels, so only a narrow alphabet reaches a chart: ids and names are
 * kept to letters, digits and `._:-`, anything else becomes `_`. Query text never goes into a chart.
 */
export function chartLabel(text: string, max = 24): string {
  const safe = text.replace(/[^A-Za-z0-9._:-]/g, '_');
  return safe.length > max ? `${safe.slice(0, max - 1)}_` : safe;
}
