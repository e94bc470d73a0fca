import { describe, expect, it } from 'vitest';
import type { ActionRun } from '../../../src/action/results/results.js';
import { renderComment } from '../../../src/action/text/comment.js';
import { NAME_ONLY } from '../../../src/report/listing-text.js';
import { reportFixture } from '../../fakes/report-fixture.js';

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
