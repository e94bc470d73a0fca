import { describe, expect, it } from 'vitest';
import { pairedByModel } from '../../src/compare/by-model.js';
import { costOf } from '../../src/cost/cost.js';
import { DEFAULT_PRICE_TABLE } from '../../src/cost/price-table.js';
import type { RunResult } from '../../src/measure/loop-spec.js';
import { renderReportHtml } from '../../src/report/html/render.js';
import { renderJunit } from '../../src/report/junit.js';
import { byClass, byTag, elements, parsePage, textOf } from '../fakes/html-dom.js';
import { parseJunit } from '../fakes/junit-shape.js';
import { CACHED_RUN_USAGE, modelRun, modelsReport, TWO_QUERIES } from '../fakes/models-report.js';

/** The HTML run page and the JUnit file of a report of several models: a column (a suite) per model, and the cost. */
const HAIKU = 'claude-haiku-4-5';
const SONNET = 'claude-sonnet-4-5';
const items = TWO_QUERIES;
const usage = CACHED_RUN_USAGE;
const runOf = (model: string, kind: 'triggered' | 'not-triggered' | 'timeout'): RunResult =>
  modelRun(model, kind, usage);
const perRun = (m: string) => {
  const c = costOf(usage, m, DEFAULT_PRICE_TABLE);
  return c.kind === 'priced' ? c.usd : Number.NaN;
};

/** Haiku loads q1 every time; Sonnet never (and times out once); neither fires on q2. With `baseline`, the baseline the other way round. */
function twoModels(models: string[] = [HAIKU, SONNET], baseline = false) {
  const a = models[0] ?? HAIKU;
  const b = models[1] ?? a;
  const alike = [a, b, b, a, a, b];
  return modelsReport({
    items,
    models,
    runsPerQuery: 3,
    records: [
      [
        runOf(a, 'triggered'),
        runOf(b, 'not-triggered'),
        runOf(b, 'timeout'),
        runOf(a, 'triggered'),
        runOf(a, 'triggered'),
        runOf(b, 'not-triggered'),
      ],
      alike.map((m) => runOf(m, 'not-triggered')),
    ],
    ...(baseline
      ? {
          baseline: [
            alike.map((m) => runOf(m, m === a ? 'not-triggered' : 'triggered')),
            alike.map((m) => runOf(m, 'not-triggered')),
          ],
        }
      : {}),
  });
}

describe('JUnit with several models', () => {
  it('gives each model a suite and each model’s query a testcase of its own, judged on its runs', () => {
    const doc = parseJunit(renderJunit(twoModels()));
    expect(doc.suites.map((s) => s.name)).toEqual([`handoff · ${HAIKU}`, `handoff · ${SONNET}`]);
    expect(doc.tests).toBe(4);
    const [haiku, sonnet] = doc.suites;
    expect(haiku?.failures).toBe(0);
    expect(sonnet?.failures).toBe(1);
    const failing = sonnet?.cases.find((c) => c.failure);
    expect(failing?.name).toBe(`[${SONNET}] q1: write the handoff`);
    expect(failing?.classname).toBe(`handoff.${SONNET}.positives`);
    // Sonnet's own runs only: 0 of its 2 measured runs, its timeout named, Haiku's hits nowhere.
    expect(failing?.failure?.message).toBe('should trigger: triggered 0/2 runs (0%); passes above 50%');
    expect(failing?.failure?.text).toContain('outcomes in run order: not-triggered, timeout, not-triggered');
    expect(failing?.failure?.text).toContain('1 of 3 runs lost (1 timeouts, 0 errors), counted apart');
    expect(failing?.time).toBe(3);
    expect(haiku?.properties.model).toBe(HAIKU);
    expect(Number(haiku?.properties['cost-usd'])).toBeCloseTo(6 * perRun(HAIKU), 6);
    expect(Number(sonnet?.properties['cost-usd'])).toBeCloseTo(6 * perRun(SONNET), 6);
  });

  it('keeps one suite with a cost property for a single model', () => {
    const doc = parseJunit(renderJunit(twoModels([HAIKU])));
    expect(doc.suites).toHaveLength(1);
    expect(doc.suites[0]?.cases.every((c) => !c.name.startsWith('['))).toBe(true);
    expect(Number(doc.suites[0]?.properties['cost-usd'])).toBeCloseTo(12 * perRun(HAIKU), 6);
  });
});

describe('the HTML run page with several models', () => {
  it('shows a column per model, each query’s hits on each, and the cost', () => {
    const doc = parsePage(renderReportHtml(twoModels(), '0.1.0'));
    const section = elements(doc).find((e) => e.attrs.some((a) => a.name === 'id' && a.value === 'models'));
    if (!section) throw new Error('no By model section');
    const [totals, queries] = byTag(section, 'table');
    expect(byTag(totals ?? section, 'th').map(textOf)).toEqual([
      '',
      HAIKU,
      SONNET,
      'Positives triggered',
      'Negatives fired',
      'Verdict',
    ]);
    const q1 = byTag(queries ?? section, 'tr')[1];
    const cells = byTag(q1 ?? section, 'td').map(textOf);
    expect(cells[2]).toContain('3/3 (100%)');
    expect(cells[2]).toContain('pass');
    expect(cells[3]).toContain('0/2 (0%)');
    expect(cells[3]).toContain('1 lost');
    expect(cells[3]).toContain('fail');
    const cost = byClass(doc, 'cost').map(textOf).join('\n');
    expect(cost).toMatch(new RegExp(`^cost: \\$[\\d.]+ \\(${HAIKU} \\$[\\d.]+, ${SONNET} \\$[\\d.]+\\)`));
  });

  it('escapes a model name, in the page and in the JUnit file', () => {
    const evil = '<img src=x onerror=alert(1)>';
    const report = twoModels([HAIKU, evil]);
    const page = renderReportHtml(report, '0.1.0');
    expect(page).not.toContain(evil);
    const doc = parsePage(page);
    expect(byTag(doc, 'img')).toHaveLength(0);
    expect(byTag(doc, 'th').map(textOf)).toContain(evil);
    expect(parseJunit(renderJunit(report)).suites[1]?.name).toBe(`handoff · ${evil}`);
  });

  it('a single model’s page has no By model section, and still its cost', () => {
    const page = renderReportHtml(twoModels([HAIKU]), '0.1.0');
    expect(page).not.toContain('id="models"');
    expect(byClass(parsePage(page), 'cost').map(textOf).join('')).toMatch(/^cost: \$/);
  });
});

describe('the HTML paired page with several models', () => {
  it('says each model’s label and the standing before the pooled numbers, and what they pool', () => {
    const measured = twoModels([HAIKU, SONNET], true);
    const byModel = pairedByModel(measured);
    // One query at three runs a side: too few for either model's change to pass noise.
    expect(byModel?.models[SONNET]?.positives).toMatchObject({
      base: { hits: 3, runs: 3 },
      cand: { hits: 0, runs: 2 },
    });
    expect(byModel?.label).toBe('noise');
    const page = renderReportHtml({ ...measured, ...(byModel ? { pairedByModel: byModel } : {}) }, '0.1.0');
    const doc = parsePage(page);
    const headlines = byClass(doc, 'headline').map(textOf);
    expect(headlines[0]).toBe(
      'Overall, by model: noise (a regression on any model is the skill’s regression)',
    );
    expect(headlines[1]).toMatch(/^Overall, all models pooled: /);
    const rows = byTag(doc, 'tr').map(textOf);
    expect(rows).toContain(`${SONNET}3/3 → 0/2noise0/3 → 0/3noisenoise`);
    // Sonnet lost a run on the candidate side only: pooling would not compare like with like.
    expect(page).toContain('some query ran a model more often on one side than the other');
  });
});
