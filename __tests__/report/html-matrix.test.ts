import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html/render.js';
import { STYLE_SHEET } from '../../src/report/html/style.js';
import type { MatrixReport } from '../../src/schemas/matrix.js';
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
import { matrixFixture } from '../fakes/matrix-fixture.js';

/**
 * The matrix page, read back through parse5: its golden outline, the heatmap's rows (owners) ×
 * columns (loaded skills, then none/other) drawn from the rows' counts, the stolen queries, and the
 * hostile-text corpus in every user-made slot (skill names, queries, ids, reasons, model names).
 */

const page = (r: MatrixReport) => renderHtml({ kind: 'matrix', report: r }, PAGE_TEST_VERSION);

describe('the matrix page', () => {
  it('structure (golden outline)', () => {
    expectGolden(import.meta.url, 'html-matrix.outline.txt', outline(parsePage(page(matrixFixture()))));
  });

  it('a sharded leg with no verdict and nothing stolen (golden outline)', () => {
    const leg = matrixFixture(undefined, {
      verdict: 'no-verdict',
      noVerdictReasons: ['3 of 10 runs were lost (30%), above the 20% limit'],
      shard: { index: 2, count: 3 },
      stolen: [],
      simulated: false,
    });
    expectGolden(import.meta.url, 'html-matrix-leg.outline.txt', outline(parsePage(page(leg))));
  });

  it('draws rows of owners × columns of loaded skills, then none/other, shaded by share, owner outlined', () => {
    const doc = parsePage(page(matrixFixture()));
    expect(attr(at(byTag(doc, 'body'), 0), 'data-page')).toBe('matrix');
    const table = at(byClass(doc, 'heatmap'), 0);
    expect(byTag(at(byTag(table, 'thead'), 0), 'th').map(textOf)).toEqual([
      'Owner',
      'changelog',
      'handoff',
      'standup',
      'none/other',
    ]);
    const rows = byTag(at(byTag(table, 'tbody'), 0), 'tr');
    expect(rows).toHaveLength(4);
    const cells = (i: number) => byTag(at(rows, i), 'td');
    // handoff's positives: 4 runs, 2 to handoff (its own column), 2 to standup.
    expect(cells(0).map(textOf)).toEqual(['0 (0%)', '2 (50%)', '2 (50%)', '0 (0%)']);
    expect(cells(0).map((c) => attr(c, 'class'))).toEqual(['heat h0', 'heat h3 own', 'heat h3', 'heat h0']);
    // standup's negatives: every run went to handoff, the darkest shade.
    expect(cells(3).map((c) => attr(c, 'class'))).toEqual(['heat h0', 'heat h5', 'heat h0 own', 'heat h0']);
    for (const level of [0, 1, 2, 3, 4, 5]) {
      if (level > 0) expect(STYLE_SHEET).toContain(`.heat.h${level} {`);
    }
    expect(STYLE_SHEET).toContain('.heat.own {');
  });

  it('lists the stolen queries, and each skill’s recall and precision with its interval', () => {
    const doc = parsePage(page(matrixFixture()));
    const stolen = at(byTag(doc, 'section'), 1);
    expect(attr(stolen, 'id')).toBe('stolen');
    const rows = byTag(at(byTag(stolen, 'tbody'), 0), 'tr');
    expect(rows.map((r) => byTag(r, 'td').map(textOf))).toEqual([
      ['Summarise the session for tomorrowh2', 'handoff', 'standup', '0 / 2 / 2'],
    ]);
    const figures = byTag(at(byTag(at(byTag(doc, 'section'), 2), 'tbody'), 0), 'tr');
    expect(textOf(at(figures, 0))).toContain('no eval set');
    expect(textOf(at(figures, 2))).toContain('1/3 (33%) [6%, 79%]');
  });

  it('shows no description text, only bytes and SHA-256; only the renderer’s own elements', () => {
    const doc = parsePage(page(matrixFixture()));
    expect(textOf(doc)).toContain('description 60 bytes, SHA-256 bbbbbbbbbbbb…');
    const allowed = new Set(
      'html head meta title style body header footer section h1 h2 p div span strong table thead tbody tr th td dl dt dd svg rect path line title'.split(
        ' ',
      ),
    );
    for (const el of elements(doc)) {
      expect(allowed, el.tagName).toContain(el.tagName);
      for (const a of el.attrs) expect(a.name, el.tagName).not.toMatch(/^(on|href|src|xlink|style)/);
    }
    expect([...walk(doc)].filter((n) => n.nodeName === '#comment')).toEqual([]);
  });
});

describe('the matrix page: the hostile-text corpus, on the parsed DOM', () => {
  const reference = parsePage(page(matrixFixture(plain)));
  const SLOTS = [
    'handoff',
    'standup',
    'changelog',
    'Summarise the session for tomorrow',
    'h2',
    'model',
    'reported',
    'cli',
  ];

  for (const payload of PAYLOADS) {
    it(`${JSON.stringify(payload).slice(0, 70)}`, () => {
      const doc = parsePage(page(matrixFixture(hostile(payload))));
      expect(shape(doc)).toEqual(shape(reference));
      for (const el of elements(doc)) {
        for (const a of el.attrs) expect(a.value, `${el.tagName} ${a.name}`).not.toContain('SLOT-');
      }
      const text = textOf(doc);
      expect(text).not.toMatch(INVISIBLE);
      for (const slot of SLOTS) expect(text, slot).toContain(`SLOT-${slot}`);
      if (PRINTABLE.test(payload)) expect(text).toContain(`${payload} SLOT-handoff ${payload}`);
    });
  }
});
