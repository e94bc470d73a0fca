import { describe, expect, it } from 'vitest';
import { sessionBudgetReason } from '../../src/improve/budget.js';
import { renderImproveMarkdown } from '../../src/improve/markdown.js';
import { renderHtml } from '../../src/report/html/render.js';
import { STYLE_SHEET } from '../../src/report/html/style.js';
import { IMPROVE_NOTICE, type ImproveReport } from '../../src/schemas/improve.js';
import { expectGolden } from '../fakes/golden.js';
import {
  at,
  attr,
  byClass,
  byTag,
  elements,
  outline,
  PAGE_TEST_VERSION,
  parsePage,
  textOf,
  walk,
} from '../fakes/html-dom.js';
import { hostile, INVISIBLE, PAYLOADS, PRINTABLE, plain, shape } from '../fakes/html-hostile.js';
import { improveFixture } from '../fakes/improve-fixture.js';

/**
 * The improve page (`<date>-<skill>-improve.html`), read back through parse5: its golden outline,
 * the chart's points and accepted path drawn from the counts, the texts shown (the improve JSON
 * holds them) and the hostile-text corpus in every text slot, checked on the DOM.
 */

const page = (r: ImproveReport) => renderHtml({ kind: 'improve', report: r }, PAGE_TEST_VERSION);

/** The session's cost lines on the page (the `cost` paragraphs of the recommendation). */
const costTexts = (r: ImproveReport) =>
  byClass(at(byTag(parsePage(page(r)), 'section'), 0), 'cost').map((el) => textOf(el));

/**
 * A session `--max-cost-usd 2` stopped before the holdout check: no verdict, the winner unchecked,
 * its stop reason made the way the session makes it (`phase` is a text slot the reason quotes).
 */
function budgetStopped(t: (slot: string) => string = (x) => x): ImproveReport {
  const base = improveFixture(t);
  const stop = {
    spentUsd: 1.5,
    nextEstimateUsd: 0.6,
    maxUsd: 2,
    before: 'run' as const,
    phase: t('holdout'),
  };
  return improveFixture(t, {
    settings: { ...base.settings, maxCostUsd: 2 },
    stopReason: sessionBudgetReason(stop),
    final: { ...base.final, holdout: null, recommendation: 'no-verdict', written: false },
    cost: { usd: 1.5, measuredUsd: 1.25, rewriteUsd: 0.25, rewriteCalls: 4 },
    budgetStop: stop,
  });
}

describe('the improve page', () => {
  it('structure (golden outline)', () => {
    expectGolden(import.meta.url, 'html-improve.outline.txt', outline(parsePage(page(improveFixture()))));
  });

  it('a session with no candidate and no winner (golden outline)', () => {
    const none = improveFixture(undefined, {
      candidates: [],
      stopReason: 'the rewrite call failed: no answer',
      simulated: false,
      final: { winner: null, holdout: null, recommendation: 'keep-original', written: false },
    });
    expectGolden(import.meta.url, 'html-improve-none.outline.txt', outline(parsePage(page(none))));
  });

  it('says first that it holds the description texts, and that the runs were simulated', () => {
    const doc = parsePage(page(improveFixture()));
    expect(attr(at(byTag(doc, 'body'), 0), 'data-page')).toBe('improve');
    const banners = byClass(doc, 'banner');
    expect(textOf(at(banners, 0))).toContain(IMPROVE_NOTICE);
    expect(textOf(at(banners, 1))).toMatch(/^Simulated:/);
    const order = elements(doc);
    expect(order.indexOf(at(banners, 0))).toBeLessThan(order.indexOf(at(byTag(doc, 'svg'), 0)));
  });

  it("draws each candidate's train rate at its iteration, the accepted path, and the holdout where measured", () => {
    const doc = parsePage(page(improveFixture()));
    const [positives, negatives] = byClass(doc, 'trend');
    if (!positives || !negatives) throw new Error('expected two charts');
    const titles = (svg: typeof positives, cls: string) =>
      byClass(svg, cls).map((el) => textOf(at(byTag(el, 'title'), 0)));
    // The original and the accepted iteration 2; the rejected 1 and 4; the repeat, unmeasured.
    expect(titles(positives, 'accepted')).toEqual([
      'original, train: 0/6 triggered (0%), 95% interval [0%, 39%]',
      'iteration 2, train: 6/6 triggered (100%), 95% interval [61%, 100%]; accepted',
    ]);
    expect(titles(positives, 'rejected')).toEqual([
      'iteration 1, train: 6/6 triggered (100%), 95% interval [61%, 100%]; rejected',
      'iteration 4, train: 5/6 triggered (83%), 95% interval [44%, 97%]; rejected',
    ]);
    expect(titles(negatives, 'unmeasured')).toEqual(['iteration 3: not measured (repeat); rejected']);
    expect(titles(negatives, 'holdout')).toEqual([
      'original, holdout: 0/3 fired (0%), 95% interval [0%, 56%]',
      'winner (iteration 2), holdout: 0/3 fired (0%), 95% interval [0%, 56%]',
    ]);
    // x: 38 + iteration × 102 (four iterations over 408 units); y: 10 + (1 − rate) × 154.
    // The path starts at the original's 0%, holds to iteration 2, rises to 100% and holds to the end.
    expect(attr(at(byClass(positives, 'accepted-path'), 0), 'd')).toBe('M38 164H242V10H446');
    expect(attr(at(byClass(negatives, 'accepted-path'), 0), 'd')).toBe('M38 164H242V164H446');
    const dot4 = at(byClass(positives, 'rejected'), 1);
    expect([attr(dot4, 'cx'), attr(dot4, 'cy')]).toEqual(['446', '35.7']);
  });

  it('shows every text, the winner and the reasons, as text', () => {
    const doc = parsePage(page(improveFixture()));
    const text = textOf(doc);
    for (const s of [
      'Helps with notes.',
      'Use for absolutely every request.',
      'Writes the handoff note.',
      'regression on train: negatives fired 0/6 → 6/6',
      'held: positives triggered 0/3 → 3/3',
      'reached --iterations 4',
      'Adopt the winner',
    ]) {
      expect(text).toContain(s);
    }
    const rows = byTag(at(byTag(doc, 'tbody'), 2), 'tr');
    expect(rows.map((r) => textOf(at(byClass(r, 'badge'), byClass(r, 'badge').length - 1)))).toEqual([
      'rejected',
      'accepted',
      'rejected',
      'rejected',
    ]);
    expect(textOf(at(rows, 1))).toContain('winner');
  });

  it('says what a priced session spent, in the words of its Markdown', () => {
    const report = improveFixture();
    expect(costTexts(report)).toEqual(['Cost: $0.4321 (measured runs $0.4000; 4 rewrite calls $0.0321).']);
    expect(renderImproveMarkdown(report)).toContain(
      '\nCost: $0.4321 (measured runs $0.4000; 4 rewrite calls $0.0321).\n',
    );
    const one = improveFixture(undefined, {
      cost: { usd: 1.25, measuredUsd: 1, rewriteUsd: 0.25, rewriteCalls: 1 },
    });
    expect(costTexts(one)).toEqual(['Cost: $1.25 (measured runs $1.00; 1 rewrite call $0.2500).']);
  });

  it('says the price is unknown when a run or a rewrite call had none, with the budget when there is one', () => {
    const { cost: _priced, ...unpriced } = improveFixture();
    const unknown =
      "Cost: price unknown (a measured run or a rewrite call could not be priced; pass --prices with the model's rates to price it).";
    expect(costTexts(unpriced)).toEqual([unknown]);
    expect(renderImproveMarkdown(unpriced)).toContain(`\n${unknown}\n`);
    const budgeted = { ...unpriced, settings: { ...unpriced.settings, maxCostUsd: 2 } };
    expect(costTexts(budgeted)).toEqual([`Budget: --max-cost-usd $2.00. ${unknown}`]);
    expect(renderImproveMarkdown(budgeted)).toContain(`\nBudget: --max-cost-usd $2.00. ${unknown}\n`);
    // A version 1 report has no cost by its version, not for want of a price: nothing is said.
    expect(costTexts({ ...unpriced, schemaVersion: 1 })).toEqual([]);
    expect(renderImproveMarkdown({ ...unpriced, schemaVersion: 1 })).not.toContain('Cost:');
  });

  it('a budget stop: no verdict first, the stop reason, then the spend of the budget; no holdout, no winner written', () => {
    const report = budgetStopped();
    const doc = parsePage(page(report));
    const section = at(byTag(doc, 'section'), 0);
    expect(attr(section, 'id')).toBe('recommendation');
    const paragraphs = byTag(section, 'p').map((el) => textOf(el));
    expect(paragraphs[0]).toBe(
      'No verdict: --max-cost-usd stopped the session before it could judge; keep the original (nothing was written).',
    );
    const stopped =
      'Stopped: budget: stopped before a measured run (holdout) that could take the spend past --max-cost-usd $2.00 ($1.50 spent, the next estimated at $0.6000); what was measured is in the report.';
    const cost = 'Cost: $1.50 of --max-cost-usd $2.00 (measured runs $1.25; 4 rewrite calls $0.2500).';
    expect(paragraphs.slice(-2)).toEqual([stopped, cost]);
    expect(byClass(section, 'holdout')).toEqual([]);
    expect(textOf(section)).not.toContain('SKILL.md was updated');
    // The Markdown says the same (its stop reason escaped for Markdown), in the same order.
    const md = renderImproveMarkdown(report);
    expect(md).toMatch(/\nStopped: budget: stopped before a measured run \\\(holdout\\\) .*\.\n\n(.*)\n/);
    expect(/\nStopped: budget: .*\n\n(.*)\n/.exec(md)?.[1]).toBe(cost);
  });

  it('uses only the elements, attributes and style classes the renderer writes: no URL, no script', () => {
    const doc = parsePage(page(improveFixture()));
    const allowed = new Set(
      'html head meta title style body header footer section h1 h2 p div span strong table thead tbody tr th td dl dt dd svg rect path line circle text figure figcaption'.split(
        ' ',
      ),
    );
    for (const el of elements(doc)) {
      expect(allowed, el.tagName).toContain(el.tagName);
      for (const a of el.attrs) expect(a.name, el.tagName).not.toMatch(/^(on|href|src|xlink|style)/);
    }
    for (const cls of ['trend', 'accepted-path', 'pt', 'grid', 'axis', 'description-text', 'quote']) {
      expect(STYLE_SHEET).toContain(`.${cls}`);
    }
    expect([...walk(doc)].filter((n) => n.nodeName === '#comment')).toEqual([]);
  });
});

describe('the improve page: the hostile-text corpus, on the parsed DOM', () => {
  const reference = parsePage(page(improveFixture(plain)));
  const SLOTS = [
    'handoff',
    'tool',
    'model',
    'Helps with notes.',
    'Use for absolutely every request.',
    'Writes the handoff note.',
    'not a significant improvement',
    'held: positives triggered 0/3 → 3/3',
    'reached --iterations 4',
  ];

  const stoppedReference = parsePage(page(budgetStopped(plain)));

  /** A hostile page parsed: the shape of its plain twin, no user text in an attribute, nothing hidden. */
  function parsedSafe(report: ImproveReport, twin: typeof reference) {
    const doc = parsePage(page(report));
    expect(shape(doc)).toEqual(shape(twin));
    for (const el of elements(doc)) {
      for (const a of el.attrs) expect(a.value, `${el.tagName} ${a.name}`).not.toContain('SLOT-');
    }
    expect(textOf(doc)).not.toMatch(INVISIBLE);
    return doc;
  }

  for (const payload of PAYLOADS) {
    it(`${JSON.stringify(payload).slice(0, 70)}`, () => {
      const doc = parsedSafe(improveFixture(hostile(payload)), reference);
      const text = textOf(doc);
      for (const slot of SLOTS) expect(text, slot).toContain(`SLOT-${slot}`);
      if (PRINTABLE.test(payload)) expect(text).toContain(`${payload} SLOT-Helps with notes. ${payload}`);
      expect(textOf(at(byTag(doc, 'title'), 0))).toContain('SLOT-handoff');
    });

    // A budget stop: its reason quotes the phase, and the cost line follows it.
    it(`budget stop: ${JSON.stringify(payload).slice(0, 60)}`, () => {
      const doc = parsedSafe(budgetStopped(hostile(payload)), stoppedReference);
      const text = textOf(doc);
      expect(text).toContain('SLOT-holdout');
      expect(textOf(at(byClass(doc, 'cost'), 0))).toBe(
        'Cost: $1.50 of --max-cost-usd $2.00 (measured runs $1.25; 4 rewrite calls $0.2500).',
      );
      if (PRINTABLE.test(payload)) expect(text).toContain(`(${payload} SLOT-holdout ${payload})`);
    });
  }
});
