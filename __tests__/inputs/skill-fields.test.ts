import { describe, expect, it } from 'vitest';
import { InputErrors } from '../../src/errors.js';
import { Problems } from '../../src/inputs/problems.js';
import {
  authoredText,
  checkDescriptionText,
  DESCRIPTION_MAX_CHARS,
  LISTING_MAX_CHARS,
  NAME_MAX_CHARS,
  nameProblem,
  specLengthWarning,
  suggestName,
  validateDescription,
} from '../../src/inputs/skill-fields.js';

const AT = { file: 'skills/notes/SKILL.md', line: 3 };

/** The defects of a description, as `problem | fix`. */
function defects(text: string): string[] {
  const problems = new Problems();
  checkDescriptionText(text, AT, problems);
  return problems.errors.map((e) => `${e.problem} | ${e.fix ?? ''}`);
}

it('the limits: 1,024 by the spec, 1,536 listed by Claude Code, 64 for a name', () => {
  expect([DESCRIPTION_MAX_CHARS, LISTING_MAX_CHARS, NAME_MAX_CHARS]).toEqual([1024, 1536, 64]);
});

describe('checkDescriptionText', () => {
  it('a plain description has no defect', () => {
    expect(defects('Writes release notes from merged PRs. Use when asked for a changelog.')).toEqual([]);
  });

  it('an empty or blank description is one defect', () => {
    for (const text of ['', ' \n\t ']) {
      expect(defects(text)).toEqual(['description is empty | write what the skill does and when to use it']);
    }
  });

  it('invisible characters only are reported as empty to the model, and nothing else is checked', () => {
    expect(defects('\u200B\u200D')).toEqual([
      'description holds only invisible characters (U+200B, U+200D), so the model reads an empty description | write what the skill does and when to use it',
    ]);
  });

  it('a control character is named by its code point; tab, newline and CR are allowed', () => {
    expect(defects('Writes notes.\u001B[0m')).toEqual([
      'description contains the control character U+001B | remove it (Claude Code drops or garbles it in the listing, and it garbles terminals and reports)',
    ]);
    expect(defects('Writes notes.\r\n\tUse for changelogs.')).toEqual([]);
  });

  it('angle brackets are named with where the first one is and the text around it', () => {
    expect(defects('Use for <path> files')).toEqual([
      'description contains "<" and ">" (first at character 9: "Use for <path> files"), which the skills spec forbids | remove the angle brackets: write "a file path" rather than "<path>", and "more than" rather than ">"',
    ]);
  });

  it('the text around a bracket far into a long description is cut on both sides with …', () => {
    const text = `${'a'.repeat(40)} over > 10 MB ${'b'.repeat(40)}`;
    const [defect] = defects(text);
    expect(defect).toContain(
      'description contains ">" (first at character 47: "…aaaaaaaaa over > 10 MB bbbbbbbb…")',
    );
  });

  it('the quoted text is escaped, so a newline in it does not break the message', () => {
    const [defect] = defects('Line one\n<b>bold</b>');
    expect(defect).toContain('(first at character 10: "Line one\\n<b>bold</b>")');
  });

  it('the position of the first bracket counts characters (code points), as the length limit does', () => {
    // Two emoji before the bracket: characters 1 and 2, a space at 3, the bracket at 4.
    const [defect] = defects('😀😀 <b>');
    expect(defect).toContain('(first at character 4: "😀😀 <b>")');
  });

  it('the text around a bracket is cut between characters, never inside a surrogate pair', () => {
    const text = `${'😀'.repeat(20)} > ${'😀'.repeat(20)}`;
    const [defect] = defects(text);
    expect(defect).toContain(`(first at character 22: "…${'😀'.repeat(14)} > ${'😀'.repeat(14)}…")`);
  });

  it('a control character and a bracket are both reported, in that order', () => {
    expect(defects('a\u0007 <b>').map((d) => d.split(' | ')[0])).toEqual([
      'description contains the control character U+0007',
      'description contains "<" and ">" (first at character 4: "a\\u0007 <b>"), which the skills spec forbids',
    ]);
  });
});

describe('validateDescription', () => {
  it('returns the text trimmed, and throws every defect at once naming the source', () => {
    expect(validateDescription('\n  Writes notes.  ', { file: '--description' })).toBe('Writes notes.');
    let thrown: unknown;
    try {
      validateDescription('ring\u0007 <bell>', { file: '--description' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InputErrors);
    expect((thrown as InputErrors).errors.map((e) => e.location)).toEqual([
      { file: '--description' },
      { file: '--description' },
    ]);
  });
});

describe('specLengthWarning', () => {
  it('counts code points of the trimmed text, and is silent up to 1,024', () => {
    expect(specLengthWarning(`  ${'a'.repeat(1024)}  `)).toBeUndefined();
    expect(specLengthWarning('😀'.repeat(1024))).toBeUndefined();
  });

  it('says by how much to shorten, singular and plural', () => {
    expect(specLengthWarning('a'.repeat(1025))).toBe(
      'description is 1025 characters, over the 1024 the Agent Skills spec allows: Claude Code lists up to 1536 and is measured as it lists it, but other agents and validators may refuse the skill; shorten it by at least 1 character to be safe',
    );
    expect(specLengthWarning('😀'.repeat(1100))).toMatch(
      /is 1100 characters, .*shorten it by at least 76 characters to be safe$/,
    );
  });
});

describe('authoredText', () => {
  it('joins when_to_use after " - " as Claude Code does, and only when there is one', () => {
    expect(authoredText('Writes notes.', 'asked for a changelog')).toBe(
      'Writes notes. - asked for a changelog',
    );
    expect(authoredText('Writes notes.')).toBe('Writes notes.');
    expect(authoredText('Writes notes.', '')).toBe('Writes notes.');
  });
});

describe('nameProblem', () => {
  it('a lowercase name of letters, digits and single inner hyphens is fine, up to 64 characters', () => {
    for (const name of ['notes', 'release-notes-2', 'a', '9lives', 'a'.repeat(64)]) {
      expect(nameProblem(name), name).toBeUndefined();
    }
  });

  it('says what is wrong', () => {
    expect(nameProblem('')).toBe('is empty');
    expect(nameProblem('a'.repeat(65))).toBe('is 65 characters, over 64');
    expect(nameProblem('Release')).toBe(
      'contains "R"; only lowercase letters, digits and hyphens are allowed',
    );
    expect(nameProblem('release_notes')).toBe(
      'contains "_"; only lowercase letters, digits and hyphens are allowed',
    );
    expect(nameProblem('-notes')).toBe('starts or ends with a hyphen');
    expect(nameProblem('notes-')).toBe('starts or ends with a hyphen');
    expect(nameProblem('release--notes')).toBe('contains two hyphens in a row');
  });

  it('quotes the bad character escaped', () => {
    expect(nameProblem('a\nb')).toBe(
      'contains "\\n"; only lowercase letters, digits and hyphens are allowed',
    );
    expect(nameProblem('a"b')).toBe('contains "\\""; only lowercase letters, digits and hyphens are allowed');
  });

  it('the length is checked before the characters', () => {
    expect(nameProblem('A'.repeat(70))).toBe('is 70 characters, over 64');
  });
});

describe('suggestName', () => {
  it('lowercases and turns every run of other characters into one hyphen, none at the ends', () => {
    expect(suggestName('Release Notes!')).toBe('release-notes');
    expect(suggestName('  __PDF  to  Word__ ')).toBe('pdf-to-word');
    expect(suggestName('café crème')).toBe('caf-cr-me');
  });

  it('cuts to 64 characters without leaving a hyphen at the end', () => {
    const long = `${'a'.repeat(63)} b`;
    expect(suggestName(long)).toBe('a'.repeat(63));
    expect(suggestName('x'.repeat(100))).toHaveLength(64);
  });

  it('a text with no letter or digit suggests nothing', () => {
    expect(suggestName('!!! ---')).toBe('');
  });

  it('what it suggests passes nameProblem whenever it is not empty', () => {
    for (const text of ['Release Notes!', 'a--b', `${'word '.repeat(20)}`, 'ÆØÅ abc']) {
      const name = suggestName(text);
      expect(nameProblem(name), text).toBeUndefined();
    }
  });
});
