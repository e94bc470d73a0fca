import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../../src/agents/claude/display-width.js';
import {
  type ClaudeCatalogueEntry,
  claudeCappedText,
  claudeListing,
  claudeListingBudget,
  claudeListingOrder,
  claudeUseScore,
} from '../../../src/agents/claude/listing-budget.js';

const entry = (
  listedName: string,
  chars: number,
  extra: Partial<ClaudeCatalogueEntry> = {},
): ClaudeCatalogueEntry => ({
  listedName,
  text: 'x'.repeat(chars),
  score: 0,
  ...extra,
});

describe('claudeListingBudget', () => {
  it('is the window × bytes per token × 1%, the override when it is a number other than 0', () => {
    expect(claudeListingBudget({ contextWindow: 200_000 })).toBe(8000);
    expect(claudeListingBudget({ contextWindow: 1_000_000, bytesPerToken: 3 })).toBe(30_000);
    expect(claudeListingBudget({ contextWindow: 200_000, fraction: 0.02 })).toBe(16_000);
    expect(claudeListingBudget({ override: '20000' })).toBe(20_000);
    expect(claudeListingBudget({ override: '0', contextWindow: 200_000 })).toBe(8000);
    expect(claudeListingBudget({ override: 'lots' })).toBe(8000);
  });
});

describe('claudeUseScore', () => {
  it('halves every 7 days and stops at a tenth; never used is 0', () => {
    const now = 100 * 86_400_000;
    expect(claudeUseScore(undefined, now)).toBe(0);
    expect(claudeUseScore({ usageCount: 4, lastUsedAt: now }, now)).toBe(4);
    expect(claudeUseScore({ usageCount: 4, lastUsedAt: now - 7 * 86_400_000 }, now)).toBeCloseTo(2);
    expect(claudeUseScore({ usageCount: 4, lastUsedAt: now - 70 * 86_400_000 }, now)).toBeCloseTo(0.4);
  });
});

describe('claudeListing', () => {
  it('lists every entry whole when all fit, and cuts one past the cap with …', () => {
    const listing = claudeListing([entry('a', 10), entry('b', 20)], 100, 15);
    expect(listing.entries.map((e) => e.state)).toEqual(['whole', 'cut']);
    expect(listing.entries[1]?.line).toBe(`- b: ${'x'.repeat(14)}\u2026`);
    expect(listing.usedChars).toBe('- a: '.length + 10 + 1 + '- b: '.length + 15);
  });

  it('over budget, keeps the bundled text, and hands the rest out greedily by score then order', () => {
    const catalogue = [
      entry('a', 50),
      entry('b', 30),
      entry('c', 10),
      entry('d', 40, { score: 1 }),
      entry('bundled', 20, { fixed: 'bundled' }),
    ];
    // bare lines 3 × 4 + 3 ('- d' after its score) + bundled 31 + 4 joins = 50; 60 left for text.
    const listing = claudeListing(catalogue, 110);
    expect(listing.fits).toBe(false);
    expect(listing.entries.map((e) => e.state)).toEqual(['bare', 'bare', 'whole', 'whole', 'whole']);
    expect(listing.usedChars).toBeLessThanOrEqual(110);
  });

  it('counts an entry listed name-only by its folder and never gives it text', () => {
    const listing = claudeListing([entry('a (name)', 5, { fixed: 'name-only' }), entry('b', 5)], 1000);
    expect(listing.entries.map((e) => [e.state, e.line])).toEqual([
      ['bare', '- a'],
      ['whole', '- b: xxxxx'],
    ]);
  });

  it('cuts at the cap before it counts', () => {
    expect(claudeCappedText('abcdef', 4)).toBe('abc\u2026');
    expect(claudeCappedText('abcd', 4)).toBe('abcd');
  });
});

describe('claudeListingOrder', () => {
  it('puts user skills, project skills, commands of both places by name, then the shipped ones as given', () => {
    const entries = [
      { source: 'bundled' as const, folder: 'z-bundled' },
      { source: 'command' as const, folder: 'z-proj-cmd' },
      { source: 'project-skill' as const, folder: 'b' },
      { source: 'command' as const, folder: 'a-user-cmd' },
      { source: 'user-skill' as const, folder: 'z' },
      { source: 'project-skill' as const, folder: 'a' },
      { source: 'built-in' as const, folder: 'init' },
      { source: 'bundled' as const, folder: 'a-bundled' },
    ];
    expect(claudeListingOrder(entries).map((e) => e.folder)).toEqual([
      'z',
      'a',
      'b',
      'a-user-cmd',
      'z-proj-cmd',
      'z-bundled',
      'a-bundled',
      'init',
    ]);
  });
});

describe('displayWidth', () => {
  it('counts ASCII by length, a line break 0, a wide character or an emoji 2, a combining mark 0', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('a\nb')).toBe(2);
    expect(displayWidth('漢字')).toBe(4);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('\u2014')).toBe(1);
    expect(displayWidth('\u{1f600}')).toBe(2);
  });
});
