import { describe, expect, it } from 'vitest';
import { IMPROVE_NOTICE, type ImproveReport } from '../../src/improve/schema.js';
import { renderHtml } from '../../src/report/html/render.js';
import { STYLE_SHEET } from '../../src/report/html/style.js';
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

  for (const payload of PAYLOADS) {
    it(`${JSON.stringify(payload).slice(0, 70)}`, () => {
      const doc = parsePage(page(improveFixture(hostile(payload))));
      expect(shape(doc)).toEqual(shape(reference));
      for (const el of elements(doc)) {
        for (const a of el.attrs) expect(a.value, `${el.tagName} ${a.name}`).not.toContain('SLOT-');
      }
      const text = textOf(doc);
      expect(text).not.toMatch(INVISIBLE);
      for (const slot of SLOTS) expect(text, slot).toContain(`SLOT-${slot}`);
      if (PRINTABLE.test(payload)) expect(text).toContain(`${payload} SLOT-Helps with notes. ${payload}`);
      expect(textOf(at(byTag(doc, 'title'), 0))).toContain('SLOT-handoff');
    });
  }
});
