import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeText, html } from '../../src/report/html/markup.js';
import { CONTENT_SECURITY_POLICY } from '../../src/report/html/page.js';
import { type HtmlPage, renderHtml, renderReportHtml } from '../../src/report/html/render.js';
import { STYLE_SHEET } from '../../src/report/html/style.js';
import type { Report } from '../../src/schemas/report.js';
import { expectGolden as expectGoldenFile } from '../fakes/golden.js';
import { attr, byClass, byTag, elements, outline, parsePage, textOf, walk } from '../fakes/html-dom.js';
import { type Filler, hostile, INVISIBLE, PAYLOADS, PRINTABLE, plain, shape } from '../fakes/html-hostile.js';
import {
  FIXTURE_BASELINE_DESCRIPTION,
  FIXTURE_DESCRIPTION,
  FIXTURE_PATHS,
  FIXTURE_QUERIES,
  FIXTURE_ROSTER,
  FIXTURE_STUB,
  fixtureMeasurement,
  pairedReportFixture,
  reportFixture,
} from '../fakes/report-fixture.js';

/**
 * The HTML pages, read back through a real HTML parser (parse5): golden outlines of their
 * structure, the policy that lets them load nothing, and the hostile-text corpus checked on the
 * parsed DOM.
 */

const VERSION = '0.1.0';

/** The element (or entry) a test expects to be there; its absence fails the test by name. */
function at<T>(list: readonly T[] | Readonly<Record<string, T>>, key: number | string): T {
  const value = (list as Record<string | number, T | undefined>)[key];
  if (value === undefined) throw new Error(`expected an entry ${key}, found none`);
  return value;
}

/** Compares with `__golden__/<name>`; `UPDATE_GOLDEN=1` rewrites it (read the diff before committing). */
function expectGolden(name: string, actual: string): void {
  expectGoldenFile(import.meta.url, name, actual);
}

const noVerdictRun = reportFixture({
  candidate: fixtureMeasurement([
    ...FIXTURE_QUERIES.slice(0, 6),
    {
      id: 'q7',
      query: 'Convert this CSV into a PDF report',
      shouldTrigger: false,
      outcomes: ['error:rate-limit', 'error:rate-limit'],
    },
    {
      id: 'q8',
      query: 'Anything else?',
      shouldTrigger: false,
      outcomes: ['not-triggered', 'error:overloaded'],
      extra: { split: 'holdout' },
    },
  ]),
  verdict: 'no-verdict',
  simulated: true,
});

/** A later report of the same skill, in a changed environment, with a better description. */
const laterRun = reportFixture({
  createdAt: '2025-03-21T10:00:00.000Z',
  cli: { version: '2.1.330' },
  environment: { memoryFiles: { project: 1, user: 1 }, hooks: 2, mcpServers: 1 },
  candidate: fixtureMeasurement(
    FIXTURE_QUERIES.map((q) => ({
      ...q,
      outcomes: q.shouldTrigger ? ['triggered', 'triggered'] : ['not-triggered', 'not-triggered'],
    })),
    { description: `${FIXTURE_DESCRIPTION} Also scanned PDFs.` },
  ),
});

const PAGES: Record<string, HtmlPage> = {
  run: { kind: 'report', report: reportFixture() },
  'run-no-verdict': { kind: 'report', report: noVerdictRun },
  paired: { kind: 'report', report: pairedReportFixture() },
  compare: {
    kind: 'compare',
    base: reportFixture(),
    cand: laterRun,
    names: { base: '2025-03-14-pdf-tables.json', cand: '2025-03-21-pdf-tables.json' },
  },
};

describe('the HTML pages: structure (golden outlines)', () => {
  for (const [name, page] of Object.entries(PAGES)) {
    it(`${name}`, () => {
      expectGolden(`html-${name}.outline.txt`, outline(parsePage(renderHtml(page, VERSION))));
    });
  }

  it('a single report renders as the run page, a paired one as the paired page', () => {
    const kindOf = (r: Report) =>
      attr(at(byTag(parsePage(renderReportHtml(r, VERSION)), 'body'), 0), 'data-page');
    expect(kindOf(reportFixture())).toBe('run');
    expect(kindOf(pairedReportFixture())).toBe('paired');
  });

  it('draws, per query, the rate with its 95% interval and the threshold, and one dot per run', () => {
    const doc = parsePage(renderReportHtml(reportFixture(), VERSION));
    const rows = byTag(at(byTag(doc, 'tbody'), 1), 'tr');
    expect(rows).toHaveLength(FIXTURE_QUERIES.length);
    // q2: 1 of 2 runs triggered: Wilson's 95% interval is [9.5%, 90.5%].
    const q2 = at(rows, 1);
    expect(textOf(q2)).toContain('1/2 (50%) [9%, 91%]');
    const bar = at(byClass(q2, 'rate'), 0);
    expect(textOf(at(byTag(bar, 'title'), 0))).toBe(
      '1/2 runs triggered (50%), 95% interval [9%, 91%]; threshold 0.5',
    );
    // The threshold line sits at 0.5 of the 172-unit scale that starts at x = 4.
    expect(attr(at(byClass(bar, 'threshold'), 0), 'x1')).toBe('90');
    expect(attr(at(byClass(bar, 'bar'), 0), 'width')).toBe('86');
    // q3: triggered, then a timeout: two dots, one of each kind.
    const dots = byClass(at(rows, 2), 'dot');
    expect(dots.map((d) => attr(d, 'class'))).toEqual(['dot hit', 'dot timeout']);
    expect(dots.map((d) => textOf(d))).toEqual(['run 1: triggered', 'run 2: timed out']);
  });

  it('says first thing when there is no verdict, and that the runs were simulated', () => {
    const doc = parsePage(renderReportHtml(noVerdictRun, VERSION));
    const banners = byClass(doc, 'banner');
    expect(textOf(at(banners, 0))).toMatch(/^No verdict: this is not a measurement\./);
    expect(textOf(at(banners, 0))).toContain('lost every run: q7');
    expect(textOf(at(banners, 1))).toMatch(/^Simulated:/);
    // The banners come before the headline and every number.
    const order = elements(doc).map((el) => attr(el, 'class') ?? '');
    expect(order.indexOf('banner stop')).toBeLessThan(order.indexOf('headline'));
  });

  it('warns, as the Markdown does, when the price table and the CLI’s own figure differ: both figures, each side named', () => {
    const cost = (cliUsd: number): NonNullable<Report['candidate']['cost']> => ({
      usd: 0.1,
      pricedRuns: 2,
      unpricedRuns: 0,
      unknownModels: [],
      byModel: { 'claude-haiku-4-5': 0.1 },
      check: {
        runs: 2,
        models: [
          {
            model: 'claude-haiku-4-5',
            runs: 2,
            tableUsd: 0.1,
            cliUsd,
            differs: Math.abs(cliUsd - 0.1) > 0.001,
            ...(cliUsd === 0.1
              ? {}
              : { suspect: { rate: 'output', tableRate: 5, impliedRate: 4, alsoFits: [] } }),
          },
        ],
      },
    });
    const warning =
      "Warning: the price table and the CLI's own total_cost_usd differ for claude-haiku-4-5: $0.1000 from the table, $0.0800 from the CLI, over the 2 runs that reported it; the output rate most likely differs: the table has $5/M, the CLI's figure implies $4/M";
    const base = reportFixture();
    const run = parsePage(
      renderReportHtml(reportFixture({ candidate: { ...base.candidate, cost: cost(0.08) } }), VERSION),
    );
    const runWarnings = byClass(run, 'banner')
      .map(textOf)
      .filter((t) => t.startsWith('Warning:'));
    expect(runWarnings).toEqual([expect.stringContaining(warning)]);
    // Before the headline and every number.
    const order = elements(run).map((el) => textOf(el));
    expect(order.findIndex((t) => t.startsWith('Warning:'))).toBeLessThan(
      elements(run).findIndex((el) => attr(el, 'class') === 'headline'),
    );
    // Figures that agree say nothing.
    const agreed = parsePage(
      renderReportHtml(reportFixture({ candidate: { ...base.candidate, cost: cost(0.1) } }), VERSION),
    );
    expect(
      byClass(agreed, 'banner')
        .map(textOf)
        .filter((t) => t.includes('total_cost_usd')),
    ).toEqual([]);
    // A paired page names the side that differs.
    const paired = pairedReportFixture();
    const doc = parsePage(
      renderReportHtml(
        { ...paired, baseline: paired.baseline && { ...paired.baseline, cost: cost(0.08) } },
        VERSION,
      ),
    );
    const sideWarnings = byClass(doc, 'banner')
      .map(textOf)
      .filter((t) => t.includes('total_cost_usd'));
    expect(sideWarnings).toHaveLength(1);
    expect(sideWarnings[0]).toMatch(
      /^Warning: baseline: the price table and the CLI's own total_cost_usd differ/,
    );
  });

  it('puts the environment warnings at the top of a comparison of two reports', () => {
    const doc = parsePage(renderHtml(at(PAGES, 'compare'), VERSION));
    const first = at(byClass(doc, 'banner'), 0);
    expect(textOf(first)).toContain('Claude CLI version differs');
    expect(textOf(first)).toContain('inherited environment differs');
    const order = elements(doc);
    expect(order.indexOf(first)).toBeLessThan(order.indexOf(at(byTag(doc, 'table'), 0)));
  });
});

describe('the HTML pages: a self-contained page that loads nothing', () => {
  /** Every element the renderer writes; anything else came from somewhere it should not have. */
  const ALLOWED = new Set(
    'html head meta title style body header footer section h1 h2 h3 p div span strong ul li table thead tbody tr th td dl dt dd fieldset legend label input svg rect path line circle'.split(
      ' ',
    ),
  );
  const ALLOWED_ATTRIBUTES = new Set(
    'lang charset http-equiv content name class id role aria-label aria-hidden type checked width height viewBox x y rx x1 y1 x2 y2 cx cy r d data-page data-class data-result data-split data-notes data-label'.split(
      ' ',
    ),
  );

  for (const [name, page] of Object.entries(PAGES)) {
    it(`${name}: only the renderer's own elements and attributes, no URL, no script, no comment`, () => {
      const doc = parsePage(renderHtml(page, VERSION));
      for (const el of elements(doc)) {
        expect(ALLOWED, el.tagName).toContain(el.tagName);
        for (const a of el.attrs) expect(ALLOWED_ATTRIBUTES, `${el.tagName} ${a.name}`).toContain(a.name);
      }
      expect([...walk(doc)].filter((n) => n.nodeName === '#comment')).toEqual([]);
    });
  }

  it('declares a policy that allows exactly its own style sheet, before anything else loads', () => {
    const doc = parsePage(renderReportHtml(reportFixture(), VERSION));
    const head = at(byTag(doc, 'head'), 0);
    const metas = byTag(head, 'meta');
    expect(attr(at(metas, 0), 'charset')).toBe('utf-8');
    expect(attr(at(metas, 1), 'http-equiv')).toBe('Content-Security-Policy');
    const policy = attr(at(metas, 1), 'content') ?? '';
    expect(policy).toBe(CONTENT_SECURITY_POLICY);
    expect(policy.split('; ')).toEqual(
      expect.arrayContaining([
        "default-src 'none'",
        "script-src 'none'",
        "img-src 'none'",
        "base-uri 'none'",
      ]),
    );
    const style = byTag(head, 'style');
    expect(style).toHaveLength(1);
    const sheet = textOf(at(style, 0));
    expect(sheet).toBe(STYLE_SHEET);
    const hash = createHash('sha256').update(sheet, 'utf8').digest('base64');
    expect(policy).toContain(`style-src 'sha256-${hash}'`);
    // Nothing in the sheet that fetches: no url(), no @import, no web font.
    expect(sheet).not.toMatch(/url\(|@import|@font-face/);
  });

  it('gives every filter box a rule in the style sheet, and every row only values the sheet knows', () => {
    for (const page of Object.values(PAGES)) {
      const doc = parsePage(renderHtml(page, VERSION));
      for (const box of byTag(doc, 'input')) {
        expect(STYLE_SHEET).toContain(`body:has(#${attr(box, 'id')}:not(:checked))`);
      }
      for (const row of byTag(doc, 'tr')) {
        for (const a of row.attrs.filter((x) => x.name.startsWith('data-'))) {
          expect(STYLE_SHEET).toContain(`tr[${a.name}="${a.value}"]`);
        }
      }
    }
  });

  it('shows none of the private inputs of a run: no description, path, stub or roster name', () => {
    for (const page of Object.values(PAGES)) {
      const text = renderHtml(page, VERSION);
      for (const secret of [
        FIXTURE_DESCRIPTION,
        FIXTURE_BASELINE_DESCRIPTION,
        FIXTURE_STUB,
        ...FIXTURE_PATHS,
        ...FIXTURE_ROSTER.slashCommands.filter((n) => n.includes('-')),
        ...FIXTURE_ROSTER.skills.filter((n) => n.includes('-')),
      ]) {
        expect(text).not.toContain(secret);
      }
    }
  });
});

describe('the markup builder', () => {
  it('escapes every interpolated string, in text and in attribute values, and keeps markup it built', () => {
    const evil = `"><script>alert('x')</script>&`;
    const built = html`<p title="${evil}">${evil}${html`<b>kept</b>`}</p>`;
    expect(built.text).toBe(
      '<p title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;">&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;<b>kept</b></p>',
    );
  });

  it('shows line breaks, tabs and hidden characters as the Markdown report does', () => {
    expect(escapeText('a\r\nb\tc\u202Ed\u200Be\uD800')).toBe('a↵b c⟨U+202E⟩d⟨U+200B⟩e⟨U+D800⟩');
  });
});

function filledReport(t: Filler, side: string, paired: boolean): Report {
  const specs = (prefix: string) =>
    FIXTURE_QUERIES.map((q, i) => ({
      ...q,
      id: t(`${side}-${prefix}-id${i}`),
      // The same texts on both sides: the comparison matches queries by text.
      query: t(`q${i}`),
      extra: i % 2 === 0 ? { [t(`${side}-key${i}`)]: t(`${side}-note${i}`) } : {},
    }));
  const candidate = fixtureMeasurement(specs('c'));
  candidate.verdict = 'no-verdict';
  candidate.noVerdictReasons = [t(`${side}-reason`)];
  candidate.lostQueries = [t(`${side}-lost`)];
  candidate.partialQueries = [t(`${side}-partial`)];
  return reportFixture({
    skill: t(`${side}-skill`),
    tool: { name: 'skilltrigger', version: t(`${side}-tool`) },
    cli: { version: t(`${side}-cli`) },
    model: { requested: t(`${side}-model`), reported: { [t(`${side}-reported`)]: 3 } },
    verdict: 'no-verdict',
    candidate,
    ...(paired ? { baseline: fixtureMeasurement(specs('b')) } : {}),
  });
}

function filledPages(t: Filler): Record<string, string> {
  return {
    run: renderReportHtml(filledReport(t, 'a', false), VERSION),
    paired: renderReportHtml(filledReport(t, 'a', true), VERSION),
    compare: renderHtml(
      {
        kind: 'compare',
        base: filledReport(t, 'a', false),
        cand: filledReport(t, 'b', false),
        names: { base: t('base-name'), cand: t('cand-name') },
      },
      VERSION,
    ),
  };
}

describe('the HTML pages: the hostile-text corpus, on the parsed DOM', () => {
  const plainPages = filledPages(plain);

  for (const payload of PAYLOADS) {
    it(`${JSON.stringify(payload).slice(0, 70)}`, () => {
      const pages = filledPages(hostile(payload));
      for (const [kind, page] of Object.entries(pages)) {
        const doc = parsePage(page);
        const reference = parsePage(at(plainPages, kind));
        // The same elements, attributes and node kinds, in the same order: nothing was injected.
        expect(shape(doc), kind).toEqual(shape(reference));
        for (const el of elements(doc)) {
          for (const a of el.attrs) {
            expect(a.value, `${kind}: ${el.tagName} ${a.name}`).not.toContain('SLOT-');
          }
        }
        const text = textOf(doc);
        expect(text).not.toMatch(INVISIBLE);
        // Every slot is on the page, as text.
        // (A comparison shows the candidate's notes, so the compare page holds b's.)
        const notes = kind === 'compare' ? ['b-key0', 'b-note0', 'b-skill'] : ['a-key0', 'a-note0'];
        for (const slot of ['a-skill', 'q0', 'q7', 'a-reason', 'a-lost', 'a-cli', ...notes]) {
          expect(text, `${kind} ${slot}`).toContain(`SLOT-${slot}`);
        }
        if (PRINTABLE.test(payload)) expect(text, kind).toContain(`${payload} SLOT-q0 ${payload}`);
      }
    });
  }

  it('the title reads as the skill name was written', () => {
    const payload = '</title><script>alert(1)</script>';
    const doc = parsePage(at(filledPages(hostile(payload)), 'run'));
    expect(textOf(at(byTag(doc, 'title'), 0))).toContain(`${payload} SLOT-a-skill ${payload}`);
    expect(byTag(doc, 'script')).toEqual([]);
  });
});

describe('the HTML pages: any report renders', () => {
  const outcome = fc.constantFrom('triggered', 'not-triggered', 'timeout', 'error:rate-limit', 'error:crash');
  const spec = fc.record({
    query: fc.string({ maxLength: 20 }),
    shouldTrigger: fc.boolean(),
    outcomes: fc.array(outcome, { maxLength: 25 }),
    extra: fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  });
  const measurement = (threshold: number) =>
    fc
      .array(spec, { maxLength: 8 })
      .map((specs) => fixtureMeasurement(specs, { triggerThreshold: threshold }));

  it('whatever the outcomes (none, all lost, long runs), on every page type, as a well-formed page', () => {
    const input = fc
      .double({ min: 0.05, max: 0.95, noNaN: true })
      .chain((threshold) =>
        fc.tuple(fc.constant(threshold), fc.boolean(), measurement(threshold), measurement(threshold)),
      );
    fc.assert(
      fc.property(input, ([threshold, paired, a, b]) => {
        const settings = { ...reportFixture().settings, triggerThreshold: threshold };
        const base = reportFixture({ candidate: a, settings });
        const cand = reportFixture({ candidate: b, settings, ...(paired ? { baseline: a } : {}) });
        for (const page of [
          renderReportHtml(base, VERSION),
          renderReportHtml(cand, VERSION),
          renderHtml({ kind: 'compare', base, cand, names: { base: 'a', cand: 'b' } }, VERSION),
        ]) {
          const doc = parsePage(page);
          expect(byTag(doc, 'body')).toHaveLength(1);
          expect(byTag(doc, 'script')).toEqual([]);
          expect(page).not.toMatch(/NaN|undefined|Infinity/);
        }
      }),
      { numRuns: 60, seed: 7 },
    );
  });
});
