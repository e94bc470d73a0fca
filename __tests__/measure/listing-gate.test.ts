import { describe, expect, it } from 'vitest';
import type { ListingPicture, ListingState } from '../../src/agents/listing.js';
import { listingGateRefusal } from '../../src/measure/listing-gate.js';

/** The listing gate: a stub listed worse than the skill itself would be is refused; as bad or better is not. */
const picture = (state: ListingState, realSkill?: ListingState): ListingPicture => ({
  unit: 'characters',
  budget: 8000,
  used: 7990,
  entries: [],
  stub: { state, chars: state === 'bare' ? 0 : 40 },
  ...(realSkill ? { realSkill } : {}),
});

describe('listingGateRefusal', () => {
  it('refuses a stub name-only or cut where the skill itself would be listed better, naming the side', () => {
    const one = listingGateRefusal({ sides: [{ claude: picture('bare', 'whole') }], failures: [] }, [
      'candidate',
    ]);
    expect(one).toMatch(
      /^listing: Claude Code would list the stub name-only, where the skill itself, installed in the user's skills folder, would be listed whole: .* Fix: .* --allow-bare/,
    );
    const paired = listingGateRefusal(
      { sides: [{ claude: picture('whole') }, { claude: picture('cut', 'whole') }], failures: [] },
      ['candidate', 'baseline'],
    );
    expect(paired).toContain("would list the baseline's stub cut, where the skill itself");
    expect(
      listingGateRefusal({ sides: [{ claude: picture('bare', 'cut') }], failures: [] }, ['candidate']),
    ).toContain('would be listed cut');
  });

  it('lets a stub through that is listed as the skill itself would be, or whose skill was not probed', () => {
    for (const p of [picture('bare', 'bare'), picture('cut', 'cut'), picture('whole'), picture('bare')])
      expect(listingGateRefusal({ sides: [{ claude: p }], failures: [] }, ['candidate'])).toBeUndefined();
    expect(listingGateRefusal({ sides: [{}], failures: [] }, ['candidate'])).toBeUndefined();
  });
});
