import { shownAs } from '../../escape.js';

/**
 * Markup built so that user text cannot become markup. Every page is written with the `html`
 * template tag: what the template's literal parts hold is the renderer's own markup; every value
 * put into it is escaped as text, unless it is itself `Markup` made by `html`. So a query, a note or
 * a skill name reaches the page only as text, and a renderer cannot forget to escape one.
 *
 * The rule for the templates: a value goes into element content or into a double-quoted attribute
 * value, never into a tag or attribute name, an unquoted attribute, a URL, a `style` or a `<style>`
 * or `<script>` element. (The page has no URL attribute and no script at all; its CSS is a constant.)
 */

const BRAND: unique symbol = Symbol('markup');

/** A piece of markup; interpolated into `html`, it is kept as it is. */
export interface Markup {
  readonly [BRAND]: true;
  readonly text: string;
}

/** What `html` accepts: text to escape, markup to keep, nothing, or a list of these. */
export type Slot = Markup | string | number | boolean | null | undefined | readonly Slot[];

function markup(text: string): Markup {
  return { [BRAND]: true, text };
}

function isMarkup(value: unknown): value is Markup {
  return typeof value === 'object' && value !== null && BRAND in value;
}

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * User text as HTML text, safe in element content and in a quoted attribute value. Line breaks,
 * tabs and hidden characters (zero-width, bidi overrides, controls, lone surrogates) are shown the
 * way the Markdown report shows them (`↵`, a space, `⟨U+XXXX⟩`), so a reader sees what the model
 * got and a right-to-left override cannot reorder the page.
 */
export function escapeText(text: string): string {
  const chars = Array.from(text);
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i] as string;
    if (char === '\r' && chars[i + 1] === '\n') continue; // CRLF: the \n that follows writes the one ↵
    out += shownAs(char) ?? ENTITIES[char] ?? char;
  }
  return out;
}

function slotText(slot: Slot): string {
  if (slot === null || slot === undefined || slot === false || slot === true) return '';
  if (typeof slot === 'number') return Number.isFinite(slot) ? String(slot) : '';
  if (typeof slot === 'string') return escapeText(slot);
  if (isMarkup(slot)) return slot.text;
  return (slot as readonly Slot[]).map(slotText).join('');
}

/** The template tag every page part is written with (see the module comment). */
export function html(strings: TemplateStringsArray, ...slots: readonly Slot[]): Markup {
  let out = strings[0] ?? '';
  slots.forEach((slot, i) => {
    out += slotText(slot) + (strings[i + 1] ?? '');
  });
  return markup(out);
}

/**
 * The renderer's own constant markup that cannot be written with `html` (the style sheet). Never
 * for anything that came from a report.
 */
export function constantMarkup(text: string): Markup {
  return markup(text);
}
