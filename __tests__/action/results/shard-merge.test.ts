import { describe, expect, it } from 'vitest';
import type { ActionRun } from '../../../src/action/results/results.js';
import { coverageProblems, mergeShards } from '../../../src/action/results/shard-merge.js';
import { HEAD, measured, run, shard } from '../../fakes/results-legs.js';

describe("joining the legs' results files", () => {
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
