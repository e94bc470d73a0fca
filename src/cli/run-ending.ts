/**
 * How `run` ends, after the report paths: which queries fail, by class, and the commands to take
 * next (the HTML page; `improve` when something fails). Pure: the caller prints the lines.
 */
import type { Measurement, Report } from '../schemas/report.js';

/** Ids shown per class before "and N more". */
const SHOWN = 12;

/** A path or id as one shell word: quoted only when it holds something a shell would read. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9@%+=:,./_-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function ids(list: readonly { id: string }[]): string {
  const shown = list.slice(0, SHOWN).map((q) => q.id);
  return list.length > SHOWN ? `${shown.join(', ')} and ${list.length - SHOWN} more` : shown.join(', ');
}

/**
 * `failing: positives q3, q9 (2 of 10) · negatives q14 (1 of 10)`, with the queries that lost every
 * run apart; `failing: none, all 20 queries pass` when nothing fails.
 */
export function failingLine(m: Measurement): string {
  const positives = m.queries.filter((q) => q.shouldTrigger);
  const negatives = m.queries.filter((q) => !q.shouldTrigger);
  const failed = (list: typeof positives) => list.filter((q) => q.pass === false);
  const parts = [
    ['positives', failed(positives), positives.length],
    ['negatives', failed(negatives), negatives.length],
  ] as const;
  const lost = m.queries.filter((q) => q.pass === null);
  const said = parts
    .filter(([, list]) => list.length > 0)
    .map(([name, list, of]) => `${name} ${ids(list)} (${list.length} of ${of})`);
  if (lost.length > 0) said.push(`not measured ${ids(lost)} (every run lost)`);
  return said.length === 0
    ? `failing: none, all ${m.queries.length} queries pass`
    : `failing: ${said.join(' · ')}`;
}

/** The commands to take next, the first line led by `next:`. */
export function nextLines(
  report: Report,
  where: { json: string; skill: string; evalFile: string },
): string[] {
  const m = report.candidate;
  const steps: [string, string][] = [
    [
      `skilltrigger view ${shellWord(where.json)} --open`,
      'the HTML page: every query, its runs and interval',
    ],
  ];
  const failing = m.queries.some((q) => q.pass === false);
  if (report.verdict === 'ok' && failing)
    steps.push([
      `skilltrigger improve --skill ${shellWord(where.skill)} --eval ${shellWord(where.evalFile)}`,
      'a rewrite from the failing train queries, kept only if it measures better',
    ]);
  return steps.map(([command, why], i) => `${i === 0 ? 'next: ' : '      '}${command}   # ${why}`);
}
