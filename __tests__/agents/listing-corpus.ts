import { skillMd } from './listing-support.js';

/**
 * Tricky SKILL.md frontmatters and what Claude Code 2.1.328 lists for each, observed with the listing
 * probe one file at a time. `emulated: false` marks where the emulation (src/inputs/listing.ts) is
 * known to read otherwise than Bun's YAML parser.
 */
export interface Case {
  label: string;
  text: string;
  listed: string;
  emulated?: false;
}

const long = (n: number) => 'Merges PDF files and splits them again. '.repeat(60).slice(0, n).trim();

export const CASES: Case[] = [
  {
    label: 'inline --- (the PDF skill: the frontmatter closes there)',
    text: skillMd(
      'name: pdf\ndescription: Use this skill for any PDF task --- merging, splitting, forms, OCR.',
    ),
    listed: 'Use this skill for any PDF task',
  },
  {
    label: 'inline --- inside double quotes (broken YAML: the first body line)',
    text: skillMd('description: "Use this --- that"'),
    listed: 'that"',
  },
  {
    label: '# after a space is a comment',
    text: skillMd('description: Merge PDFs # not listed'),
    listed: 'Merge PDFs',
  },
  {
    label: '# without a space is text',
    text: skillMd('description: Merge PDFs#tag'),
    listed: 'Merge PDFs#tag',
  },
  {
    label: "single quotes with ''",
    text: skillMd("description: 'It''s a PDF: merge, split'"),
    listed: "It's a PDF: merge, split",
  },
  {
    label: 'double quotes with escapes',
    text: skillMd('description: "Tab\\there \\"quoted\\" \\u00e9 \\x41 \\/ slash \\\\ back"'),
    listed: 'Tab here "quoted" é A / slash \\ back',
  },
  {
    label: 'folded block scalar with a blank line',
    text: skillMd('description: >\n  Line one\n  line two.\n\n  Para two.'),
    listed: 'Line one line two. Para two.',
  },
  {
    label: 'literal block scalar with a blank line',
    text: skillMd('description: |\n  Line one\n  line two.\n\n  Para two.'),
    listed: 'Line one line two. Para two.',
  },
  {
    label: 'plain scalar over three lines',
    text: skillMd('description: Line one\n  continues here\n  and here'),
    listed: 'Line one continues here and here',
  },
  {
    label: 'CRLF line ends with when_to_use',
    text: skillMd('description: crlf text\nwhen_to_use: Use when the file has CRLF', '\r\n'),
    listed: 'crlf text - Use when the file has CRLF',
  },
  { label: 'BOM', text: `\uFEFF${skillMd('description: bom text')}`, listed: 'bom text' },
  {
    label: 'BOM and CRLF, folded',
    text: `\uFEFF${skillMd('description: >-\n  one\n  two', '\r\n')}`,
    listed: 'one two',
  },
  { label: 'a tab inside the value', text: skillMd('description: a\tb  c'), listed: 'a b  c' },
  {
    label: 'a tab-indented key (the CLI gives up: the first body line)',
    text: skillMd('name: x\n\tdescription: tabbed'),
    listed: 'Body first line.',
  },
  {
    label: 'an unquoted ": " (the CLI repairs it)',
    text: skillMd('description: Summarise: write HANDOFF.md now'),
    listed: 'Summarise: write HANDOFF.md now',
  },
  {
    label: 'unicode',
    text: skillMd('description: Résumé naïve 日本語 — “quotes” ✓'),
    listed: 'Résumé naïve 日本語 — “quotes” ✓',
  },
  {
    label: 'emoji with ZWJ and skin tone',
    text: skillMd('description: Use for 🚀 launches 👍🏽 and 👨‍👩‍👧'),
    listed: 'Use for 🚀 launches 👍🏽 and 👨‍👩‍👧',
  },
  {
    label: 'when_to_use appended with " - "',
    text: skillMd('description: Do X\nwhen_to_use: Use when Y'),
    listed: 'Do X - Use when Y',
  },
  {
    label: 'when_to_use as a folded block keeps its final space',
    text: skillMd('description: Do X\nwhen_to_use: >\n  Use when Y\n  or Z'),
    listed: 'Do X - Use when Y or Z ',
  },
  { label: '1,000 characters', text: skillMd(`description: ${long(1000)}`), listed: long(1000) },
  {
    label: '2,000 characters (cut to 1,535 and …)',
    text: skillMd(`description: ${'abcdefghi '.repeat(200).trim()}`),
    listed: `${'abcdefghi '.repeat(200).slice(0, 1535)}…`,
  },
  {
    label: '1,000 + when_to_use 1,000 (cut)',
    text: skillMd(`description: ${'a'.repeat(1000)}\nwhen_to_use: ${'b'.repeat(1000)}`),
    listed: `${'a'.repeat(1000)} - ${'b'.repeat(532)}…`,
  },
  {
    label: 'no description: the heading of the body',
    text: '---\nname: x\n---\n\n# Heading here\n\nMore.\n',
    listed: 'Heading here',
  },
  {
    label: 'a run of dashes in the text that is not three',
    text: skillMd('description: Use -- this - that'),
    listed: 'Use -- this - that',
  },
  {
    label: 'an alias',
    text: skillMd('x: &a Reusable text\ndescription: *a'),
    listed: 'Reusable text',
  },
];
