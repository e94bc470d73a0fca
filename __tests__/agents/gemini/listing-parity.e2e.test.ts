/**
 * Listing parity for Gemini through the REAL `gemini` (pinned) and the listing probe's capture
 * server, over the tricky frontmatter corpus: for each SKILL.md, the emulation
 * (src/agents/gemini/listing.ts) says what Gemini lists for the real file, or that it leaves it out;
 * and skilltrigger's stub, written from that listed description, is listed with the same text. All
 * the real files go into one Gemini start and all the stubs into another.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { geminiListingOf } from '../../../src/agents/gemini/listing.js';
import { type GeminiListedSkill, probeGeminiListing } from '../../../src/agents/gemini/listing-probe.js';
import { geminiStubText } from '../../../src/agents/gemini/stub.js';
import { CASES } from '../listing-corpus.js';

const GEMINI_BIN = path.resolve('node_modules/.bin/gemini');

let real = new Map<string, GeminiListedSkill>();
let stubs = new Map<string, GeminiListedSkill>();

async function listed(skills: { folder: string; text: string }[]): Promise<Map<string, GeminiListedSkill>> {
  const result = await probeGeminiListing({ bin: GEMINI_BIN, env: { PATH: process.env.PATH }, skills });
  if (result.kind !== 'listed') throw new Error(`the probe failed: ${result.reason}`);
  const byFolder = new Map<string, GeminiListedSkill>();
  for (const skill of result.skills) {
    if (skill.file.startsWith(`${result.projectSkills}/`))
      byFolder.set(path.basename(path.dirname(skill.file)), skill);
  }
  return byFolder;
}

/** Gemini lists only a skill whose frontmatter has a `name`: the corpus's files get one, first. */
function named(text: string, i: number): string {
  return text.replace(/^(\uFEFF?---(\r?\n))/, `$1name: case-${i}$2`);
}

beforeAll(async () => {
  real = await listed(CASES.map((c, i) => ({ folder: `case-${i}`, text: named(c.text, i) })));
  const stubFiles = CASES.flatMap((c, i) => {
    const listing = geminiListingOf(named(c.text, i));
    return listing.kind === 'unlisted'
      ? []
      : [{ folder: `stub-${i}`, text: geminiStubText(`stub-${i}`, listing.description) }];
  });
  stubs = await listed(stubFiles);
}, 300_000);

describe('Gemini listing parity over the frontmatter corpus', () => {
  CASES.forEach((c, i) => {
    it(c.label, () => {
      const seen = real.get(`case-${i}`);
      const emulated = geminiListingOf(named(c.text, i));
      expect(emulated.kind).toBe(seen === undefined ? 'unlisted' : 'listed');
      if (seen === undefined || emulated.kind !== 'listed') return;
      expect(emulated).toEqual({ kind: 'listed', name: seen.name, description: seen.description });
      expect(stubs.get(`stub-${i}`)?.description).toBe(seen.description);
    });
  });

  it('the corpus covers both sides, and what differs from the others', () => {
    expect(real.size).toBeGreaterThan(18);
    expect(real.size).toBeLessThan(CASES.length);
    const byLabel = (prefix: string) =>
      real.get(`case-${CASES.findIndex((c) => c.label.startsWith(prefix))}`);
    // No cap: 2,000 characters listed whole.
    expect(byLabel('2,000 characters')?.description).toHaveLength(1999);
    // A block scalar keeps its final line break; an inline --- closes nothing.
    expect(byLabel('folded block scalar')?.description).toBe('Line one line two.\nPara two.\n');
    expect(byLabel('inline --- (the PDF skill')?.description).toContain('--- merging');
    // A BOM takes the file out.
    expect(byLabel('BOM')).toBeUndefined();
  });
});
