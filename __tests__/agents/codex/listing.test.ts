import { describe, expect, it } from 'vitest';
import { codexListingOf } from '../../../src/agents/codex/listing.js';

/**
 * The emulation of Codex's reading of a SKILL.md, on the cases the real binary settled
 * (codex-listing-parity.e2e.test.ts checks the same corpus through codex itself).
 */
const md = (frontmatter: string, eol = '\n') =>
  `---${eol}${frontmatter.split('\n').join(eol)}${eol}---${eol}${eol}Body first line.${eol}`;

describe("Codex's reading of a SKILL.md", () => {
  it.each([
    ['plain', md('name: a\ndescription: Plain text'), 'a', 'Plain text'],
    ['no name: the folder', md('description: No name'), 'folder', 'No name'],
    ['an inline --- stays text', md('name: a\ndescription: Use this --- that'), 'a', 'Use this --- that'],
    ['a folded block', md('name: a\ndescription: >\n  one\n  two\n\n  three'), 'a', 'one two three'],
    ['CRLF', md('name: a\ndescription: crlf text', '\r\n'), 'a', 'crlf text'],
    ['a comment is dropped', md('name: a\ndescription: Merge PDFs # note'), 'a', 'Merge PDFs'],
    ['a number is text', md('name: a\ndescription: 12345'), 'a', '12345'],
    ['an alias', md('x: &r Reusable\nname: a\ndescription: *r'), 'a', 'Reusable'],
    ['an unquoted ": " is text', md('name: a\ndescription: Summarise: write it'), 'a', 'Summarise: write it'],
  ])('%s', (_label, text, name, description) => {
    expect(codexListingOf(text, 'folder')).toEqual({ kind: 'listed', name, description });
  });

  it.each([
    ['a BOM before the first ---', `\uFEFF${md('name: a\ndescription: bom')}`],
    ['no description', md('name: a')],
    ['an empty description', md('name: a\ndescription: ""')],
    ['broken YAML', md('name: a\ndescription: "unclosed')],
    ['a tab-indented key', md('name: a\n\tdescription: tabbed')],
    ['a name past 64 characters', md(`name: ${'n'.repeat(65)}\ndescription: d`)],
    ['no closing ---', '---\nname: a\ndescription: d\n'],
  ])('%s: not listed', (_label, text) => {
    expect(codexListingOf(text, 'folder').kind).toBe('unlisted');
  });

  it('cuts past 1,024 characters to 1,021 and "..."', () => {
    const listed = codexListingOf(md(`name: a\ndescription: ${'abcdefghi '.repeat(200)}`), 'a');
    expect(listed.kind === 'listed' && Array.from(listed.description).length).toBe(1024);
    expect(listed.kind === 'listed' && listed.description.endsWith('a...')).toBe(true);
  });
});
