import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulateListing } from '../../src/inputs/listing.js';
import { type ParityHarness, skillMd, startParityHarness } from './listing-support.js';

/**
 * Listing parity as a property, through the real claude binary: for a generated description
 * written in any YAML style, skilltrigger's stub (both layouts) is listed exactly as Claude Code
 * lists the real SKILL.md. Bounded to 15 cases (three claude runs each) so the suite stays in
 * minutes. The emulation is compared too, so a divergence of Bun's YAML from the `yaml` package
 * shows up as a counterexample to add to the corpus.
 */
const PIECES = [
  'Merge',
  'PDF',
  ' ',
  '  ',
  ' --- ',
  '---',
  '--',
  ' # ',
  '#',
  ': ',
  ':',
  "'",
  "''",
  '"',
  '\\',
  ',',
  '&',
  '*',
  '!',
  '%',
  '@',
  '`',
  '{',
  '[',
  'é',
  '日本',
  '🚀',
  '👍🏽',
  '\t',
  '—',
];

const words = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 12 }).map((a) => a.join(''));

/** One frontmatter `description:` entry (and maybe when_to_use) in one of YAML's styles. */
const frontmatter = fc
  .tuple(
    words,
    fc.constantFrom('plain', 'single', 'double', 'folded', 'literal'),
    fc.option(words, { nil: undefined }),
  )
  .map(([text, style, when]) => {
    const value =
      style === 'plain'
        ? text
        : style === 'single'
          ? `'${text.replaceAll("'", "''")}'`
          : style === 'double'
            ? JSON.stringify(text)
            : `${style === 'folded' ? '>' : '|'}\n  ${text}\n\n  ${text}`;
    return `name: prop\ndescription: ${value}${when === undefined ? '' : `\nwhen_to_use: ${JSON.stringify(when)}`}`;
  });

let harness: ParityHarness;
beforeAll(async () => {
  harness = await startParityHarness();
});
afterAll(async () => {
  await harness?.close();
});

describe('listing parity, property', () => {
  it('generated descriptions: the stub lists what Claude Code lists for the real file', {
    timeout: 900_000,
  }, async () => {
    const divergences: string[] = [];
    await fc.assert(
      fc.asyncProperty(frontmatter, async (fm) => {
        const text = skillMd(fm);
        const real = await harness.listReal(text);
        expect(real.kind).toBe('listed');
        if (real.kind !== 'listed') return;
        for (const layout of ['command', 'skill'] as const) {
          expect(await harness.listStub(real.description, layout), `${layout}: ${JSON.stringify(fm)}`).toBe(
            real.description,
          );
        }
        if (emulateListing(text).listed !== real.description) divergences.push(fm);
      }),
      { numRuns: 15, endOnFailure: true },
    );
    // The emulation is the fallback, not the truth: say where it parts, without failing on it.
    if (divergences.length > 0) console.log(`emulation diverged on: ${JSON.stringify(divergences)}`);
  });
});
