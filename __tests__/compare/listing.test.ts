import { describe, expect, it } from 'vitest';
import { compareReports } from '../../src/compare/compare.js';
import { listingDifferenceWarnings } from '../../src/compare/listing.js';
import type { AgentListing } from '../../src/schemas/report.js';
import { buildMeasurement, buildReport } from '../fakes/measurement-builder.js';

/** compare warns when the stub or its catalogue was listed differently on the two sides. */
const NAMES = { base: 'baseline', cand: 'candidate' };
const listing = (over: Partial<AgentListing> = {}): AgentListing => ({
  unit: 'characters',
  budget: 8000,
  used: 6400,
  entries: { whole: 14, cut: 0, bare: 0, omitted: 0 },
  members: [{ id: 'aaaaaaaaaaaa', state: 'whole' }],
  stub: { state: 'whole', chars: 40 },
  runs: { whole: 4, cut: 0, bare: 0, fromRequest: 0 },
  ...over,
});

describe('listingDifferenceWarnings', () => {
  it('says nothing when both sides listed alike, or neither recorded a listing', () => {
    expect(
      listingDifferenceWarnings(
        { listing: { claude: listing() } },
        { listing: { claude: listing() } },
        NAMES,
      ),
    ).toEqual([]);
    expect(listingDifferenceWarnings({}, {}, NAMES)).toEqual([]);
  });

  it('warns of the stub state, the catalogue by hash and the budget, per agent', () => {
    const bare = listing({
      budget: 30000,
      members: [
        { id: 'bbbbbbbbbbbb', state: 'whole' },
        { id: 'aaaaaaaaaaaa', state: 'bare' },
      ],
      stub: { state: 'bare', chars: 0 },
    });
    const got = listingDifferenceWarnings(
      { listing: { claude: listing() } },
      { listing: { claude: bare } },
      NAMES,
    );
    expect(got).toEqual([
      {
        code: 'listing-state',
        message:
          "Claude Code listed the stub whole in baseline, name-only in candidate: a stub listed name-only measures the skill's name, not its description",
      },
      {
        code: 'listing-members',
        message: "Claude Code's catalogue differs (by hash): 1 added, 0 removed from baseline to candidate",
      },
      {
        code: 'listing-budget',
        message: "Claude Code's listing budget differs: baseline 8000, candidate 30000 (characters)",
      },
    ]);
    expect(
      listingDifferenceWarnings({}, { listing: { codex: listing({ unit: 'bytes' }) } }, NAMES).map(
        (w) => w.code,
      ),
    ).toEqual(['listing-unknown']);
  });

  it('reaches compare', () => {
    const specs = [{ query: 'q', shouldTrigger: true, hits: 1, runs: 2 }];
    const a = buildReport({ ...buildMeasurement(specs), listing: { claude: listing() } });
    const b = buildReport({
      ...buildMeasurement(specs),
      listing: { claude: listing({ stub: { state: 'cut', chars: 20 } }) },
    });
    expect(compareReports(a, b).warnings.map((w) => w.code)).toContain('listing-state');
  });
});
