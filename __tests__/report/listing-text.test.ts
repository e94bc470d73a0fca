import { describe, expect, it } from 'vitest';
import {
  budgetText,
  listingReadLines,
  listingWarning,
  listingWarnings,
  NAME_ONLY,
} from '../../src/report/listing-text.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import type { AgentListing } from '../../src/schemas/report.js';
import { reportFixture } from '../fakes/report-fixture.js';

/** What every rendering opens with when the stub was listed bare or cut, and what it says otherwise. */
const listing = (over: Partial<AgentListing> = {}): AgentListing => ({
  unit: 'characters',
  budget: 8000,
  used: 7990,
  entries: { whole: 13, cut: 0, bare: 2, omitted: 0 },
  members: [],
  stub: { state: 'bare', chars: 0 },
  runs: { whole: 0, cut: 0, bare: 4, fromRequest: 0 },
  ...over,
});

describe('the listing warning', () => {
  it('says name-only with the budget and the share the listing takes', () => {
    expect(listingWarning(listing(), 'claude', false)).toBe(
      `${NAME_ONLY} (budget 8,000 characters, the listing takes 7,990 (100%); 13 whole, 0 cut, 2 bare)`,
    );
  });

  it('says how far a cut stub is listed, and names the agent with several', () => {
    const cut = listing({ unit: 'bytes', budget: 21_760, used: 21_700, stub: { state: 'cut', chars: 224 } });
    expect(listingWarning(cut, 'codex', true)).toMatch(
      /^Codex: listed cut to 224 characters: this measures the start of the description, not all of it \(budget 21,760 bytes/,
    );
  });

  it('says nothing for a stub listed whole, and says so when the budget is not known', () => {
    expect(listingWarning(listing({ stub: { state: 'whole', chars: 90 } }), 'claude', false)).toBeUndefined();
    expect(budgetText(listing({ budget: undefined }))).toBe(
      'the listing takes 7,990 characters, budget not known; 13 whole, 0 cut, 2 bare',
    );
  });

  it('opens the Markdown report', () => {
    const report = reportFixture();
    report.candidate.listing = { claude: listing() };
    const markdown = renderMarkdown(report);
    const lines = markdown.split('\n').filter((l) => l !== '');
    expect(lines[1]).toBe(`**${listingWarnings(report.candidate)[0]}**`);
    expect(markdown).toContain(
      '- Listing: Claude Code listed the stub bare; runs 0 whole, 0 cut, 4 bare of 4',
    );
  });

  it('tells before the runs what each probe read, and which failed', () => {
    const lines = listingReadLines(
      {
        sides: [
          {
            claude: {
              unit: 'characters',
              used: 6326,
              budget: 8000,
              entries: [],
              stub: { state: 'whole', chars: 85 },
            },
          },
        ],
        failures: [{ agent: 'codex', reason: 'codex sent no request in time' }],
      },
      false,
    );
    expect(lines[0]).toBe(
      'listing: listed whole (budget 8,000 characters, the listing takes 6,326 (79%); 1 whole, 0 cut, 0 bare)',
    );
    expect(lines[1]).toMatch(/^listing: Codex's listing of the stub could not be read/);
  });
});
