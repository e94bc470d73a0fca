import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeLegMatrices } from '../../src/action/results/matrix-merge.js';
import {
  type ActionRun,
  type MeasuredSkill,
  type RoutingMatrix,
  reportPaths,
} from '../../src/action/results/results.js';
import {
  parseResultsFile,
  restoreMatrix,
  type ShardResults,
  toResultsFile,
} from '../../src/action/results/results-file.js';
import { concludeWithMatrix } from '../../src/action/routing-matrix.js';
import { renderComment } from '../../src/action/text/comment.js';
import {
  COMMENT_MATRIX_LIMITS,
  routingMatrixSection,
  SUMMARY_MATRIX_LIMITS,
} from '../../src/action/text/matrix-section.js';
import { renderSummary } from '../../src/action/text/summary.js';
import { ExitCode } from '../../src/errors.js';
import type { MatrixReport } from '../../src/schemas/matrix.js';
import { hostile, PAYLOADS } from '../fakes/html-hostile.js';
import { matrixLegFixture as legOf, matrixFixture } from '../fakes/matrix-fixture.js';
import { buildMeasurement, buildReport } from '../fakes/measurement-builder.js';

/**
 * The Action's routing matrix, pure parts: its section of the comment and the summary, the exit
 * code it adds, its round trip through a leg's results file (old files without it still read), and
 * the merge of the legs' slices (refused when they disagree).
 */

const DIR = '/home/runner/work/skills/skills/skilltrigger-results';

function run(matrix: RoutingMatrix | undefined, changed: string[] = ['handoff']): ActionRun {
  return {
    event: 'pull_request',
    eventName: 'pull_request',
    prNumber: 4,
    headSha: 'a'.repeat(40),
    baseSha: 'b'.repeat(40),
    fromFork: false,
    stage: 'measured',
    skills: changed.map((skill) => ({ kind: 'not-run', file: `.claude/skills/${skill}/SKILL.md`, skill })),
    gates: [],
    notes: [],
    settings: { runs: 2, baseline: 'none', failOnRegression: false },
    ...(matrix === undefined ? {} : { matrix }),
  };
}

const measured = (report: MatrixReport = matrixFixture()): RoutingMatrix => ({
  kind: 'measured',
  report,
  reportPath: path.join(DIR, '2025-03-14-matrix.json'),
  markdownPath: path.join(DIR, '2025-03-14-matrix.md'),
});

describe('the routing matrix section', () => {
  it('the comment shows the changed skill’s rows, the columns its runs reached, its figures and its stolen queries', () => {
    const text = routingMatrixSection(run(measured()), COMMENT_MATRIX_LIMITS).join('\n');
    expect(text).toContain('### Routing matrix');
    expect(text).toContain('Rows of the changed skills (handoff)');
    // handoff's positives went to handoff 2 and standup 2; its negative to none/other.
    expect(text).toContain('| queries of | label | runs | handoff | standup | none/other |');
    expect(text).toContain('| handoff | positive | 4 | **2** | 2 | 0 |');
    expect(text).toContain('| handoff | negative | 1 | 0 | 0 | 1 |');
    expect(text).not.toContain('| standup | positive');
    expect(text).toContain('the 1 skill none of these runs loaded is left out');
    expect(text).toContain('| handoff | 2/4 = 50% [');
    expect(text).not.toMatch(/\| standup \| 1\/2/);
    expect(text).toContain('| handoff | h2: Summarise the session for tomorrow | standup | 2 | 0 | 2 |');
  });

  it('the summary shows every row and column, and every skill’s figures', () => {
    const text = routingMatrixSection(run(measured()), SUMMARY_MATRIX_LIMITS).join('\n');
    expect(text).toContain('| queries of | label | runs | changelog | handoff | standup | none/other |');
    expect(text).toContain('| standup | negative | 2 | 0 | 2 | 0 | 0 |');
    expect(text).toContain('| changelog | no eval set |');
    expect(text).toContain('**SIMULATED**');
  });

  it('says a leg is a slice, a merged matrix how many legs, and a matrix without a verdict why', () => {
    const leg = routingMatrixSection(
      run(measured(matrixFixture(undefined, { shard: { index: 2, count: 3 } }))),
      COMMENT_MATRIX_LIMITS,
    ).join('\n');
    expect(leg).toContain('This is leg 2/3 of the routing matrix');
    const merged = routingMatrixSection(
      run(measured(matrixFixture(undefined, { mergedLegs: 3 }))),
      COMMENT_MATRIX_LIMITS,
    ).join('\n');
    expect(merged).toContain('Merged from 3 legs of a workflow matrix.');
    const none = routingMatrixSection(
      run(
        measured(
          matrixFixture(undefined, { verdict: 'no-verdict', noVerdictReasons: ['3 of 10 runs lost'] }),
        ),
      ),
      COMMENT_MATRIX_LIMITS,
    ).join('\n');
    expect(none).toContain('**No verdict — this matrix is not a measurement:**');
    expect(none).toContain('- 3 of 10 runs lost');
  });

  it('a matrix too large for its budget falls back to the changed rows, then to its headline', () => {
    const report = measured();
    const full = routingMatrixSection(run(report), SUMMARY_MATRIX_LIMITS).join('\n');
    const focused = routingMatrixSection(run(report), COMMENT_MATRIX_LIMITS).join('\n');
    const squeezed = routingMatrixSection(run(report), {
      ...SUMMARY_MATRIX_LIMITS,
      maxChars: focused.length + 10,
    }).join('\n');
    expect(squeezed.length).toBeLessThan(full.length);
    expect(squeezed).toContain('Rows of the changed skills (handoff)');
    const tiny = routingMatrixSection(run(report), { ...SUMMARY_MATRIX_LIMITS, maxChars: 50 }).join('\n');
    expect(tiny).toContain('The matrix is too large to show here');
    expect(tiny).not.toContain('| queries of');
  });

  it('input errors and a matrix not measured say so; no matrix, no section', () => {
    expect(
      routingMatrixSection(run({ kind: 'invalid', problems: ['a/SKILL.md: broken'] }), COMMENT_MATRIX_LIMITS),
    ).toContain('- a/SKILL.md: broken');
    expect(
      routingMatrixSection(run({ kind: 'not-run', why: 'a gate failed' }), COMMENT_MATRIX_LIMITS).join('\n'),
    ).toContain('Not measured: a gate failed.');
    expect(routingMatrixSection(run(undefined), COMMENT_MATRIX_LIMITS)).toEqual([]);
    expect(renderComment(run(undefined), '0.1.0')).not.toContain('Routing matrix');
  });

  it.each(PAYLOADS.filter((p) => p.includes('<')))(
    'goes into the comment and the summary, with hostile names and queries escaped: %j',
    (payload) => {
      const report = matrixFixture(hostile(payload));
      const r = run(measured(report), [report.skills[1]?.name ?? '']);
      for (const body of [renderComment(r, '0.1.0'), renderSummary(r, '0.1.0')]) {
        expect(body).toContain('### Routing matrix');
        // No tag of the user's text survives: every `<` of it is escaped.
        expect(body).not.toMatch(
          /<(script|img|svg|iframe|a |details|base|meta|form|style|noscript|plaintext)/i,
        );
      }
    },
  );
});

describe('concludeWithMatrix', () => {
  const ok = { code: ExitCode.verdict };
  it('a matrix without a verdict is exit 3, one refused for its inputs exit 1; a gate keeps its 2', () => {
    const noVerdict = measured(
      matrixFixture(undefined, { verdict: 'no-verdict', noVerdictReasons: ['lost'] }),
    );
    expect(concludeWithMatrix(ok, run(noVerdict))).toEqual({
      code: ExitCode.noVerdict,
      message: 'no verdict for the routing matrix: lost',
    });
    const invalid = concludeWithMatrix(ok, run({ kind: 'invalid', problems: ['x/SKILL.md: broken'] }));
    expect(invalid.code).toBe(ExitCode.input);
    expect(invalid.message).toContain("1 problem in the routing matrix's inputs");
    const gate = { code: ExitCode.gate, message: 'gate auth failed' };
    expect(concludeWithMatrix(gate, run(noVerdict)).code).toBe(ExitCode.gate);
    expect(concludeWithMatrix(ok, run(measured()))).toEqual(ok);
    expect(concludeWithMatrix(ok, run({ kind: 'not-run', why: 'cancelled' }))).toEqual(ok);
    // A skill's input error stays exit 1; the matrix's no verdict outranks it, as a skill's would.
    expect(concludeWithMatrix({ code: ExitCode.input, message: 'input error' }, run(noVerdict)).code).toBe(
      ExitCode.noVerdict,
    );
  });
});

function shardFile(index: number, count: number, matrix?: RoutingMatrix): ShardResults {
  const dir = `/downloads/leg-${index}`;
  const file = toResultsFile(run(matrix), { index, count }, 'a'.repeat(40), DIR, '0.1.0');
  // Written and read back as the merge job reads it.
  const results = parseResultsFile(JSON.parse(JSON.stringify(file)), `${dir}/results.json`);
  return { file: `${dir}/skilltrigger-results.shard-${index}-of-${count}.json`, dir, results };
}

describe('a leg’s matrix in its results file, and the merge of the legs', () => {
  it('rides in the results file with its paths relative, and comes back resolved in the merge’s folder', () => {
    const leg = shardFile(1, 2, measured(legOf(1, 2)));
    const stored = leg.results.run.matrix;
    expect(stored?.kind === 'measured' && stored.reportPath).toBe('2025-03-14-matrix.json');
    if (stored === undefined) throw new Error('no matrix');
    const back = restoreMatrix(stored, '/downloads/leg-1');
    expect(back.kind === 'measured' && back.reportPath).toBe('/downloads/leg-1/2025-03-14-matrix.json');
  });

  it('a results file without a matrix (older, or routing-matrix off) still reads, and merges to none', () => {
    const old = shardFile(1, 1);
    expect(old.results.run.matrix).toBeUndefined();
    expect(mergeLegMatrices([old], new Date())).toEqual({ kind: 'none' });
  });

  it('the legs’ slices merge into the whole matrix, queries back in order', () => {
    const merged = mergeLegMatrices(
      [shardFile(2, 2, measured(legOf(2, 2))), shardFile(1, 2, measured(legOf(1, 2)))],
      new Date('2025-03-15T00:00:00Z'),
    );
    expect(merged.kind).toBe('merged');
    if (merged.kind !== 'merged') return;
    expect(merged.report.mergedLegs).toBe(2);
    expect(merged.report.queries.map((q) => q.id)).toEqual(matrixFixture().queries.map((q) => q.id));
    expect(merged.report.rows).toEqual(matrixFixture().rows);
  });

  it('refuses legs that disagree (another timeout), or of which only some hold a matrix', () => {
    const other = legOf(2, 2, { settings: { ...matrixFixture().settings, timeoutSeconds: 31 } });
    const refused = mergeLegMatrices(
      [shardFile(1, 2, measured(legOf(1, 2))), shardFile(2, 2, measured(other))],
      new Date(),
    );
    expect(refused.kind).toBe('refused');
    expect(refused.kind === 'refused' && refused.problems[0]).toMatch(
      /routing matrix's legs cannot be merged: \/downloads\/leg-2\/skilltrigger-results\.shard-2-of-2\.json: was measured with other settings/,
    );
    const half = mergeLegMatrices([shardFile(1, 2, measured(legOf(1, 2))), shardFile(2, 2)], new Date());
    expect(half.kind === 'refused' && half.problems[0]).toMatch(/the legs disagree on the routing matrix/);
  });

  it('a leg whose matrix was refused or not measured makes the merged matrix say so', () => {
    const invalid = mergeLegMatrices(
      [
        shardFile(1, 2, { kind: 'invalid', problems: ['a/SKILL.md: broken'] }),
        shardFile(2, 2, { kind: 'invalid', problems: ['a/SKILL.md: broken'] }),
      ],
      new Date(),
    );
    expect(invalid).toEqual({ kind: 'kept', matrix: { kind: 'invalid', problems: ['a/SKILL.md: broken'] } });
    const notRun = mergeLegMatrices(
      [shardFile(1, 2, measured(legOf(1, 2))), shardFile(2, 2, { kind: 'not-run', why: 'a gate failed' })],
      new Date(),
    );
    expect(notRun).toEqual({ kind: 'kept', matrix: { kind: 'not-run', why: 'shard 2/2: a gate failed' } });
  });
});

describe('the reports output', () => {
  const skill = (name: string): MeasuredSkill => ({
    kind: 'measured',
    skill: name,
    file: `.claude/skills/${name}/SKILL.md`,
    descriptionLine: 3,
    change: 'modified',
    report: buildReport(
      buildMeasurement([
        { query: 'write the notes', shouldTrigger: true, hits: 2, runs: 2 },
        { query: 'capital of France', shouldTrigger: false, hits: 0, runs: 2 },
      ]),
    ),
    reportPath: path.join(DIR, `2025-03-14-${name}.json`),
    markdownPath: path.join(DIR, `2025-03-14-${name}.md`),
    warnings: [],
  });

  it('lists the measured skills’ reports in the run’s order, then the routing matrix’s', () => {
    const withSkills = (matrix: RoutingMatrix | undefined): ActionRun => ({
      ...run(matrix),
      skills: [
        skill('alpha'),
        { kind: 'not-run', file: '.claude/skills/x/SKILL.md', skill: 'x' },
        skill('beta'),
      ],
    });
    const skills = [path.join(DIR, '2025-03-14-alpha.json'), path.join(DIR, '2025-03-14-beta.json')];
    expect(reportPaths(withSkills(measured()))).toEqual([
      ...skills,
      path.join(DIR, '2025-03-14-matrix.json'),
    ]);
    // A matrix that was not measured wrote no report: the output holds the skills' alone.
    expect(reportPaths(withSkills(undefined))).toEqual(skills);
    expect(reportPaths(withSkills({ kind: 'not-run', why: 'a gate failed' }))).toEqual(skills);
    expect(reportPaths(withSkills({ kind: 'invalid', problems: ['a/SKILL.md: broken'] }))).toEqual(skills);
    // A leg that no changed skill falls to still lists its slice of the matrix.
    expect(reportPaths(run(measured(), []))).toEqual([path.join(DIR, '2025-03-14-matrix.json')]);
  });
});
