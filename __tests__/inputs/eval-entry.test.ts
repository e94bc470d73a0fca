import { describe, expect, it } from 'vitest';
import {
  candidateOf,
  entryLabel,
  invisibleOnly,
  isControlCharacter,
  MAX_QUERY_BYTES,
  parseBooleanWord,
  readQuery,
  readTypedShouldTrigger,
} from '../../src/inputs/eval-entry.js';
import { Problems } from '../../src/inputs/problems.js';

const AT = { file: 'evals.json', line: 4, entry: 'entry #3, id "x"' };

/** What a reader returns for a value, and the defects it added as `problem | fix`. */
function check<T>(readField: (problems: Problems) => T) {
  const problems = new Problems();
  const value = readField(problems);
  return { value, problems: problems.errors.map((e) => `${e.problem} | ${e.fix ?? ''}`) };
}
const query = (value: unknown, hint?: string) => check((p) => readQuery(value, 'query', AT, p, hint));

describe('entryLabel and candidateOf', () => {
  it('labels by position, and by id quoted as JSON', () => {
    expect(entryLabel(4)).toBe('entry #4');
    expect(entryLabel(4, 'abc')).toBe('entry #4, id "abc"');
    expect(entryLabel(2, 'a "b"\nc')).toBe('entry #2, id "a \\"b\\"\\nc"');
  });

  it('a candidate leaves out the fields its reader could not read', () => {
    const candidate = candidateOf(2, AT, { id: undefined, query: 'q', shouldTrigger: undefined }, { n: 1 });
    expect(candidate).toEqual({ position: 2, location: AT, query: 'q', extra: { n: 1 } });
    expect(Object.keys(candidate)).toEqual(['position', 'location', 'query', 'extra']);
    expect(candidateOf(1, AT, { id: 'a', query: undefined, shouldTrigger: false }, {})).toEqual({
      position: 1,
      location: AT,
      id: 'a',
      shouldTrigger: false,
      extra: {},
    });
  });
});

describe('readQuery', () => {
  it('trims the prompt and keeps tabs, newlines and carriage returns inside it', () => {
    expect(query('  ship the notes\tnow\r\nplease \n')).toEqual({
      value: 'ship the notes\tnow\r\nplease',
      problems: [],
    });
  });

  it('a missing field names the field, or uses the reader’s hint', () => {
    expect(query(undefined)).toEqual({
      value: undefined,
      problems: ['query is missing | add "query" with the prompt a user would type, as text'],
    });
    expect(query(undefined, 'rename "prompt" to "query"').problems).toEqual([
      'query is missing | rename "prompt" to "query"',
    ]);
  });

  it('a value that is not text says what it got', () => {
    expect(query(42).problems).toEqual([
      'query must be text, got number 42 | write the prompt as a quoted string',
    ]);
    expect(query(null).problems[0]).toContain('got null');
    expect(query(['a']).problems[0]).toContain('got a list');
  });

  it('an empty or blank prompt is refused', () => {
    for (const blank of ['', '   ', '\n\t']) {
      expect(query(blank).problems).toEqual([
        'query is empty | write the prompt a user would type, or delete the entry',
      ]);
    }
  });

  it('a prompt of invisible characters only is refused, naming them', () => {
    expect(query(' \u200B\u2060\u200B ').problems).toEqual([
      'query holds only invisible characters (U+200B, U+2060), so it is empty to a reader | write the prompt a user would type, or delete the entry',
    ]);
  });

  it('a control character is refused with its code point', () => {
    expect(query('ring \u0007 the bell').problems).toEqual([
      'query contains the control character U+0007 | remove it (a prompt is passed to claude as a command-line argument)',
    ]);
    expect(query('nul\u0000').problems[0]).toContain('U+0000');
    expect(query('del\u007F').problems[0]).toContain('U+007F');
    expect(query('esc \u001B[31m').problems[0]).toContain('U+001B');
  });

  it('a lone surrogate is refused; a whole pair is a character', () => {
    expect(query('smile \uD83D').problems).toEqual([
      'query contains U+D83D, half of a UTF-16 surrogate pair (an escape such as "\\ud83d" without its partner), which is not a character | write the character itself, or both halves of the pair',
    ]);
    expect(query('smile \uD83D\uDE00')).toEqual({ value: 'smile \uD83D\uDE00', problems: [] });
  });

  it('takes a prompt of exactly the longest argument, refuses one byte more, counting UTF-8 bytes', () => {
    expect(query('a'.repeat(MAX_QUERY_BYTES)).value).toHaveLength(MAX_QUERY_BYTES);
    expect(query('a'.repeat(MAX_QUERY_BYTES + 1)).problems).toEqual([
      'query is 128 KiB (131072 bytes); claude takes the prompt as one command-line argument, and the system refuses one over 128 KiB (E2BIG), so no run could start | shorten it below 131072 bytes; a trigger query is what a user would type',
    ]);
    // 65,536 two-byte characters: fewer characters than the limit, more bytes.
    expect(query('é'.repeat(65_536)).problems[0]).toMatch(/^query is 128 KiB \(131072 bytes\)/);
    // Sizes between whole KiB show one decimal.
    expect(query('a'.repeat(140_000)).problems[0]).toMatch(/^query is 136\.7 KiB \(140000 bytes\)/);
  });

  it('the byte limit applies after trimming', () => {
    expect(query(`  ${'a'.repeat(MAX_QUERY_BYTES)}  `).problems).toEqual([]);
  });
});

describe('invisibleOnly', () => {
  it('is undefined for an empty text or one that shows anything', () => {
    expect(invisibleOnly('')).toBeUndefined();
    expect(invisibleOnly('a\u200B')).toBeUndefined();
    expect(invisibleOnly('\u200B.')).toBeUndefined();
  });

  it('names the distinct invisible characters in order, four at most', () => {
    expect(invisibleOnly('\uFEFF\uFEFF\u00AD')).toBe('U+FEFF, U+00AD');
    expect(invisibleOnly('\u3164\u2800\u115F\u1160\uFFA0')).toBe('U+3164, U+2800, U+115F, U+1160');
  });

  it('white space alone counts as invisible (readQuery trims it first)', () => {
    expect(invisibleOnly(' \u00A0')).toBe('U+0020, U+00A0');
  });
});

describe('isControlCharacter', () => {
  it('C0 controls and DEL, but not tab, newline or carriage return', () => {
    for (const c of ['\u0000', '\u0001', '\u001B', '\u001F', '\u007F'])
      expect(isControlCharacter(c), c).toBe(true);
    for (const c of ['\t', '\n', '\r', ' ', 'a', '\u0080', 'é']) expect(isControlCharacter(c), c).toBe(false);
  });
});

describe('parseBooleanWord', () => {
  it('reads true/yes/1 and false/no/0, in any case, around spaces', () => {
    for (const word of ['true', 'TRUE', ' Yes ', '1']) expect(parseBooleanWord(word), word).toBe(true);
    for (const word of ['false', 'False', 'no', ' 0\t']) expect(parseBooleanWord(word), word).toBe(false);
  });

  it('anything else is undefined', () => {
    for (const word of ['', 'y', 'n', 'on', 'off', '2', 'truthy', 'yes please']) {
      expect(parseBooleanWord(word), word).toBeUndefined();
    }
  });
});

describe('readTypedShouldTrigger', () => {
  const should = (value: unknown) => check((p) => readTypedShouldTrigger(value, AT, p));

  it('a boolean is the verdict', () => {
    expect(should(true)).toEqual({ value: true, problems: [] });
    expect(should(false)).toEqual({ value: false, problems: [] });
  });

  it('a quoted yes/no word is refused, not coerced, and the fix names the boolean it meant', () => {
    expect(should('false')).toEqual({
      value: undefined,
      problems: ['should_trigger is the string "false", not a boolean | write false without quotes'],
    });
    expect(should(' Yes ').problems).toEqual([
      'should_trigger is the string " Yes ", not a boolean | write true without quotes',
    ]);
  });

  it('the quoted word is capped at 60 characters, as every quoted value in a message is', () => {
    const padded = `true${' '.repeat(10_000)}`;
    expect(should(padded).problems).toEqual([
      `should_trigger is the string "true${' '.repeat(55)}…", not a boolean | write true without quotes`,
    ]);
  });

  it('missing, or any other value, says what to write', () => {
    expect(should(undefined).problems).toEqual([
      'should_trigger is missing | add "should_trigger": true for a prompt that should load the skill, false for one that should not',
    ]);
    expect(should(1).problems).toEqual([
      'should_trigger must be true or false, got number 1 | write true or false, without quotes',
    ]);
    expect(should('maybe').problems[0]).toContain('got the string "maybe"');
    expect(should(null).problems[0]).toContain('got null');
  });
});
