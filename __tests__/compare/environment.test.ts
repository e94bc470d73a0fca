import { describe, expect, it } from 'vitest';
import { environmentWarnings } from '../../src/compare/environment.js';
import type { Report } from '../../src/schemas/report.js';
import { buildMeasurement, buildReport, rosterMembers } from '../fakes/measurement-builder.js';

const report = (over: Partial<Report> = {}): Report =>
  buildReport(buildMeasurement([{ query: 'p1', shouldTrigger: true, hits: 2, runs: 2 }]), over);
const base = report();
const codes = (a: Report, b: Report) => environmentWarnings(a, b).map((w) => w.code);

describe('environmentWarnings', () => {
  it('two reports of one environment: no warning', () => {
    expect(environmentWarnings(base, report())).toEqual([]);
  });

  it('each difference is named with both values, in the fixed order (skill first, simulated last)', () => {
    const other = report({
      skill: 'review',
      simulated: true,
      cli: { version: '2.2.0' },
      settings: { ...base.settings, runsPerQuery: 5, timeoutSeconds: 60 },
    });
    const warnings = environmentWarnings(base, other);
    expect(warnings.map((w) => w.code)).toEqual([
      'skill',
      'cli-version',
      'runs-per-query',
      'timeout',
      'simulated',
    ]);
    expect(warnings[0]?.message).toBe('skill differs: baseline handoff, candidate review');
    expect(warnings[1]?.message).toBe('Claude CLI version differs: baseline 2.1.328, candidate 2.2.0');
    expect(warnings[2]?.message).toBe('runs per query differs: baseline 2, candidate 5');
    expect(warnings[4]?.message).toBe('simulated flag differs: baseline real, candidate simulated');
  });

  it('warns when the reports were listed among different rosters, or one among none', () => {
    const crowd = (sha: string) =>
      report({
        settings: {
          ...base.settings,
          roster: { sha256: sha.repeat(64), from: 'folder', skills: 85, commands: 0 },
        },
      });
    expect(codes(crowd('a'), crowd('a'))).toEqual([]);
    const warnings = environmentWarnings(crowd('a'), crowd('b'));
    expect(warnings.map((w) => w.code)).toEqual(['roster-crowd']);
    expect(warnings[0]?.message).toBe(
      'the crowd the stub was listed among differs (run --roster): baseline a roster of 85 skills and 0 commands (aaaaaaaaaaaa), candidate a roster of 85 skills and 0 commands (bbbbbbbbbbbb); the listing budget may list the description differently',
    );
    expect(codes(base, crowd('a'))).toEqual(['roster-crowd']);
  });

  it("compares each agent both measured with its own version, never Claude's with Codex's", () => {
    const both = report({
      agents: [
        { name: 'claude', version: '2.1.328' },
        { name: 'codex', version: '0.169.0' },
      ],
    });
    const codexOnly = report({
      cli: { version: '0.169.0' },
      agents: [{ name: 'codex', version: '0.169.0' }],
    });
    const messages = environmentWarnings(both, codexOnly).map((w) => w.message);
    expect(messages.join('\n')).not.toMatch(/CLI version differs/);
    const newer = report({ cli: { version: '0.170.0' }, agents: [{ name: 'codex', version: '0.170.0' }] });
    expect(environmentWarnings(both, newer).map((w) => w.message)).toContain(
      'Codex CLI version differs: baseline 0.169.0, candidate 0.170.0',
    );
  });

  it('uses the names it is given, and says "default" and "unknown" for what was not recorded', () => {
    const other = report({
      model: { requested: null, reported: base.model.reported },
      cli: { version: null },
    });
    const messages = environmentWarnings(base, other, { base: 'main', cand: 'PR' }).map((w) => w.message);
    expect(messages).toEqual([
      'model requested differs: main claude-test, PR default',
      'Claude CLI version differs: main 2.1.328, PR unknown',
    ]);
  });

  it('reported models compare as sets (counts aside); the message lists them sorted with their counts', () => {
    expect(
      codes(base, report({ model: { requested: 'claude-test', reported: { 'claude-test': 99 } } })),
    ).toEqual([]);
    const [w] = environmentWarnings(
      base,
      report({ model: { requested: 'claude-test', reported: { zeta: 1, alpha: 2 } } }),
    );
    expect(w?.code).toBe('models-reported');
    expect(w?.message).toBe(
      'models the runs reported differ: baseline claude-test ×2, candidate alpha ×2, zeta ×1',
    );
    const none = environmentWarnings(base, report({ model: { requested: 'claude-test', reported: {} } }));
    expect(none[0]?.message).toContain('candidate none');
  });

  it('another agent list is its own warning, saying only an agent both measured is compared', () => {
    const [w] = environmentWarnings(base, report({ agents: [{ name: 'codex', version: '0.169.0' }] }));
    expect(w?.code).toBe('agents');
    expect(w?.message).toMatch(/^agents differ: baseline claude, candidate codex; /);
  });

  it('the roster: members by hash (added and removed), sizes, or which side recorded none', () => {
    const roster = base.roster;
    if (roster === null) throw new Error('the fixture has a roster');
    const moved = report({
      roster: { ...roster, skills: 7, members: [...rosterMembers(8), ...rosterMembers(3, 100)] },
    });
    const warnings = environmentWarnings(base, moved);
    expect(warnings.map((w) => w.message)).toEqual([
      'roster members differ (by hash): 3 added, 2 removed from baseline to candidate',
      'roster size differs: skills 6 → 7',
    ]);
    expect(environmentWarnings(report({ roster: null }), report({ roster: null }))[0]?.message).toBe(
      'no roster recorded by baseline and candidate: a change in the skills and commands the model sees cannot be ruled out',
    );
    expect(codes(base, report({ roster: null }))).toEqual(['roster-unknown']);
  });

  it('the inherited environment: each count that changed, or which side recorded none', () => {
    const env = { memoryFiles: { project: 2, user: 1 }, hooks: 3, mcpServers: 0 };
    const [w] = environmentWarnings(base, report({ environment: env }));
    expect(w).toEqual({
      code: 'environment',
      message: 'inherited environment differs: project memory files 0 → 2, hooks 0 → 3',
    });
    expect(environmentWarnings(report({ environment: null }), base)[0]?.message).toBe(
      'no inherited-environment counts recorded by baseline',
    );
  });

  it('settings absent from older reports read as their defaults (fixed runs, cold launch)', () => {
    expect(
      codes(base, report({ settings: { ...base.settings, runsMode: 'fixed', launch: 'cold' } })),
    ).toEqual([]);
    expect(codes(base, report({ settings: { ...base.settings, launch: 'standby' } }))).toEqual(['launch']);
    expect(environmentWarnings(base, report({ conflictAllowed: true }))[0]?.message).toBe(
      'conflict check differs: baseline enforced, candidate allowed (--allow-conflict)',
    );
  });

  it('warns when the runs did not start with the same contexts, by their summaries only', () => {
    const ctx = (sha: string, turns: number) => ({
      sha256: sha.repeat(64).slice(0, 64),
      turns,
      chars: 40 * turns,
    });
    const withContext = report({ settings: { ...base.settings, context: ctx('a', 2) } });
    expect(codes(base, withContext)).toEqual(['context']);
    expect(environmentWarnings(base, withContext)[0]?.message).toBe(
      '--context differs: baseline fresh, candidate 2 turns (80 characters, sha256 aaaaaaaaaaaa); a rate measured after one conversation says little about another',
    );
    expect(codes(withContext, report({ settings: { ...base.settings, context: ctx('a', 2) } }))).toEqual([]);
    // A shared query's own context.
    const own = report();
    own.candidate.queries = own.candidate.queries.map((q) => ({ ...q, context: ctx('b', 4) }));
    const warnings = environmentWarnings(base, own);
    expect(warnings.map((w) => w.message)).toEqual([
      'the context of 1 shared query differs (q1): their runs did not start from the same conversation',
    ]);
  });

  it('warns when one report measured its contexts against a fresh start and the other did not', () => {
    const versus = report({ settings: { ...base.settings, versusFresh: true } });
    expect(environmentWarnings(versus, base).map((w) => w.message)).toEqual([
      '--versus-fresh differs: baseline measured each query with a context fresh and with its context, candidate one way; compare an arm with the same arm (byContext)',
    ]);
    expect(codes(versus, report({ settings: { ...base.settings, versusFresh: true } }))).toEqual([]);
  });
});
