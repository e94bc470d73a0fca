import type { ActionRun, MeasuredSkill } from '../../src/action/results/results.js';
import {
  parseResultsFile,
  resultsFileName,
  type ShardResults,
  toResultsFile,
} from '../../src/action/results/results-file.js';
import { compareReports } from '../../src/compare/compare.js';
import { buildMeasurement, buildReport } from './measurement-builder.js';

/** Matrix legs' runs and their results files, as the merge reads them back. */

export const HEAD = 'a'.repeat(40);

function report(hits: number) {
  return buildReport(
    buildMeasurement([
      { query: 'write the notes', shouldTrigger: true, hits, runs: 4 },
      { query: 'capital of France', shouldTrigger: false, hits: 0, runs: 4 },
    ]),
  );
}

export function measured(skill: string, out: string): MeasuredSkill {
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

export function run(skills: ActionRun['skills'], stage: ActionRun['stage'] = 'measured'): ActionRun {
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
export function shard(index: number, count: number, r: ActionRun, dir = '/leg', sha = HEAD): ShardResults {
  const file = toResultsFile(r, { index, count }, sha, '/runner/out', '1.0.0');
  const name = `${dir}/${resultsFileName({ index, count })}`;
  return { file: name, dir, results: parseResultsFile(JSON.parse(JSON.stringify(file)), name) };
}
