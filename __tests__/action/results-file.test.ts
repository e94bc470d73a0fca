import { describe, expect, it } from 'vitest';
import type { ActionRun, MeasuredSkill } from '../../src/action/results.js';
import {
  coverageProblems,
  mergeShards,
  parseResultsFile,
  ResultsFileError,
  resultsFileName,
  type ShardResults,
  toResultsFile,
} from '../../src/action/results-file.js';
import { compareReports } from '../../src/compare/compare.js';
import { buildMeasurement, buildReport } from '../fakes/measurement-builder.js';

const HEAD = 'a'.repeat(40);

function report(hits: number) {
  return buildReport(
    buildMeasurement([
      { query: 'write the notes', shouldTrigger: true, hits, runs: 4 },
      { query: 'capital of France', shouldTrigger: false, hits: 0, runs: 4 },
    ]),
  );
}

function measured(skill: string, out: string): MeasuredSkill {
  const base = report(4);
  const cand = report(0);
  return {
    kind: 'measured',
    skill,
    file: `.claude/skills/${skill}/SKILL.md`,
    descriptionLine: 3,
    change: 'modified',
    report: cand,
    reportPath: `${out}/2026-01-01-${skill}.json`,
    markdownPath: `${out}/2026-01-01-${skill}.md`,
    baseline: { kind: 'cache', hit: 'exact', createdAt: '2026-01-01T00:00:00.000Z', drift: [], stale: false },
    baselineReport: base,
    comparison: compareReports(base, cand, { names: { base: 'baseline', cand: 'this PR' } }),
    warnings: [],
  };
}

function run(skills: ActionRun['skills'], stage: ActionRun['stage'] = 'measured'): ActionRun {
  return {
    event: 'pull_request',
    eventName: 'pull_request',
    prNumber: 3,
    headSha: HEAD,
    fromFork: false,
    stage,
    skills,
    gates: [],
    notes: ['same in every leg'],
    settings: { runs: 4, baseline: 'cache', failOnRegression: false },
  };
}

/** A leg's file as the merge reads it back: through JSON, from another folder. */
function shard(index: number, count: number, r: ActionRun, dir = '/leg', sha = HEAD): ShardResults {
  const file = toResultsFile(r, { index, count }, sha, '/runner/out', '1.0.0');
  const name = `${dir}/${resultsFileName({ index, count })}`;
  return { file: name, dir, results: parseResultsFile(JSON.parse(JSON.stringify(file)), name) };
}

describe('results files', () => {
  it('round-trip a measured skill: paths relative to the folder, the comparison recomputed', () => {
    const original = measured('alpha', '/runner/out');
    const s = shard(1, 1, run([original]), '/merge/downloaded');
    const stored = s.results.run.skills[0];
    expect(stored).toMatchObject({ reportPath: '2026-01-01-alpha.json' });
    expect(stored).not.toHaveProperty('comparison');
    const merged = mergeShards([s], true);
    const back = merged.skills[0];
    if (back?.kind !== 'measured') throw new Error('expected a measured skill');
    expect(back.reportPath).toBe('/merge/downloaded/2026-01-01-alpha.json');
    expect(back.comparison).toEqual(original.comparison);
    expect(back.comparison?.label).toBe('regression');
    expect(merged.settings.failOnRegression).toBe(true);
  });

  it('refuses a report path that leaves the results folder', () => {
    const text = JSON.stringify(
      toResultsFile(run([measured('a', '/o')]), { index: 1, count: 1 }, HEAD, '/o', '1'),
    );
    const value: unknown = JSON.parse(text.replace('"2026-01-01-a.json"', '"../../etc/passwd"'));
    expect(() => parseResultsFile(value, 'x.json')).toThrow(ResultsFileError);
    expect(() => parseResultsFile(value, 'x.json')).toThrow(
      'x.json: not a valid skilltrigger/action-results v1 file ($.run.skills[0].reportPath',
    );
  });

  it('names a foreign file', () => {
    expect(() => parseResultsFile([1, 2], 'odd.json')).toThrow(
      'odd.json: not a skilltrigger shard results file',
    );
    expect(() => parseResultsFile({ schema: 'skilltrigger/report' }, 'r.json')).toThrow(
      'got "skilltrigger/report"',
    );
  });

  it('coverage: shards 1..n of one commit, each once', () => {
    const empty = run([], 'nothing');
    expect(coverageProblems([shard(1, 2, empty), shard(2, 2, empty)], HEAD)).toEqual([]);
    expect(coverageProblems([shard(2, 2, empty)], HEAD)).toEqual([
      'shard 1/2 is missing (did its leg fail before it wrote its results?)',
    ]);
    expect(coverageProblems([shard(1, 1, empty, '/a'), shard(1, 1, empty, '/b')], HEAD)[0]).toMatch(
      /^shard 1\/1 appears 2 times: \/a\/.*, \/b\//,
    );
    expect(coverageProblems([shard(1, 2, empty), shard(1, 3, empty)], HEAD)[0]).toMatch(
      /disagree on the number of shards/,
    );
    expect(coverageProblems([shard(1, 2, empty), shard(2, 2, empty, '/l', 'c'.repeat(40))])[0]).toMatch(
      /measured different commits/,
    );
    expect(coverageProblems([shard(1, 1, empty)], 'd'.repeat(40))[0]).toMatch(/but this run is for d{40}/);
    expect(coverageProblems([])).toEqual(['no shard results files were found']);
  });

  it('merge: skills in shard order, the most serious stage, notes once', () => {
    const gateFailed: ActionRun = {
      ...run([{ kind: 'not-run', file: 'b/SKILL.md', skill: 'b' }], 'gate-failed'),
      gates: [{ gate: 'auth', status: 'fail', reason: 'no key' }],
    };
    const merged = mergeShards(
      [shard(2, 2, gateFailed), shard(1, 2, run([measured('a', '/runner/out')]))],
      false,
    );
    expect(merged.skills.map((s) => s.file)).toEqual(['.claude/skills/a/SKILL.md', 'b/SKILL.md']);
    expect(merged.stage).toBe('gate-failed');
    expect(merged.gates).toEqual(gateFailed.gates);
    expect(merged.notes).toEqual(['same in every leg']);
  });

  it("merge: keeps the legs' budget and a refused leg's reason, which the file used to drop", () => {
    const refused: ActionRun = {
      ...run([{ kind: 'not-run', file: 'b/SKILL.md', skill: 'b' }], 'input-error'),
      budget: { maxUsd: 0.5, refused: 'the job is estimated at $1.20, more than max-cost-usd $0.50' },
    };
    const measuredLeg: ActionRun = { ...run([measured('a', '/runner/out')]), budget: { maxUsd: 0.5 } };
    const merged = mergeShards([shard(1, 2, measuredLeg), shard(2, 2, refused)], true);
    expect(merged.stage).toBe('input-error');
    expect(merged.budget).toEqual(refused.budget);
    expect(mergeShards([shard(1, 1, measuredLeg)], true).budget).toEqual({ maxUsd: 0.5 });
    expect(mergeShards([shard(1, 1, run([]))], true)).not.toHaveProperty('budget');
  });
});
