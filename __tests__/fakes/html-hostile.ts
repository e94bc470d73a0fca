import { type parsePage, walk } from './html-dom.js';

/**
 * The hostile-text corpus of the HTML pages (every page type's test uses it): the payloads the
 * Markdown renderings are held to (escape.test.ts and action/hostile.test.ts), put at the start of every user-made slot of every page and once more
 * inside. The DOM must come out with exactly the elements and attributes of the same page filled
 * with plain text, no attribute may carry user text, and the text must read as the user wrote it.
 */
export const PAYLOADS: readonly string[] = [
  '**bold** _it_ [click](https://evil.example) ![img](x.png) ~~gone~~',
  '<img src=x onerror=alert(1)><script>alert(1)</script><details open>',
  'before <!-- x --> after',
  '<!-- skilltrigger-comment -->',
  'ends here -->',
  '@octocat and @github/security please look, cc:@a',
  '#123 fixes owner/repo#45 and GH-7',
  'a\u200Bb\u200Cc\u200Dd\u2060e\uFEFFf',
  'pay \u202Egnp.exe\u202C and \u2066isolated\u2069',
  '`code` and ```fence``` ``double``',
  'a | b || c \\| d',
  'line1\r\nline2\rline3\nline4\u2028line5\u2029line6\u0085line7',
  '&lt;b&gt; &#64;octocat &#35;1 &amp;',
  'C:\\Users\\alice\\ end\\',
  '$x^2$ and $$y$$',
  'nul\u0000 bell\u0007 esc\u001B[31m del\u007F c1\u0090',
  'broken \uD800 and \uDC00',
  'hi\u{E0041}\u{E0042}',
  'x |\n|---|\n| injected |',
  '</td></tr></table><script>alert(1)</script>',
  '<a href="https://evil.example">click</a>',
  '"><svg onload=alert(1)>',
  "' onmouseover='alert(1)",
  '</title><style>*{background:url(https://evil.example/x)}</style>',
  '<base href="https://evil.example/">',
  '<meta http-equiv="refresh" content="0;url=https://evil.example">',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<form action="https://evil.example"><input name=x></form>',
  '<![CDATA[ x ]]> <?xml version="1.0"?>',
  '<plaintext>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<svg><foreignObject><img src=x></foreignObject></svg>',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '&#x3C;script&#x3E; &lt;/td&gt;',
  '\\',
  ':+1: https://example.com/path?x=1',
];

/** The page's shape: every element with its attribute names and the values that are not user text. */
export function shape(doc: ReturnType<typeof parsePage>): string[] {
  return [...walk(doc)].map((n) =>
    'tagName' in n ? `${n.tagName}[${n.attrs.map((a) => a.name).join(',')}]` : n.nodeName,
  );
}

/**
 * Invisible or reordering characters a reader could not see in the page, and controls (the
 * page's own markup has line breaks between elements, and no other control).
 */
export const INVISIBLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /\u034F|[\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\u3164\uFEFF\uFFA0\u{E0000}-\u{E007F}]|[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u2028\u2029]/u;
/** A payload made only of printable ASCII, which must read in the page exactly as it was written. */
export const PRINTABLE = /^[\x20-\x7E]*$/;

/** Fills a user-made slot of a page: plain text, or a payload around the slot's name. */
export type Filler = (slot: string) => string;
export const plain: Filler = (slot) => `plain SLOT-${slot}`;
export const hostile =
  (payload: string): Filler =>
  (slot) =>
    `${payload} SLOT-${slot} ${payload}`;
