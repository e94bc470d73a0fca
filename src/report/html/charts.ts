import { percent, points } from '../../format.js';
import { type Interval, wilsonInterval } from '../../verdict/statistics.js';
import { html, type Markup } from './markup.js';

/**
 * Inline SVG charts, drawn from counts only. Colours come from the style sheet's classes, so the
 * charts follow light, dark and print. Each chart carries a `<title>` saying in words what it
 * shows, for a screen reader and as a tooltip.
 */

const BAR_WIDTH = 180;
const BAR_HEIGHT = 20;
const PAD = 4;

function fixed(x: number): string {
  return (Math.round(x * 10) / 10).toString();
}

/** The one percent rule (src/format.ts), for the pages' modules. */
export { percent };

/** `[12%, 88%]`, or the empty string without an interval. */
export function intervalText(interval: Interval | null): string {
  return interval === null ? '' : `[${percent(interval.lower)}, ${percent(interval.upper)}]`;
}

/** The 95% Wilson interval of a rate, as the comparison's statistics compute it. */
export function rateInterval(hits: number, runs: number): Interval | null {
  return wilsonInterval({ hits, runs }, 0.95);
}

/** One sentence for a rate: `1/2 runs triggered (50%), 95% interval [9%, 91%]`. */
export function rateSentence(hits: number, runs: number, verb: string): string {
  if (runs === 0) return 'no measured run';
  const interval = rateInterval(hits, runs);
  return `${hits}/${runs} runs ${verb} (${percent(hits / runs)}), 95% interval ${intervalText(interval)}`;
}

export interface RateBarOptions {
  hits: number;
  runs: number;
  /** Drawn as a dashed line; omitted for the class totals, where no threshold applies. */
  threshold?: number;
  /** `base` draws the baseline's bar in its own colour. */
  tone?: 'base';
  /** What a hit is called in the title: `triggered`, `fired`. */
  verb: string;
}

/**
 * A bar of the rate hits/runs on a 0–1 scale, the 95% interval as a whisker and the trigger
 * threshold as a dashed line. Without a measured run: the track and the threshold only.
 */
export function rateBar(o: RateBarOptions): Markup {
  const span = BAR_WIDTH - 2 * PAD;
  const x = (share: number) => PAD + share * span;
  const mid = BAR_HEIGHT / 2;
  const interval = rateInterval(o.hits, o.runs);
  const rate = o.runs === 0 ? null : o.hits / o.runs;
  const title =
    rateSentence(o.hits, o.runs, o.verb) + (o.threshold === undefined ? '' : `; threshold ${o.threshold}`);
  return html`<svg class="rate" width="${BAR_WIDTH}" height="${BAR_HEIGHT}" viewBox="0 0 ${BAR_WIDTH} ${BAR_HEIGHT}" role="img"><title>${title}</title><rect class="track" x="${PAD}" y="${mid - 4}" width="${span}" height="8" rx="2"/>${
    rate === null
      ? ''
      : html`<rect class="bar${o.tone === 'base' ? ' base' : ''}" x="${PAD}" y="${mid - 4}" width="${fixed(rate * span)}" height="8" rx="2"/>`
  }${
    interval === null
      ? ''
      : html`<path class="whisker" d="M${fixed(x(interval.lower))} ${mid}H${fixed(x(interval.upper))}M${fixed(x(interval.lower))} ${mid - 4}V${mid + 4}M${fixed(x(interval.upper))} ${mid - 4}V${mid + 4}"/>`
  }${
    o.threshold === undefined
      ? ''
      : html`<line class="threshold" x1="${fixed(x(o.threshold))}" y1="1" x2="${fixed(x(o.threshold))}" y2="${BAR_HEIGHT - 1}"/>`
  }</svg>`;
}

/**
 * The change in a rate (−1 to +1, zero in the middle) with its interval. `good` says which way is
 * better for the class: up for positives, down for negatives.
 */
export function deltaBar(delta: number | null, interval: Interval | null, good: 'up' | 'down'): Markup {
  const span = BAR_WIDTH - 2 * PAD;
  const x = (d: number) => PAD + ((d + 1) / 2) * span;
  const mid = BAR_HEIGHT / 2;
  const tone = delta === null || delta === 0 ? '' : delta > 0 === (good === 'up') ? ' good' : ' bad';
  const title =
    delta === null
      ? 'no change measured (a side has no measured run)'
      : `change ${points(delta)}${interval === null ? '' : `, 95% interval [${points(interval.lower)}, ${points(interval.upper)}]`}`;
  return html`<svg class="delta" width="${BAR_WIDTH}" height="${BAR_HEIGHT}" viewBox="0 0 ${BAR_WIDTH} ${BAR_HEIGHT}" role="img"><title>${title}</title><rect class="track" x="${PAD}" y="${mid - 4}" width="${span}" height="8" rx="2"/>${
    delta === null
      ? ''
      : html`<rect class="bar${tone}" x="${fixed(Math.min(x(0), x(delta)))}" y="${mid - 4}" width="${fixed(Math.abs(x(delta) - x(0)))}" height="8"/>`
  }${
    interval === null
      ? ''
      : html`<path class="whisker" d="M${fixed(x(interval.lower))} ${mid}H${fixed(x(interval.upper))}M${fixed(x(interval.lower))} ${mid - 4}V${mid + 4}M${fixed(x(interval.upper))} ${mid - 4}V${mid + 4}"/>`
  }<line class="zero" x1="${fixed(x(0))}" y1="1" x2="${fixed(x(0))}" y2="${BAR_HEIGHT - 1}"/></svg>`;
}

/** A run's outcome in words, for titles and the legend. */
export function outcomeWords(code: string): string {
  switch (code) {
    case 'triggered':
      return 'triggered';
    case 'not-triggered':
      return 'not triggered';
    case 'timeout':
      return 'timed out';
    default:
      // `error:<cause>`; the schema admits no other code.
      return `error (${code.slice('error:'.length)})`;
  }
}

const DOT_STEP = 13;
const DOT_RADIUS = 4.5;
const DOTS_PER_LINE = 20;

function dot(code: string, cx: number, cy: number, title: string): Markup {
  const t = html`<title>${title}</title>`;
  switch (code) {
    case 'triggered':
      return html`<circle class="dot hit" cx="${cx}" cy="${cy}" r="${DOT_RADIUS}">${t}</circle>`;
    case 'not-triggered':
      return html`<circle class="dot miss" cx="${cx}" cy="${cy}" r="${DOT_RADIUS - 0.75}">${t}</circle>`;
    case 'timeout':
      return html`<circle class="dot timeout" cx="${cx}" cy="${cy}" r="${DOT_RADIUS - 0.75}">${t}</circle>`;
    default: {
      const d = DOT_RADIUS - 1;
      return html`<path class="dot error" d="M${cx - d} ${cy - d}L${cx + d} ${cy + d}M${cx + d} ${cy - d}L${cx - d} ${cy + d}">${t}</path>`;
    }
  }
}

/** Every run's outcome as a dot, in the order the runs ran, twenty to a line. */
export function outcomeDots(codes: readonly string[]): Markup {
  if (codes.length === 0) return html`<span class="muted">no run</span>`;
  const lines = Math.ceil(codes.length / DOTS_PER_LINE);
  const width = Math.min(codes.length, DOTS_PER_LINE) * DOT_STEP;
  const height = lines * DOT_STEP;
  const counts = new Map<string, number>();
  for (const code of codes) {
    const words = outcomeWords(code);
    counts.set(words, (counts.get(words) ?? 0) + 1);
  }
  const summary = [...counts].map(([words, n]) => `${n} ${words}`).join(', ');
  return html`<svg class="dots" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img"><title>${`runs in order: ${summary}`}</title>${codes.map(
    (code, i) =>
      dot(
        code,
        (i % DOTS_PER_LINE) * DOT_STEP + DOT_STEP / 2,
        Math.floor(i / DOTS_PER_LINE) * DOT_STEP + DOT_STEP / 2,
        `run ${i + 1}: ${outcomeWords(code)}`,
      ),
  )}</svg>`;
}

/** The dots' legend, drawn with the same shapes. */
export function outcomeLegend(): Markup {
  const one = (code: string) =>
    html`<span><svg width="${DOT_STEP}" height="${DOT_STEP}" viewBox="0 0 ${DOT_STEP} ${DOT_STEP}" aria-hidden="true">${dot(code, DOT_STEP / 2, DOT_STEP / 2, outcomeWords(code))}</svg>${code.startsWith('error:') ? 'error' : outcomeWords(code)}</span>`;
  return html`<div class="legend">${['triggered', 'not-triggered', 'timeout', 'error:other'].map(one)}<span><svg width="14" height="${DOT_STEP}" viewBox="0 0 14 ${DOT_STEP}" aria-hidden="true"><line class="threshold" x1="7" y1="0" x2="7" y2="${DOT_STEP}"/></svg>trigger threshold</span><span><svg width="22" height="${DOT_STEP}" viewBox="0 0 22 ${DOT_STEP}" aria-hidden="true"><path class="whisker" d="M2 6.5H20M2 2.5V10.5M20 2.5V10.5"/></svg>95% interval</span></div>`;
}
