/**
 * The one style sheet of every page: light and dark (`prefers-color-scheme`), and a print layout
 * (no filters, no dark background, rows kept whole). A constant, so the page's Content Security
 * Policy allows exactly this sheet by its hash and nothing else.
 *
 * The filters are checkboxes read by `:has()`: no script. A checkbox that is off hides the rows
 * that carry its value (`data-*` attributes whose values are the renderer's own words or indices,
 * never user text). Hidden rows do not count towards the `shown` counter.
 */
const FILTER_KEYS = ['class', 'result', 'split', 'notes', 'label'] as const;

/** The filter values the sheet knows. Split values are fixed words (train, holdout). */
const FILTER_VALUES: Readonly<Record<(typeof FILTER_KEYS)[number], readonly string[]>> = {
  class: ['positive', 'negative'],
  result: ['pass', 'fail', 'unmeasured'],
  split: ['train', 'holdout'],
  notes: ['with', 'without'],
  label: ['regression', 'improvement', 'noise', 'no-verdict'],
};

/** The id of the checkbox that filters `key` by `value`. */
export function filterId(key: keyof typeof FILTER_VALUES, value: string): string {
  return `f-${key}-${value}`;
}

const filterRules = FILTER_KEYS.flatMap((key) =>
  FILTER_VALUES[key].map(
    (value) =>
      `body:has(#${filterId(key, value)}:not(:checked)) tr[data-${key}="${value}"] { display: none; }`,
  ),
).join('\n');

export const STYLE_SHEET = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --border: #d1d9e0; --panel: #f6f8fa;
  --track: #e4e8ec; --bar: #0969da; --bar-base: #8c959f; --whisker: #1f2328; --threshold: #bf3989;
  --good: #1a7f37; --bad: #cf222e; --lost: #9a6700;
  --warn-bg: #fff8c5; --warn-border: #d4a72c; --stop-bg: #ffebe9; --stop-border: #cf222e;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --border: #3d444d; --panel: #151b23;
    --track: #262c36; --bar: #4493f8; --bar-base: #768390; --whisker: #e6edf3; --threshold: #db61a2;
    --good: #3fb950; --bad: #f85149; --lost: #d29922;
    --warn-bg: #272115; --warn-border: #9e6a03; --stop-bg: #25171c; --stop-border: #f85149;
  }
}
* { box-sizing: border-box; }
body {
  margin: 0 auto; padding: 1.5rem; max-width: 76rem; background: var(--bg); color: var(--fg);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif;
}
h1 { font-size: 1.5rem; margin: 0 0 .25rem; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; margin: 1.75rem 0 .5rem; border-bottom: 1px solid var(--border); padding-bottom: .25rem; }
p { margin: .4rem 0; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9em; }
.muted { color: var(--muted); }
.headline { font-size: 1.05rem; }
.banner { border: 1px solid var(--warn-border); background: var(--warn-bg); border-radius: 6px; padding: .6rem .9rem; margin: .75rem 0; }
.banner.stop { border-color: var(--stop-border); background: var(--stop-bg); }
.banner ul { margin: .3rem 0 0; padding-left: 1.25rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
th, td { text-align: left; vertical-align: top; padding: .4rem .5rem; border-bottom: 1px solid var(--border); }
th { font-weight: 600; font-size: .85rem; color: var(--muted); }
.num { font-variant-numeric: tabular-nums; white-space: nowrap; }
.query-text { overflow-wrap: anywhere; }
.id { color: var(--muted); font-size: .8rem; overflow-wrap: anywhere; }
dl.notes { margin: .25rem 0 0; font-size: .85rem; color: var(--muted); }
dl.notes div { display: flex; gap: .35rem; }
dl.notes dt { font-weight: 600; }
dl.notes dd { margin: 0; overflow-wrap: anywhere; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: .5rem 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.badge { display: inline-block; border-radius: 1rem; padding: 0 .55rem; font-size: .8rem; font-weight: 600; border: 1px solid currentColor; white-space: nowrap; }
.badge.good { color: var(--good); }
.badge.bad { color: var(--bad); }
.badge.neutral { color: var(--muted); }
svg { display: block; overflow: visible; }
svg .track { fill: var(--track); }
svg .bar { fill: var(--bar); }
svg .bar.base { fill: var(--bar-base); }
svg .bar.good { fill: var(--good); }
svg .bar.bad { fill: var(--bad); }
svg .whisker { stroke: var(--whisker); stroke-width: 1.5; fill: none; }
svg .threshold { stroke: var(--threshold); stroke-width: 1.5; stroke-dasharray: 3 2; }
svg .zero { stroke: var(--muted); stroke-width: 1; }
svg .dot.hit { fill: var(--bar); stroke: var(--bar); }
svg .dot.miss { fill: none; stroke: var(--muted); stroke-width: 1.5; }
svg .dot.timeout { fill: none; stroke: var(--lost); stroke-width: 1.5; stroke-dasharray: 2 1.5; }
svg .dot.error { stroke: var(--bad); stroke-width: 2; }
.legend { display: flex; flex-wrap: wrap; gap: .25rem 1rem; align-items: center; font-size: .85rem; color: var(--muted); margin: .25rem 0; }
.legend span { display: inline-flex; align-items: center; gap: .3rem; }
.legend svg { display: inline-block; }
.side { display: grid; grid-template-columns: 5.5rem auto; align-items: center; gap: .1rem .5rem; font-size: .85rem; }
.filters { display: flex; flex-wrap: wrap; gap: .4rem 1.25rem; border: 1px solid var(--border); background: var(--panel); border-radius: 6px; padding: .5rem .8rem; margin: .5rem 0; font-size: .9rem; }
.filters fieldset { border: 0; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .2rem .75rem; align-items: center; }
.filters legend { float: left; font-weight: 600; margin-right: .5rem; padding: 0; }
.filters label { white-space: nowrap; }
.queries { counter-reset: shown; }
.queries tbody tr { counter-increment: shown; }
.shown::before { content: "Showing " counter(shown) " of "; }
footer { margin-top: 2rem; font-size: .8rem; color: var(--muted); }
.description-text { overflow-wrap: anywhere; }
.quote { border-left: 3px solid var(--border); padding: .3rem .75rem; margin: .4rem 0; background: var(--panel); }
.reason { font-size: .85rem; color: var(--muted); margin-top: .25rem; overflow-wrap: anywhere; }
.charts { display: flex; flex-wrap: wrap; gap: 1rem 2rem; }
figure { margin: .5rem 0; }
svg.trend { max-width: 100%; height: auto; }
figcaption { font-size: .9rem; font-weight: 600; margin-bottom: .25rem; }
svg .grid { stroke: var(--border); stroke-width: 1; }
svg .axis { fill: var(--muted); font-size: 11px; text-anchor: end; }
svg .axis.tick { text-anchor: middle; }
svg .accepted-path { stroke: var(--good); stroke-width: 2; fill: none; }
svg .pt.accepted { fill: var(--good); stroke: var(--good); }
svg .pt.rejected { fill: var(--bg); stroke: var(--bad); stroke-width: 1.5; }
svg .pt.unmeasured { stroke: var(--muted); stroke-width: 1.5; }
svg .pt.holdout { fill: none; stroke: var(--bar); stroke-width: 1.75; }
.heatmap th, .heatmap td { border: 1px solid var(--border); }
.heatmap td.heat { text-align: center; vertical-align: middle; }
.heat.h1 { background: color-mix(in srgb, var(--bar) 14%, transparent); }
.heat.h2 { background: color-mix(in srgb, var(--bar) 30%, transparent); }
.heat.h3 { background: color-mix(in srgb, var(--bar) 48%, transparent); }
.heat.h4 { background: color-mix(in srgb, var(--bar) 68%, transparent); color: #ffffff; }
.heat.h5 { background: var(--bar); color: #ffffff; }
.heat.own { outline: 2px solid var(--fg); outline-offset: -3px; }
.swatch { display: inline-block; width: 1.1rem; height: .85rem; border: 1px solid var(--border); }
.swatch.own { outline: 2px solid var(--fg); outline-offset: -3px; }
${filterRules}
@media print {
  :root {
    color-scheme: light;
    --bg: #ffffff; --fg: #000000; --muted: #444c56; --border: #bbbbbb; --panel: #ffffff;
    --track: #e4e8ec; --bar: #0969da; --bar-base: #6e7781; --whisker: #000000; --threshold: #bf3989;
    --good: #1a7f37; --bad: #cf222e; --lost: #9a6700;
    --warn-bg: #ffffff; --warn-border: #9a6700; --stop-bg: #ffffff; --stop-border: #cf222e;
  }
  body { max-width: none; padding: 0; font-size: 10pt; print-color-adjust: exact; -webkit-print-color-adjust: exact; }
  .filters, .shown { display: none; }
  tr, .banner, dl.facts { break-inside: avoid; }
  h2 { break-after: avoid; }
}
`;
