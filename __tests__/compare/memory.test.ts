import { describe, expect, it } from 'vitest';
import { environmentWarnings } from '../../src/compare/environment.js';
import type { Report } from '../../src/schemas/report.js';
import { buildMeasurement, buildReport } from '../fakes/measurement-builder.js';

/** `compare` warns when two reports' runs held different `--memory` files, by hash and size only. */
const base = buildReport(buildMeasurement([{ query: 'p1', shouldTrigger: true, hits: 2, runs: 2 }]));
const held = (...files: Array<[string, number]>): Report =>
  buildReport(buildMeasurement([{ query: 'p1', shouldTrigger: true, hits: 2, runs: 2 }]), {
    settings: { ...base.settings, memory: files.map(([sha, bytes]) => ({ sha256: sha.repeat(64), bytes })) },
  });
const codes = (a: Report, b: Report) => environmentWarnings(a, b).map((w) => w.code);

describe('the memory warning', () => {
  it('says nothing when both held the same files in the same order, or neither held any', () => {
    expect(codes(base, base)).toEqual([]);
    expect(codes(held(['a', 120], ['b', 40]), held(['a', 120], ['b', 40]))).toEqual([]);
  });

  it('warns when one held none, saying the other by count, size and hashes', () => {
    const warnings = environmentWarnings(base, held(['a', 1200], ['b', 40]));
    expect(warnings.map((w) => w.code)).toEqual(['memory']);
    expect(warnings[0]?.message).toBe(
      'the memory files every run held differ (run --memory): baseline no memory file, candidate 2 memory files, 1,240 bytes (aaaaaaaaaaaa, bbbbbbbbbbbb); project instructions can route the model to a skill, or away from it',
    );
  });

  it('warns when the files differ, or come in another order (they are joined in it)', () => {
    expect(codes(held(['a', 10]), held(['c', 10]))).toEqual(['memory']);
    expect(codes(held(['a', 10], ['b', 5]), held(['b', 5], ['a', 10]))).toEqual(['memory']);
    const forCodex = held(['a', 10]);
    const first = forCodex.settings.memory?.[0];
    if (first) first.agents = ['codex'];
    expect(codes(held(['a', 10]), forCodex)).toEqual(['memory']);
  });
});
