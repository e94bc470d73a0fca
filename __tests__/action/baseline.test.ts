import { describe, expect, it } from 'vitest';
import { environmentDrift, judgeBaseline } from '../../src/action/baseline.js';
import type { InitInfo } from '../../src/agents/runs.js';
import type { Skill } from '../../src/inputs/types.js';
import { FIXTURE_DESCRIPTION, FIXTURE_ROSTER, FIXTURE_STUB, reportFixture } from '../fakes/report-fixture.js';

/** The roster gate's view of the fixture's environment (the stub is not there: the run is stub-less). */
const sameRoster: InitInfo = {
  model: 'claude-sonnet-4-5-20250929',
  cliVersion: '2.1.328',
  slashCommands: FIXTURE_ROSTER.slashCommands.filter((n) => n !== FIXTURE_STUB),
  skills: [...FIXTURE_ROSTER.skills],
  mcpServers: 1,
};

const base: Skill = {
  dir: '/repo/skills/pdf-tables',
  file: 'skills/pdf-tables/SKILL.md',
  name: 'pdf-tables',
  description: FIXTURE_DESCRIPTION,
  descriptionLine: 3,
  warnings: [],
};

const current = { requestedModel: 'claude-sonnet-4-5', cliVersion: '2.1.328', rosterInit: sameRoster };

describe('environmentDrift', () => {
  it('finds nothing when model, CLI and roster match', () => {
    expect(environmentDrift(reportFixture(), current, 'pdf-tables')).toEqual([]);
    expect(environmentDrift(reportFixture(), { ...current, crowd: null }, 'pdf-tables')).toEqual([]);
  });

  it('names a crowd (the roster input) the baseline was not listed among', () => {
    const crowd = 'a'.repeat(64);
    const among = reportFixture();
    among.settings.roster = { sha256: crowd, from: 'folder', skills: 3, commands: 0 };
    expect(environmentDrift(reportFixture(), { ...current, crowd }, 'pdf-tables')).toEqual([
      'the baseline was measured without a roster, this run among the roster input',
    ]);
    expect(environmentDrift(among, { ...current, crowd: null }, 'pdf-tables')).toEqual([
      'the baseline was measured among a roster, this run without one',
    ]);
    expect(environmentDrift(among, { ...current, crowd: 'b'.repeat(64) }, 'pdf-tables')).toEqual([
      'the baseline was measured among another roster than this run',
    ]);
    expect(environmentDrift(among, { ...current, crowd }, 'pdf-tables')).toEqual([]);
  });

  it('names each difference plainly', () => {
    const drift = environmentDrift(
      reportFixture(),
      {
        cliVersion: '2.2.0',
        rosterInit: { ...sameRoster, skills: [...sameRoster.skills, 'new-skill'] },
      },
      'pdf-tables',
    );
    expect(drift).toEqual([
      'the model differs: the baseline asked for claude-sonnet-4-5, this run for the CLI default',
      'the Claude Code CLI differs: the baseline ran 2.1.328, this run 2.2.0',
      'the roster of skills and commands the model sees differs: 1 added, 0 removed since the baseline',
    ]);
  });

  it('notices another model answering under the same requested name', () => {
    expect(
      environmentDrift(
        reportFixture(),
        { ...current, rosterInit: { ...sameRoster, model: 'claude-x' } },
        'pdf-tables',
      ),
    ).toEqual([
      "the model answering differs: the baseline's runs reported claude-sonnet-4-5-20250929, this run's reports claude-x",
    ]);
  });
});

describe('judgeBaseline', () => {
  const report = reportFixture();

  it('uses a matching cached report as the baseline', () => {
    const plan = judgeBaseline({ mode: 'measure', report, hit: 'exact', sha: 'a'.repeat(40), base, current });
    expect(plan).toMatchObject({
      use: 'cache',
      baseline: { kind: 'cache', hit: 'exact', stale: false, drift: [] },
    });
  });

  it('with measure, re-measures in this job when the environment differs or the report is stale', () => {
    const drifted = judgeBaseline({
      mode: 'measure',
      report,
      hit: 'exact',
      base,
      current: { ...current, cliVersion: '9.9.9' },
    });
    expect(drifted).toMatchObject({
      use: 'paired',
      baseline: { why: expect.stringContaining('ran in another environment') },
    });
    const stale = judgeBaseline({
      mode: 'measure',
      report,
      hit: 'prefix',
      sha: 'b'.repeat(40),
      base: { ...base, description: 'Another text.' },
      current,
    });
    expect(stale).toMatchObject({
      use: 'paired',
      baseline: {
        why: 'the cached baseline (commit bbbbbbb) measured another description than the base branch holds',
      },
    });
  });

  it('with cache, compares anyway and records why the comparison is weak', () => {
    const plan = judgeBaseline({
      mode: 'cache',
      report,
      hit: 'prefix',
      base: { ...base, description: 'Another text.' },
      current: { ...current, cliVersion: '9.9.9' },
    });
    expect(plan).toMatchObject({
      use: 'cache',
      baseline: {
        stale: true,
        drift: ['the Claude Code CLI differs: the baseline ran 2.1.328, this run 9.9.9'],
      },
    });
  });

  describe('the competition (competition: siblings)', () => {
    const set = (review: string) => ({
      members: [{ name: 'review', sha256: review.repeat(64) }],
      crossNegatives: false,
    });
    const withSiblings = reportFixture({ siblings: set('a') });

    it('uses the cached report when its sibling set is this run’s', () => {
      for (const mode of ['cache', 'measure'] as const) {
        const plan = judgeBaseline({
          mode,
          report: withSiblings,
          hit: 'exact',
          base,
          current: { ...current, siblings: set('a') },
        });
        expect(plan.use).toBe('cache');
      }
    });

    it('with cache or measure, re-measures the base here when a sibling changed, saying the competition changed', () => {
      for (const mode of ['cache', 'measure'] as const) {
        const plan = judgeBaseline({
          mode,
          report: withSiblings,
          hit: 'exact',
          sha: 'c'.repeat(40),
          base,
          current: { ...current, siblings: set('b') },
        });
        expect(plan).toEqual({
          use: 'paired',
          baseline: {
            kind: 'paired',
            why: 'the cached baseline (commit ccccccc) was measured against other skills: the competition changed (sibling skills) from the baseline to this run: description changed: review',
          },
        });
      }
    });

    it('re-measures a baseline measured alone (before siblings), and one measured with siblings now gone', () => {
      const alone = judgeBaseline({
        mode: 'cache',
        report,
        hit: 'exact',
        base,
        current: { ...current, siblings: set('a') },
      });
      expect(alone).toMatchObject({
        use: 'paired',
        baseline: { why: expect.stringContaining('added review') },
      });
      const gone = judgeBaseline({ mode: 'cache', report: withSiblings, hit: 'exact', base, current });
      expect(gone).toMatchObject({
        use: 'paired',
        baseline: { why: expect.stringContaining('removed review') },
      });
    });

    it('with cache-only, keeps the cached report (the comparison then warns)', () => {
      const plan = judgeBaseline({
        mode: 'cache-only',
        report: withSiblings,
        hit: 'exact',
        base,
        current: { ...current, siblings: set('b') },
      });
      expect(plan.use).toBe('cache');
    });
  });
});
