import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProbeResult } from '../../../src/agents/claude/listing-probe.js';
import { emulateListing } from '../../../src/inputs/listing.js';
import { CASES } from '../listing-corpus.js';
import { type ParityHarness, skillMd, startParityHarness } from '../listing-support.js';

/**
 * Listing parity through the real claude binary (docs/listing-parity.md): for each tricky
 * SKILL.md, what Claude Code lists for the real file must be exactly what it lists for
 * skilltrigger's stub, in both stub layouts. `listed` pins what 2.1.328 lists (observed with the probe), so a CLI upgrade
 * that reads frontmatter differently shows up here; `emulated: false` marks where the emulation
 * (src/inputs/listing.ts) is known to read otherwise than Bun's YAML parser.
 *
 * Then the same as a property: for 15 generated descriptions written in any YAML style, the stub
 * (both layouts) is listed exactly as Claude Code lists the real SKILL.md. The emulation is compared
 * too, so a divergence of Bun's YAML from the `yaml` package shows up as a counterexample to add to
 * the corpus.
 *
 * The corpus and the generated files are listed together in batches (listing-support.ts: a few
 * starts of the CLI for all of them, each answer the one a start of its own gives); each case still
 * asserts its own readings, and a failure names the case.
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

/** The generated cases; a failure names the seed, to replay them with `fc.sample(frontmatter, { seed })`. */
const seed = Math.floor(Math.random() * 2 ** 31);
const GENERATED = fc.sample(frontmatter, { numRuns: 15, seed });

let harness: ParityHarness;
let real: ProbeResult[] = [];
const stubs: Record<'command' | 'skill', Array<string | undefined>> = { command: [], skill: [] };
const generatedAt = CASES.length;
beforeAll(async () => {
  harness = await startParityHarness();
  real = await harness.listReal([...CASES.map((c) => c.text), ...GENERATED.map((fm) => skillMd(fm))]);
  // The corpus's stubs stand for the pinned text; the generated ones for what the CLI listed.
  const texts = [
    ...CASES.map((c) => c.listed),
    ...real.slice(generatedAt).map((r) => (r.kind === 'listed' ? r.description : '')),
  ];
  for (const layout of ['command', 'skill'] as const) stubs[layout] = await harness.listStubs(texts, layout);
}, 900_000);
afterAll(async () => {
  await harness?.close();
});

describe('listing parity: the stub is listed exactly as Claude Code lists the real SKILL.md', () => {
  for (const [i, c] of CASES.entries()) {
    it(c.label, () => {
      expect(real[i]).toMatchObject({ kind: 'listed', description: c.listed });
      for (const layout of ['command', 'skill'] as const) {
        expect(stubs[layout][i], layout).toBe(c.listed);
      }
      if (c.emulated === false) expect(emulateListing(c.text).listed).not.toBe(c.listed);
      else expect(emulateListing(c.text).listed).toBe(c.listed);
    });
  }
});

describe('listing parity, property', () => {
  it('generated descriptions: the stub lists what Claude Code lists for the real file', () => {
    const divergences: string[] = [];
    for (const [j, fm] of GENERATED.entries()) {
      const result = real[generatedAt + j];
      const which = `${JSON.stringify(fm)} (seed ${seed})`;
      expect(result?.kind, which).toBe('listed');
      if (result?.kind !== 'listed') continue;
      for (const layout of ['command', 'skill'] as const) {
        expect(stubs[layout][generatedAt + j], `${layout}: ${which}`).toBe(result.description);
      }
      if (emulateListing(skillMd(fm)).listed !== result.description) divergences.push(fm);
    }
    // The emulation is the fallback, not the truth: say where it parts, without failing on it.
    if (divergences.length > 0) console.log(`emulation diverged on: ${JSON.stringify(divergences)}`);
  });
});
