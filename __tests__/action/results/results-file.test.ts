import { describe, expect, it } from 'vitest';
import {
  parseResultsFile,
  ResultsFileError,
  toResultsFile,
} from '../../../src/action/results/results-file.js';
import { mergeShards } from '../../../src/action/results/shard-merge.js';
import { HEAD, measured, run, shard } from '../../fakes/results-legs.js';

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
});
