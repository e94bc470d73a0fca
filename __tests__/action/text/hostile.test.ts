import { describe, expect, it } from 'vitest';
import type { ActionRun, MeasuredSkill } from '../../../src/action/results/results.js';
import { renderComment } from '../../../src/action/text/comment.js';
import { renderSummary } from '../../../src/action/text/summary.js';
import { compareReports } from '../../../src/compare/compare.js';
import { composeStickyBody, shaStamp } from '../../../src/system/github-comment.js';
import { fixtureMeasurement, type QuerySpec, reportFixture } from '../../fakes/report-fixture.js';

/**
 * Hostile text in every user-made slot of the PR comment and the job summary (queries, ids, skill
 * names, paths, notes, warnings, reasons, the model name, gate reasons). Each rendering is compared
 * with the same run filled with plain text: the structure (lines, table rows and their cells,
 * headings, list items, HTML tags, code-span backticks, hidden comments) must be identical, and no
 * mention, issue reference, HTML or comment marker from the user may appear raw.
 */

const HEAD = '9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c';
const BASE = '1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d';

/** Each payload is put at the start of every slot (block openers only bite there) and once more inside. */
const PAYLOADS: readonly string[] = [
  '<!-- skilltrigger:results -->',
  '<!-- skilltrigger-sha:0000000 2020-01-01T00:00:00Z -->',
  '@octocat please look',
  '@octo-org/security-team',
  '#123 fixes #4',
  'octo-org/skills#77 and GH-12',
  '<img src=x onerror=alert(1)>',
  '<details><summary>open</summary>',
  '</td></tr></table><script>alert(1)</script>',
  '<a href="https://evil.example">click</a>',
  '**bold** _em_ ~~struck~~ $x^2$',
  '[a link](https://evil.example) ![img](https://evil.example/x.png)',
  '`code` and ```fenced``` and ``double``',
  '| forged | cells | row |',
  'first line\nsecond line\r\n| a | b |\n### heading',
  '\u2028line separator\u2029paragraph separator\u0085next line',
  'zero\u200Bwidth\u200Cjoiner\u200Dand\uFEFFbom\u2060wj',
  '\u202Eoverride\u202C \u2066isolate\u2069 \u200Fmark',
  '> quoted',
  '# heading',
  '- item',
  '+ item',
  '1. ordered',
  '3) ordered',
  '    indented code',
  '```',
  '~~~',
  '---',
  '===',
  '&lt;already&gt; &amp; &#64;entity &#35;1',
  '\\',
  ':+1: https://example.com/path?x=1',
];

/** Text for one slot: plain, or the payload at its start and again inside. */
type Filler = (slot: string) => string;
const plain: Filler = (slot) => `plain ${slot}`;
const hostile =
  (payload: string): Filler =>
  (slot) =>
    `${payload} ${slot} ${payload}`;

function queries(t: Filler, prefix: string): QuerySpec[] {
  return [
    { query: t(`${prefix}-q1`), id: t(`${prefix}-id1`), shouldTrigger: true, outcomes: ['triggered'] },
    { query: t(`${prefix}-q2`), id: t(`${prefix}-id2`), shouldTrigger: true, outcomes: ['not-triggered'] },
    { query: t(`${prefix}-q3`), id: t(`${prefix}-id3`), shouldTrigger: false, outcomes: ['not-triggered'] },
  ];
}

function measured(t: Filler, key: string, extra: Partial<MeasuredSkill>): MeasuredSkill {
  const skill = t(`${key}-skill`);
  return {
    kind: 'measured',
    skill,
    file: t(`${key}/SKILL.md`),
    descriptionLine: 3,
    change: 'renamed',
    previousPath: t(`${key}-old/SKILL.md`),
    report: reportFixture({ skill, candidate: fixtureMeasurement(queries(t, key), { runsPerQuery: 1 }) }),
    reportPath: '/home/runner/work/skills/skills/skilltrigger-results/x.json',
    markdownPath: '/home/runner/work/skills/skills/skilltrigger-results/x.md',
    warnings: [t(`${key}-warning`)],
    ...extra,
  };
}

/** A run with every kind of section, every user slot filled by `t`. */
function scenario(t: Filler): ActionRun {
  const base = reportFixture({
    skill: t('cached-skill'),
    candidate: fixtureMeasurement(queries(t, 'cached'), { runsPerQuery: 1 }),
  });
  const cand = reportFixture({
    skill: t('cached-skill'),
    candidate: fixtureMeasurement(
      queries(t, 'cached').map((q) => ({ ...q, outcomes: ['not-triggered'] })),
      { runsPerQuery: 1 },
    ),
  });
  return {
    event: 'pull_request',
    eventName: 'pull_request',
    prNumber: 5,
    headSha: HEAD,
    baseSha: BASE,
    fromFork: false,
    stage: 'measured',
    gates: [],
    notes: [t('note-1'), t('note-2')],
    settings: { runs: 1, model: t('model'), baseline: 'cache', failOnRegression: false },
    cliVersion: t('cli'),
    skills: [
      measured(t, 'cached', {
        skill: t('cached-skill'),
        report: cand,
        baselineReport: base,
        comparison: compareReports(base, cand, { names: { base: 'baseline', cand: 'this PR' } }),
        baseline: {
          kind: 'cache',
          hit: 'exact',
          sha: BASE,
          createdAt: base.createdAt,
          drift: [t('drift')],
          stale: false,
        },
      }),
      measured(t, 'paired', { baseline: { kind: 'paired', why: t('paired-why') } }),
      measured(t, 'fresh', { baseline: { kind: 'none', why: t('none-why') } }),
      {
        kind: 'skipped',
        file: t('skipped/SKILL.md'),
        change: 'modified',
        reason: 'body-only',
        skill: t('skipped-skill'),
      },
      {
        kind: 'invalid',
        file: t('invalid/SKILL.md'),
        skill: t('invalid-skill'),
        problems: [t('problem-1'), t('problem-2')],
      },
      { kind: 'not-run', file: t('not-run/SKILL.md'), skill: t('not-run-skill') },
    ],
  };
}

/** A push whose gates failed, with reasons quoting what the CLI said. */
function gateScenario(t: Filler): ActionRun {
  return {
    ...scenario(t),
    event: 'push',
    eventName: 'push',
    stage: 'gate-failed',
    gates: [
      { gate: 'auth', status: 'fail', reason: t('auth-reason'), fix: t('auth-fix') },
      { gate: 'round-trip', status: 'fail', reason: t('rt-reason') },
    ],
    skills: [{ kind: 'not-run', file: t('x/SKILL.md'), skill: t('x-skill') }],
  };
}

/** Splits a table row into cells at pipes that are not backslash-escaped. */
function cellsOf(row: string): number {
  return row
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/).length;
}

/** Counts backticks that open or close a code span (an escaped one is text). */
function codeTicks(text: string): number {
  return text.match(/(?<!\\)`/g)?.length ?? 0;
}

const BLOCK_OPENER = /^(?:[-+*]\s|\d+[.)]\s|>|#{1,6}\s|```|~~~|\s{4})/;
const LIST_ITEM = /^\s*(?:>\s*)?[-+*] (.*)$/;

/** What a reader sees as the document's structure, independent of the text in it. */
function structure(markdown: string) {
  const lines = markdown.split('\n');
  return {
    lines: lines.length,
    tableRows: lines.filter((l) => l.startsWith('|')).map(cellsOf),
    headings: lines.filter((l) => /^#{1,6}\s/.test(l)).length,
    listItems: lines.filter((l) => LIST_ITEM.test(l)).length,
    blockquotes: lines.filter((l) => l.startsWith('>')).length,
    fences: lines.filter((l) => /^\s*(?:```|~~~)/.test(l)).length,
    indented: lines.filter((l) => /^ {4}/.test(l)).length,
    tags: (markdown.match(/<\/?[A-Za-z][A-Za-z0-9-]*/g) ?? []).sort(),
    comments: markdown.split('<!--').length - 1,
    codeTicks: codeTicks(markdown),
  };
}

/** What must never appear raw, whatever the user wrote. */
function expectNothingRaw(markdown: string): void {
  expect(markdown).not.toMatch(/@[A-Za-z0-9]/);
  expect(markdown).not.toMatch(/(?<!&)#\d/);
  expect(markdown).not.toMatch(/\bGH-\d/i);
  expect(markdown).not.toMatch(/<(?:img|script|a|td|tr|table)\b/i);
  expect(markdown).not.toContain('<!--');
  expect(markdown).not.toMatch(/[\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF\u2028\u2029\u0085\r]/);
  // A list item's text never starts another block.
  for (const line of markdown.split('\n')) {
    const item = LIST_ITEM.exec(line)?.[1];
    if (item !== undefined) expect(item, line).not.toMatch(BLOCK_OPENER);
  }
}

const renderings = {
  comment: (run: ActionRun) => renderComment(run, '0.1.0'),
  summary: (run: ActionRun) => renderSummary(run, '0.1.0'),
};

describe('hostile user text cannot change the comment or the summary', () => {
  for (const [name, render] of Object.entries(renderings)) {
    for (const [label, build] of [
      ['measured', scenario],
      ['gate failed', gateScenario],
    ] as const) {
      const expected = structure(render(build(plain)));

      it(`${name}, ${label}: the plain scenario has every kind of row the hostile one is checked on`, () => {
        if (label === 'measured') expect(expected.tableRows.length).toBeGreaterThan(10);
        expect(expected.listItems).toBeGreaterThan(0);
      });

      for (const payload of PAYLOADS) {
        it(`${name}, ${label}: ${JSON.stringify(payload)}`, () => {
          const text = render(build(hostile(payload)));
          expect(structure(text)).toEqual(expected);
          expectNothingRaw(text);
        });
      }
    }
  }

  it('the posted comment holds exactly one sticky marker and one sha stamp, both first', () => {
    for (const payload of PAYLOADS) {
      const body = composeStickyBody({
        marker: 'results',
        body: renderComment(scenario(hostile(payload)), '0.1.0'),
        stamp: shaStamp(HEAD, new Date('2026-01-01T00:00:00Z')),
      });
      expect(body.split('<!-- skilltrigger:results -->')).toHaveLength(2);
      expect(body.startsWith('<!-- skilltrigger:results -->\n<!-- skilltrigger-sha:')).toBe(true);
      expect(body.split('<!--')).toHaveLength(3);
    }
  });

  // In the comment, slots this long make sections give up their per-query tables to fit the size
  // budget (a change of structure on purpose, checked in render.test.ts), so only the summary here.
  it('every payload together in every slot keeps the summary’s structure too', () => {
    const all = PAYLOADS.join(' ');
    for (const render of [renderings.summary]) {
      const text = render(scenario(hostile(all)));
      expect(structure(text)).toEqual(structure(render(scenario(plain))));
      expectNothingRaw(text);
    }
  });
});
