import { describe, expect, it } from 'vitest';
import { stubFileText, yamlString } from '../../src/agents/process/stub-project.js';
import {
  composeListing,
  emulateListing,
  isCutListing,
  LISTING_CAP,
  listingFindings,
  stubFieldsFor,
} from '../../src/inputs/listing.js';
import { parseSkill } from '../../src/inputs/skill.js';

/**
 * The pure half of listing parity: the emulation of Claude Code's reading, the stub's fields and
 * scalar, and the warnings. What the CLI really lists is tested through the binary in
 * __tests__/adapters/listing-parity*.e2e.test.ts.
 */
describe('emulateListing', () => {
  it('closes the frontmatter at a --- inside a value, as Claude Code 2.1.328 does', () => {
    const text =
      '---\nname: pdf\ndescription: Use this skill for any PDF task --- merging, OCR.\n---\n\nBody.\n';
    expect(emulateListing(text)).toEqual({
      listed: 'Use this skill for any PDF task',
      cutAtDashes: { offset: text.indexOf(' --- ') + 1 },
      fellBackToBody: false,
    });
  });

  it('falls back to the first body line when the YAML cannot be read, even after the repair', () => {
    expect(emulateListing('---\ndescription: "Use this --- that"\n---\n\nBody.\n')).toMatchObject({
      listed: 'that"',
      fellBackToBody: true,
    });
  });

  it('joins when_to_use untrimmed and caps at 1536 UTF-16 units with …', () => {
    expect(emulateListing('---\ndescription: Do X\nwhen_to_use: >\n  Use when Y\n---\n').listed).toBe(
      'Do X - Use when Y ',
    );
    const listed = composeListing('a'.repeat(2000));
    expect(listed).toHaveLength(LISTING_CAP);
    expect(isCutListing(listed)).toBe(true);
    expect(composeListing('a'.repeat(LISTING_CAP))).toHaveLength(LISTING_CAP);
    expect(isCutListing(composeListing('a'.repeat(LISTING_CAP)))).toBe(false);
  });
});

describe('the stub', () => {
  it('writes no run of three hyphens anywhere between its delimiters, whatever the text', () => {
    for (const text of ['a --- b', '-----', 'x ---- y --- z', '--']) {
      const file = stubFileText('skill', 'x', text);
      const frontmatter = file.slice(4, file.indexOf('\n---\n'));
      expect(frontmatter).not.toContain('---');
      expect(JSON.parse(yamlString(text).replaceAll('\\u002d', '-'))).toBe(text);
    }
  });

  it('escapes the characters YAML may read as a line break or a BOM', () => {
    expect(yamlString('a\u2028b\u2029c\u0085d\ufeffe')).toBe('"a\\u2028b\\u2029c\\u0085d\\ufeffe"');
  });

  it('puts a listed text ending in white space into when_to_use, which Claude Code does not trim', () => {
    expect(stubFieldsFor('Do X - Use when Y or Z ')).toEqual({
      description: 'Do X',
      whenToUse: 'Use when Y or Z ',
    });
    expect(stubFieldsFor('Do X - Use when Y')).toEqual({ description: 'Do X - Use when Y' });
  });
});

describe('listingFindings', () => {
  it('quotes both lengths and where a --- cut the text', () => {
    const [w] = listingFindings(
      'Use this skill for any PDF task --- merging, splitting, forms, OCR.',
      'Use this skill for any PDF task',
    );
    expect(w).toContain('Claude Code lists only the first 31 of the 67 characters');
    expect(w).toContain('at the "---" at character 32');
  });

  it('says how much the 1536 cap loses', () => {
    const authored = `${'a'.repeat(1000)} - ${'b'.repeat(545)}`;
    const [w] = listingFindings(authored, composeListing(authored));
    expect(w).toContain('listing entry of 1548 characters');
    expect(w).toContain('never reads the last 13');
  });

  it('says nothing when only line breaks became spaces, and names any other difference', () => {
    expect(listingFindings('Line one\nline two', 'Line one line two')).toEqual([]);
    const [w] = listingFindings('Merge PDFs', 'Body first line.');
    expect(w).toContain('listed text differs from the frontmatter (16 vs 10 characters');
  });

  it('parseSkill records the emulated listing and its findings apart from other warnings', () => {
    const skill = parseSkill('---\nname: pdf\ndescription: Merge PDFs --- fast\n---\n', {
      dir: '/s/pdf',
      file: '/s/pdf/SKILL.md',
    });
    expect(skill.description).toBe('Merge PDFs --- fast');
    expect(skill.emulatedListing).toBe('Merge PDFs');
    expect(skill.listingWarnings).toHaveLength(1);
    expect(skill.warnings).toEqual(skill.listingWarnings);
  });
});

describe('a dropped comment', () => {
  it('warns that the text after " #" is not listed', () => {
    const skill = parseSkill('---\nname: pdf\ndescription: Merge PDFs # and forms\n---\n', {
      dir: '/s/pdf',
      file: '/s/pdf/SKILL.md',
    });
    expect(skill.emulatedListing).toBe('Merge PDFs');
    expect(skill.listingWarnings).toEqual([]);
    expect(skill.warnings).toEqual([
      'the description line holds a YAML comment ("# and forms"): the text after " #" is not part of the description, so Claude Code lists 10 characters without it; quote the description if the "#" belongs to it',
    ]);
  });
});
