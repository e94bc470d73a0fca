import { describe, expect, it } from 'vitest';
import { InputErrors } from '../../src/errors.js';
import { parseFrontmatter, splitFrontmatter, valueComment } from '../../src/inputs/frontmatter.js';

const FILE = 'skills/pdf/SKILL.md';

/** The InputErrors a call throws (fails the test when it throws nothing or something else). */
function inputErrors(call: () => unknown): InputErrors {
  try {
    call();
  } catch (error) {
    if (error instanceof InputErrors) return error;
    throw error;
  }
  throw new Error('expected InputErrors, nothing was thrown');
}

describe('splitFrontmatter', () => {
  it('returns the text between the opening --- and the next --- line (a BOM, CRLF and trailing blanks allowed)', () => {
    const text = '\uFEFF---  \r\nname: pdf\r\ndescription: Fill PDF forms.\r\n---\r\n# Body\r\n---\r\n';
    expect(splitFrontmatter(text, FILE)).toBe('name: pdf\ndescription: Fill PDF forms.');
  });

  it('a file not opening with --- names the file, line 1 and the fix', () => {
    const error = inputErrors(() => splitFrontmatter('name: pdf\n---\n', FILE));
    expect(error.errors).toHaveLength(1);
    expect(error.errors[0]?.location).toEqual({ file: FILE, line: 1 });
    expect(error.message).toMatch(/^skills\/pdf\/SKILL\.md:line 1: has no YAML frontmatter/);
    expect(error.message).toContain('Fix: start the file with ---');
  });

  it('an unclosed frontmatter says so and how to close it', () => {
    const error = inputErrors(() => splitFrontmatter('---\nname: pdf\ndescription: x\n', FILE));
    expect(error.message).toContain('never closed');
    expect(error.message).toContain('Fix: add a line holding only ---');
  });
});

describe('parseFrontmatter', () => {
  const offset = (n: number) => n + 1; // frontmatter line n is file line n + 1 (after the opening ---)

  it('parses strict YAML without a warning, merge keys applied', () => {
    const warnings: string[] = [];
    const { doc } = parseFrontmatter(
      'base: &b\n  license: MIT\nname: pdf\nmeta:\n  <<: *b\n',
      FILE,
      offset,
      warnings,
    );
    expect(warnings).toEqual([]);
    expect(doc.toJS()).toMatchObject({ name: 'pdf', meta: { license: 'MIT' } });
  });

  it('repairs an unquoted ": " inside a value as Claude Code does, warning with the file lines changed', () => {
    const warnings: string[] = [];
    const { doc } = parseFrontmatter(
      'name: pdf\ndescription: Fill forms: use for PDFs\n',
      FILE,
      offset,
      warnings,
    );
    expect(doc.get('description')).toBe('Fill forms: use for PDFs');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^frontmatter line\(s\) 3 are not valid YAML/);
    expect(warnings[0]).toContain('quote the value or indent with spaces');
  });

  it('repairs tab indentation too', () => {
    const warnings: string[] = [];
    const { doc } = parseFrontmatter('name: pdf\nmetadata:\n\tversion: 2\n', FILE, offset, warnings);
    expect(doc.toJS()).toEqual({ name: 'pdf', metadata: { version: 2 } });
    expect(warnings[0]).toMatch(/^frontmatter line\(s\) 4 /);
  });

  it('YAML no repair saves is an input error on the file line of the defect, and nothing is warned', () => {
    const warnings: string[] = [];
    const error = inputErrors(() =>
      parseFrontmatter('name: pdf\ndescription: "unclosed\nlicense: MIT\n', FILE, offset, warnings),
    );
    expect(warnings).toEqual([]);
    expect(error.errors.length).toBeGreaterThan(0);
    for (const e of error.errors) {
      expect(e.location.file).toBe(FILE);
      expect(e.location.line).toBeGreaterThanOrEqual(3);
      expect(e.fix).toBeTruthy();
    }
  });

  it('does not touch a quoted or block value holding ": " (it is valid already)', () => {
    const warnings: string[] = [];
    const { doc } = parseFrontmatter(
      'name: pdf\ndescription: "Fill forms: PDFs"\nnote: >\n  a: b\n',
      FILE,
      offset,
      warnings,
    );
    expect(warnings).toEqual([]);
    expect(doc.get('description')).toBe('Fill forms: PDFs');
  });
});

describe('valueComment', () => {
  it("returns a key's same-line comment, and nothing for a key without one or a missing key", () => {
    const warnings: string[] = [];
    const { doc } = parseFrontmatter(
      'name: pdf # the folder name\ndescription: Fill PDF forms.\n',
      FILE,
      (n) => n,
      warnings,
    );
    expect(valueComment(doc, 'name')?.trim()).toBe('the folder name');
    expect(valueComment(doc, 'description')).toBeUndefined();
    expect(valueComment(doc, 'license')).toBeUndefined();
  });
});
