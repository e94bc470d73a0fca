import { describe, expect, it } from 'vitest';
import { listingLosses } from '../../../src/action/results/listing-change.js';
import type { ActionRun, MeasuredSkill } from '../../../src/action/results/results.js';
import { renderComment } from '../../../src/action/text/comment.js';
import { listingStateLines } from '../../../src/action/text/listing-lines.js';
import { NAME_ONLY } from '../../../src/report/listing-text.js';
import type { AgentListing } from '../../../src/schemas/report.js';
import { FIXTURE_QUERIES, fixtureMeasurement, reportFixture } from '../../fakes/report-fixture.js';

/** The comment opens a measured skill's section with how its stub was listed, when bare or cut. */
function runWith(state: 'whole' | 'bare'): ActionRun {
  const report = reportFixture({ skill: 'release-notes' });
  report.candidate.listing = {
    claude: {
      unit: 'characters',
      budget: 8000,
      used: 7990,
      entries: { whole: 13, cut: 0, bare: 3, omitted: 0 },
      members: [],
      stub: { state, chars: state === 'bare' ? 0 : 40 },
      runs: { whole: 0, cut: 0, bare: 16, fromRequest: 0 },
    },
  };
  return {
    event: 'pull_request',
    eventName: 'pull_request',
    prNumber: 42,
    headSha: '9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c',
    baseSha: '1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d',
    fromFork: false,
    stage: 'measured',
    gates: [],
    notes: [],
    settings: { runs: 2, model: 'claude-sonnet-4-5', baseline: 'measure', failOnRegression: true },
    cliVersion: '2.1.328',
    skills: [
      {
        kind: 'measured',
        skill: 'release-notes',
        file: 'skills/release-notes/SKILL.md',
        descriptionLine: 3,
        change: 'added',
        report,
        reportPath: '/home/runner/work/r.json',
        markdownPath: '/home/runner/work/r.md',
        warnings: [],
        baseline: { kind: 'none', why: 'a new skill: the base branch has no SKILL.md for it' },
      },
    ],
  } as ActionRun;
}

describe("the comment's listing line", () => {
  it('opens the skill section when the stub was listed name-only, with the budget', () => {
    const body = renderComment(runWith('bare'), '0.1.0');
    const section = body.slice(body.indexOf('release-notes'));
    const lines = section.split('\n').filter((l) => l !== '');
    expect(lines[2]).toBe(
      `**${NAME_ONLY} (budget 8,000 characters, the listing takes 7,990 (100%); 13 whole, 0 cut, 3 bare)**`,
    );
  });

  it('says nothing of the listing when the stub was listed whole', () => {
    expect(renderComment(runWith('whole'), '0.1.0')).not.toContain('listed name-only');
  });
});

/** A listing of the stub on claude-sonnet-4-5's 8,000-character budget. */
function listing(state: 'whole' | 'cut' | 'bare', text: number, used = 7150): AgentListing {
  return {
    unit: 'characters',
    budget: 8000,
    used,
    entries: { whole: 16, cut: 0, bare: state === 'bare' ? 1 : 0, omitted: 0 },
    members: [],
    stub: { state, chars: state === 'bare' ? 0 : state === 'cut' ? 1536 : text, text },
    runs: { whole: 0, cut: 0, bare: 0, fromRequest: 0 },
  };
}

const CROWD = { sha256: 'c'.repeat(64), from: 'folder' as const, skills: 3, commands: 0 };

/** A paired report whose base side is listed `base` and whose PR side `cand`, among a roster or not. */
function paired(base: AgentListing, cand: AgentListing, roster = true): Pick<MeasuredSkill, 'report'> {
  const report = reportFixture({ skill: 'tiny', baseline: fixtureMeasurement(FIXTURE_QUERIES) });
  if (roster) report.settings.roster = CROWD;
  report.candidate.listing = { claude: cand };
  if (report.baseline) report.baseline.listing = { claude: base };
  return { report };
}

describe('listingStateLines: how each changed skill is listed', () => {
  it('says a skill listed whole among the roster, with its size against the budget', () => {
    expect(listingStateLines(paired(listing('whole', 67), listing('whole', 612)), 'this PR')).toEqual([
      'Among the roster: this PR is listed whole (612 of 8,000 characters).',
    ]);
  });

  it('calls a description the PR pushes name-only a regression by itself, with the room it needs', () => {
    const s = paired(listing('whole', 67), listing('bare', 1900));
    expect(listingStateLines(s, 'this PR')).toEqual([
      "❌ **Among the roster: the baseline is listed whole (67 of 8,000 characters); this PR would be listed name-only: it makes the description 1,900 characters, and the listing leaves 850 of 8,000 characters for it. A regression by itself: the model would read the skill's name, not its description.**",
    ]);
    expect(listingLosses(s).map((m) => m.agent)).toEqual(['claude']);
  });

  it('says a cut listing with the length that reaches the model', () => {
    expect(listingStateLines(paired(listing('cut', 1700), listing('cut', 1800)), 'this PR')).toEqual([
      'Among the roster: this PR is listed cut to 1,536 characters of its 1,800 (budget 8,000 characters).',
    ]);
  });

  it('without a roster, says only a move, and a move out of name-only is no loss', () => {
    expect(listingStateLines(paired(listing('whole', 67), listing('whole', 80), false), 'this PR')).toEqual(
      [],
    );
    const back = paired(listing('bare', 1900), listing('whole', 80), false);
    expect(listingStateLines(back, 'this PR')).toEqual([
      'On the runner: the baseline is listed name-only: it makes the description 1,900 characters, and the listing leaves 850 of 8,000 characters for it; this PR is listed whole (80 of 8,000 characters).',
    ]);
    expect(listingLosses(back)).toEqual([]);
  });

  it('compares no listing with a cached baseline listed among another crowd, or on another budget', () => {
    const cached = reportFixture({ skill: 'tiny' });
    cached.candidate.listing = { claude: listing('whole', 67) };
    const own = paired(listing('whole', 67), listing('bare', 1900)).report;
    const { baseline: _, ...alone } = own;
    expect(listingLosses({ report: alone, baselineReport: cached })).toEqual([]);
    cached.settings.roster = CROWD;
    expect(listingLosses({ report: alone, baselineReport: cached })).toHaveLength(1);
    if (cached.candidate.listing.claude) cached.candidate.listing.claude.budget = 30000;
    expect(listingLosses({ report: alone, baselineReport: cached })).toEqual([]);
  });
});
