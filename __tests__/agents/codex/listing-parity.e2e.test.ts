/**
 * Listing parity for Codex through the REAL `codex` (pinned) and the listing probe's capture
 * server: for each tricky SKILL.md, what Codex lists for the real file must be what it lists for
 * skilltrigger's stub (written from the description skilltrigger's loader reads), and what the
 * emulation (src/agents/codex/listing.ts) says, including when Codex leaves the file out. All the
 * real files go into one Codex start and all the stubs into another, to keep the runtime modest.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { codexListingOf } from '../../../src/agents/codex/listing.js';
import { type CodexListedSkill, probeCodexListing } from '../../../src/agents/codex/listing-probe.js';
import { codexStubText } from '../../../src/agents/codex/stub.js';
import { parseSkill } from '../../../src/inputs/skill.js';

const CODEX_BIN = path.resolve('node_modules/.bin/codex');

interface Case {
  label: string;
  /** The frontmatter after `name: case-<i>` (`noName` leaves the name line out). */
  fields: string;
  eol?: string;
  bom?: boolean;
  noName?: boolean;
}

const words = (n: number) => 'Merges PDF files and splits them again. '.repeat(80).slice(0, n).trim();

const CASES: Case[] = [
  { label: 'plain', fields: 'description: Extract text and tables from PDF files.' },
  { label: "single quotes with ''", fields: "description: 'It''s a PDF: merge, split'" },
  {
    label: 'double quotes with escapes',
    fields: 'description: "Tab\\there \\"quoted\\" \\u00e9 \\x41 \\/ slash \\\\ back"',
  },
  { label: 'an unquoted ": "', fields: 'description: Summarise: write HANDOFF.md now' },
  {
    label: 'an inline --- (text for Codex)',
    fields: 'description: Use this skill for any PDF task --- merging, forms.',
  },
  { label: '# after a space is a comment', fields: 'description: Merge PDFs # not listed' },
  { label: '# without a space is text', fields: 'description: Merge PDFs#tag' },
  {
    label: 'folded block with a blank line',
    fields: 'description: >\n  Line one\n  line two.\n\n  Para two.',
  },
  {
    label: 'literal block with a blank line',
    fields: 'description: |\n  Line one\n  line two.\n\n  Para two.',
  },
  { label: 'folded, strip chomping', fields: 'description: >-\n  one\n  two' },
  { label: 'literal, keep chomping', fields: 'description: |+\n  kept\n\nother: x' },
  { label: 'plain scalar over three lines', fields: 'description: Line one\n  continues here\n  and here' },
  { label: 'CRLF line ends', fields: 'description: crlf text\nother: y', eol: '\r\n' },
  { label: 'CRLF, folded', fields: 'description: >-\n  one\n  two', eol: '\r\n' },
  { label: 'a tab and double spaces inside', fields: 'description: "a\\tb  c   d"' },
  { label: 'unicode', fields: 'description: Résumé naïve 日本語 — “quotes” ✓' },
  { label: 'emoji with ZWJ and skin tone', fields: 'description: Use for 🚀 launches 👍🏽 and 👨‍👩‍👧' },
  { label: 'a no-break space and a line separator', fields: 'description: "a\\u00a0b\\u2028c"' },
  {
    label: 'a zero-width no-break space inside (not white space to Codex)',
    fields: 'description: "a \\ufeffb"',
  },
  { label: '1,000 characters', fields: `description: ${words(1000)}` },
  { label: 'exactly 1,024 characters', fields: `description: ${'x'.repeat(1024)}` },
  {
    label: '2,000 characters (cut to 1,021 and ...)',
    fields: `description: ${'abcdefghi '.repeat(200).trim()}`,
  },
  { label: '1,030 with astral emoji (cut by code points)', fields: `description: ${'😀'.repeat(1030)}` },
  { label: 'an alias', fields: 'x: &a Reusable text\ndescription: *a' },
  { label: 'no name: the folder name', fields: 'description: Listed under its folder', noName: true },
  { label: 'a BOM before the frontmatter (left out)', fields: 'description: bom text', bom: true },
  { label: 'BOM and CRLF (left out)', fields: 'description: bom crlf', bom: true, eol: '\r\n' },
  { label: 'no description (left out)', fields: 'other: x' },
  { label: 'broken YAML (left out)', fields: 'description: "unclosed' },
];

function caseText(c: Case, i: number): string {
  const eol = c.eol ?? '\n';
  const fields = c.noName ? c.fields : `name: case-${i}\n${c.fields}`;
  const text = `---${eol}${fields.split('\n').join(eol)}${eol}---${eol}${eol}Body first line.${eol}`;
  return c.bom ? `\uFEFF${text}` : text;
}

let real = new Map<string, CodexListedSkill>();
let stubs = new Map<string, CodexListedSkill>();

async function listed(skills: { folder: string; text: string }[]): Promise<Map<string, CodexListedSkill>> {
  const result = await probeCodexListing({ bin: CODEX_BIN, env: { PATH: process.env.PATH }, skills });
  if (result.kind !== 'listed') throw new Error(`the probe failed: ${result.reason}`);
  const byFolder = new Map<string, CodexListedSkill>();
  for (const skill of result.skills) {
    if (skill.file.startsWith(`${result.projectSkills}/`))
      byFolder.set(path.basename(path.dirname(skill.file)), skill);
  }
  return byFolder;
}

/** The description skilltrigger's loader reads from the real file; undefined when it refuses the file. */
function loaded(text: string): string | undefined {
  try {
    return parseSkill(text, { dir: 'x', file: 'x/SKILL.md' }).description;
  } catch {
    return undefined;
  }
}

beforeAll(async () => {
  real = await listed(CASES.map((c, i) => ({ folder: `case-${i}`, text: caseText(c, i) })));
  const stubFiles = CASES.flatMap((c, i) => {
    const description = loaded(caseText(c, i));
    return description === undefined
      ? []
      : [{ folder: `stub-${i}`, text: codexStubText(`stub-${i}`, description) }];
  });
  stubs = await listed(stubFiles);
}, 300_000);

describe('Codex listing parity: the stub is listed as Codex lists the real SKILL.md', () => {
  CASES.forEach((c, i) => {
    it(c.label, () => {
      const text = caseText(c, i);
      const seen = real.get(`case-${i}`);
      const emulated = codexListingOf(text, `case-${i}`);
      // The emulation says what Codex does with the file, listed or left out.
      expect(emulated.kind).toBe(seen === undefined ? 'unlisted' : 'listed');
      if (seen === undefined || emulated.kind !== 'listed') return;
      expect(emulated).toEqual({ kind: 'listed', name: seen.name, description: seen.description });
      // The stub, from what skilltrigger's loader reads, lists the same text.
      expect(stubs.get(`stub-${i}`)?.description).toBe(seen.description);
    });
  });

  it('the corpus covers both sides: most files listed, some left out', () => {
    expect(real.size).toBeGreaterThan(20);
    expect(real.size).toBeLessThan(CASES.length);
  });
});
