import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeInline, truncate } from '../src/escape.js';

/**
 * The rule these tests hold escapeInline to: whatever the user wrote, the output, read by GitHub's
 * Markdown (GFM) and its post-render filters, is one inline run of plain text inside one table cell.
 */

const ZWSP_ENTITY = '&#8203;';

/** Characters that must never appear raw: they are invisible or reorder text. */
const INVISIBLE =
  /\u034F|[\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\u3164\uFEFF\uFFA0\u{E0000}-\u{E007F}]/u;
const CONTROL = /[\p{Cc}\u2028\u2029]/u;
/** Everything the escape shows as a code point or a ↵ rather than as itself (variation selectors excepted). */
const SHOWN_AS_CODE =
  /(?![\uFE00-\uFE0F\u{E0100}-\u{E01EF}])[\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Splits escaped output into what Markdown reads as one unit: a backslash pair, an entity, a code-point marker. */
function units(escaped: string): string[] {
  return escaped.match(/\\[\s\S]|&[#0-9a-zA-Z]+;|⟨U\+[0-9A-F]{4,6}⟩|[\s\S]/gu) ?? [];
}

/** Every way the output could be read as something other than plain text in a table cell. */
function dangers(out: string): string[] {
  const found: string[] = [];
  if (/[<>]/.test(out)) found.push('raw < or >');
  if (out.includes('<!--') || out.includes('-->')) found.push('comment marker');
  if (CONTROL.test(out)) found.push('control or line break');
  if (INVISIBLE.test(out)) found.push('invisible or bidi character');
  if (LONE_SURROGATE.test(out)) found.push('lone surrogate');
  const parts = units(out);
  for (const [i, u] of parts.entries()) {
    if (u.length === 1 && '\\`*_[]()!~|$'.includes(u)) found.push(`unescaped ${u}`);
    if (u.startsWith('&') && !['&amp;', '&lt;', '&gt;', ZWSP_ENTITY].includes(u)) found.push(`entity ${u}`);
    if (u === '&') found.push('bare &');
    if ((u === '@' || u === '#') && parts[i + 1] !== ZWSP_ENTITY) found.push(`${u} not broken`);
  }
  if (/gh-(?!&#8203;)/i.test(out)) found.push('GH- reference');
  return found;
}

/** What a reader sees, for checking the escape keeps the text's meaning. */
function rendered(escaped: string): string {
  return units(escaped)
    .map((u) => {
      if (u.startsWith('\\')) return u.slice(1);
      if (u === ZWSP_ENTITY) return '';
      if (u === '&amp;') return '&';
      if (u === '&lt;') return '<';
      if (u === '&gt;') return '>';
      return u;
    })
    .join('');
}

const HOSTILE: Record<string, string> = {
  'markdown emphasis and links': '**bold** _it_ [click](https://evil.example) ![img](x.png) ~~gone~~',
  'raw HTML': '<img src=x onerror=alert(1)><script>alert(1)</script><details open>',
  'HTML comment': 'before <!-- x --> after',
  'fake sticky marker': '<!-- skilltrigger-comment -->',
  'comment closer alone': 'ends here -->',
  mentions: '@octocat and @github/security please look, cc:@a',
  'issue references': '#123 fixes owner/repo#45 and GH-7',
  'zero-width characters': 'a\u200Bb\u200Cc\u200Dd\u2060e\uFEFFf',
  'RTL override': 'pay \u202Egnp.exe\u202C and \u2066isolated\u2069',
  backticks: '`code` and ```fence``` ``double``',
  pipes: 'a | b || c \\| d',
  'CRLF and friends': 'line1\r\nline2\rline3\nline4\u2028line5\u2029line6\u0085line7',
  'entities typed by the user': '&lt;b&gt; &#64;octocat &#35;1 &amp;',
  backslashes: 'C:\\Users\\alice\\ end\\',
  math: '$x^2$ and $$y$$',
  'control characters': 'nul\u0000 bell\u0007 esc\u001B[31m del\u007F c1\u0090',
  'lone surrogates': 'broken \uD800 and \uDC00',
  'tag characters (ASCII smuggling)': 'hi\u{E0041}\u{E0042}',
  'table row injection': 'x |\n|---|\n| injected |',
};

describe('escapeInline', () => {
  for (const [name, text] of Object.entries(HOSTILE)) {
    it(`neutralises ${name}`, () => {
      const out = escapeInline(text);
      expect(dangers(out)).toEqual([]);
    });
  }

  it('escapes HTML as entities, so no tag or comment can open or close', () => {
    expect(escapeInline('<b>&</b>')).toBe('&lt;b&gt;&amp;&lt;/b&gt;');
    expect(escapeInline('<!-- x -->')).toBe('&lt;\\!-- x --&gt;');
  });

  it('breaks mentions and issue references with a zero-width space (entities alone do not stop GitHub)', () => {
    expect(escapeInline('@octocat')).toBe(`@${ZWSP_ENTITY}octocat`);
    expect(escapeInline('#123')).toBe(`#${ZWSP_ENTITY}123`);
    expect(escapeInline('GH-7 gh-8')).toBe(`GH-${ZWSP_ENTITY}7 gh-${ZWSP_ENTITY}8`);
    // Pieces put side by side cannot form `GH-` either: a leading hyphen is broken too.
    expect(escapeInline('-1')).toBe(`-${ZWSP_ENTITY}1`);
    // A plain hyphen elsewhere is left alone.
    expect(escapeInline('near-miss 2024-01-02')).toBe('near-miss 2024-01-02');
  });

  it('backslash-escapes Markdown punctuation, including the table pipe', () => {
    expect(escapeInline('a|b')).toBe('a\\|b');
    expect(escapeInline('`*_[]()!~$\\')).toBe('\\`\\*\\_\\[\\]\\(\\)\\!\\~\\$\\\\');
  });

  it('turns every line break into one visible ↵ and a tab into a space', () => {
    expect(escapeInline('a\r\nb\rc\nd\u2028e\u2029f\u0085g')).toBe('a↵b↵c↵d↵e↵f↵g');
    expect(escapeInline('a\tb')).toBe('a b');
  });

  it('makes invisible, bidi and control characters visible as code points', () => {
    expect(escapeInline('a\u200Bb')).toBe('a⟨U+200B⟩b');
    expect(escapeInline('\u202Eevil')).toBe('⟨U+202E⟩evil');
    expect(escapeInline('\u0000')).toBe('⟨U+0000⟩');
    expect(escapeInline('\uD800')).toBe('⟨U+D800⟩');
    expect(escapeInline('\u{E0041}')).toBe('⟨U+E0041⟩');
  });

  it('leaves ordinary text, emoji with variation selectors and non-Latin scripts as they are', () => {
    const plain = 'Extract the tables from report.pdf, please. Ünïcödé 日本語 עברית ❤️ 1.5 - ok';
    expect(escapeInline(plain)).toBe(plain);
  });

  it('keeps what the reader sees equal to what the user wrote (printable text)', () => {
    const printable = fc.string({ unit: 'binary' }).map((s) =>
      Array.from(s)
        .filter((c) => !SHOWN_AS_CODE.test(c))
        .join(''),
    );
    fc.assert(fc.property(printable, (s) => rendered(escapeInline(s)) === s));
  });

  it('is safe for any input, and for any two outputs put side by side', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        expect(dangers(escapeInline(a))).toEqual([]);
        expect(dangers(escapeInline(a) + escapeInline(b))).toEqual([]);
      }),
    );
  });

  it('is safe on a corpus of characters that matter', () => {
    const alphabet = fc.constantFrom(...'<>!-&#@|`*_[]()~$\\\r\n\u200B\u202EGgHh1a; '.split(''));
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), (chars) => {
        expect(dangers(escapeInline(chars.join('')))).toEqual([]);
      }),
    );
  });
});

describe('truncate', () => {
  it('returns text that fits unchanged', () => {
    expect(truncate('short', 5)).toBe('short');
  });

  it('cuts to at most max characters, ellipsis included', () => {
    expect(truncate('abcdefgh', 5)).toBe('abcd…');
    expect(truncate('abcdefgh', 5)).toHaveLength(5);
  });

  it('never cuts inside a backslash pair, an entity, a code-point marker or a surrogate pair', () => {
    const escaped = escapeInline('ab|<@x😀\u202E');
    for (let max = 0; max <= escaped.length + 1; max++) {
      const cut = truncate(escaped, max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(dangers(cut)).toEqual([]);
      if (cut.length > 0 && cut !== escaped) {
        expect(cut.endsWith('…')).toBe(true);
        expect(escaped.startsWith(cut.slice(0, -1))).toBe(true);
      }
    }
    expect(truncate(escapeInline('a<b'), 5)).toBe('a…');
    expect(truncate(escapeInline('a|bc'), 4)).toBe('a\\|…');
    expect(truncate(escapeInline('@user'), 4)).toBe('…');
  });

  it('keeps escaped output safe for any input and any cap', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.nat(60), (s, max) => {
        const cut = truncate(escapeInline(s), max);
        expect(cut.length).toBeLessThanOrEqual(max);
        expect(dangers(cut)).toEqual([]);
      }),
    );
  });

  it('rejects a negative or fractional cap', () => {
    expect(() => truncate('x', -1)).toThrow(RangeError);
    expect(() => truncate('x', 1.5)).toThrow(RangeError);
  });
});
