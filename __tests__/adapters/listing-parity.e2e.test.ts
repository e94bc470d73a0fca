import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulateListing } from '../../src/inputs/listing.js';
import { CASES } from './listing-corpus.js';
import { type ParityHarness, startParityHarness } from './listing-support.js';

/**
 * Listing parity through the real claude binary (docs/listing-parity.md): for each tricky
 * SKILL.md, what Claude Code lists for the real file must be exactly what it lists for
 * skilltrigger's stub, in both stub layouts. `listed` pins what 2.1.328 lists (observed with the probe), so a CLI upgrade
 * that reads frontmatter differently shows up here; `emulated: false` marks where the emulation
 * (src/inputs/listing.ts) is known to read otherwise than Bun's YAML parser.
 */
let harness: ParityHarness;
beforeAll(async () => {
  harness = await startParityHarness();
});
afterAll(async () => {
  await harness?.close();
});

describe('listing parity: the stub is listed exactly as Claude Code lists the real SKILL.md', () => {
  for (const c of CASES) {
    it(c.label, { timeout: 180_000 }, async () => {
      const real = await harness.listReal(c.text);
      expect(real).toMatchObject({ kind: 'listed', description: c.listed });
      for (const layout of ['command', 'skill'] as const) {
        expect(await harness.listStub(c.listed, layout), layout).toBe(c.listed);
      }
      if (c.emulated === false) expect(emulateListing(c.text).listed).not.toBe(c.listed);
      else expect(emulateListing(c.text).listed).toBe(c.listed);
    });
  }
});
