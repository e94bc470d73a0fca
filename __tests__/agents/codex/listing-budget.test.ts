import { describe, expect, it } from 'vitest';
import {
  type CodexCatalogueEntry,
  codexListing,
  codexListingBudget,
} from '../../../src/agents/codex/listing-budget.js';

const entry = (name: string, description: string): CodexCatalogueEntry => ({
  name,
  description,
  file: `r1/${name}/SKILL.md`,
});

describe('codexListingBudget', () => {
  it('is 2% of the context window in tokens of 4 bytes', () => {
    expect(codexListingBudget()).toBe(21_760);
    expect(codexListingBudget(100_000)).toBe(8000);
  });
});

describe('codexListing', () => {
  it('lists every description whole when all fit', () => {
    const listing = codexListing([entry('a', 'x'.repeat(10))], 1000);
    expect(listing.entries.map((e) => e.state)).toEqual(['whole']);
    expect(listing.usedBytes).toBe('- a: xxxxxxxxxx (file: r1/a/SKILL.md)'.length);
  });

  it('cuts to one level in steps of 4 characters, keeps a shorter one whole, and lengthens the first by 4 bytes', () => {
    // bare lines: 3 × 26 + 2 joins = 80; one space each: 83; room 203 − 83 = 120: level 48 takes 116.
    const listing = codexListing(
      [entry('a', 'x'.repeat(100)), entry('b', 'y'.repeat(20)), entry('c', 'z'.repeat(100))],
      203,
    );
    expect(listing.entries.map((e) => [e.state, e.description.length])).toEqual([
      ['cut', 52],
      ['whole', 20],
      ['cut', 48],
    ]);
    expect(listing.usedBytes).toBeLessThanOrEqual(203);
  });

  it('counts bytes and cuts a multi-byte text between characters', () => {
    const listing = codexListing([entry('a', 'é'.repeat(100)), entry('b', 'y'.repeat(100))], 150);
    const [a, b] = listing.entries;
    expect(a?.state).toBe('cut');
    expect(Buffer.byteLength(a?.description ?? '')).toBe(2 * (a?.description.length ?? 0));
    expect(b?.state).toBe('cut');
    expect(listing.usedBytes).toBeLessThanOrEqual(150);
  });

  it('with no room for the names, lists each bare and leaves the last out', () => {
    const listing = codexListing([entry('a', 'x'.repeat(100)), entry('b', 'y'.repeat(100))], 40);
    expect(listing.entries.map((e) => e.state)).toEqual(['bare', 'omitted']);
  });
});
