import type { ImproveReport } from '../../schemas/improve.js';
import { intervalText, percent, rateInterval } from './charts.js';
import { html, type Markup } from './markup.js';

/**
 * The improve page's chart: one class's train rate over the iterations (the original at 0, each
 * candidate at its iteration) with its 95% interval, the accepted path as a step line (the
 * incumbent's rate until a candidate replaces it), and the holdout rates where the session
 * measured them (the original, and the winner). Drawn from counts only; colours come from the
 * style sheet's classes.
 */

type Figures = ImproveReport['original']['train'];
export type ChartClass = 'positives' | 'negatives';

const WIDTH = 460;
const HEIGHT = 190;
const LEFT = 38;
const RIGHT = 14;
const TOP = 10;
const BOTTOM = 26;
const PLOT_H = HEIGHT - TOP - BOTTOM;

function fixed(x: number): string {
  return (Math.round(x * 10) / 10).toString();
}

function classFigures(f: Figures, cls: ChartClass): { hits: number; runs: number } {
  return f[cls];
}

const verbOf = (cls: ChartClass) => (cls === 'positives' ? 'triggered' : 'fired');

function rateWords(f: { hits: number; runs: number }, cls: ChartClass): string {
  if (f.runs === 0) return 'no measured run';
  return `${f.hits}/${f.runs} ${verbOf(cls)} (${percent(f.hits / f.runs)}), 95% interval ${intervalText(rateInterval(f.hits, f.runs))}`;
}

/** The iteration of the winner: the last accepted candidate (null without one). */
export function winnerIteration(report: ImproveReport): number | null {
  const accepted = report.candidates.filter((c) => c.decision === 'accepted');
  return accepted.at(-1)?.iteration ?? null;
}

/** The accepted path: the original, then each accepted candidate, with its train figures. */
export function acceptedPath(report: ImproveReport): { iteration: number; train: Figures }[] {
  return [
    { iteration: 0, train: report.original.train },
    ...report.candidates.flatMap((c) =>
      c.decision === 'accepted' && c.train ? [{ iteration: c.iteration, train: c.train.candidate }] : [],
    ),
  ];
}

/** Where an iteration and a rate fall on the chart. */
interface Frame {
  /** The last iteration on the axis. */
  last: number;
  x: (iteration: number) => number;
  y: (share: number) => number;
}

type Counts = { hits: number; runs: number };

export function improveChart(report: ImproveReport, cls: ChartClass): Markup {
  const last = Math.max(1, report.settings.iterations, ...report.candidates.map((c) => c.iteration));
  const step = (WIDTH - LEFT - RIGHT) / last;
  const frame: Frame = {
    last,
    x: (iteration) => LEFT + iteration * step,
    y: (share) => TOP + (1 - share) * PLOT_H,
  };
  const what = cls === 'positives' ? 'Positives triggered' : 'Negatives fired';
  const marks = [...trainMarks(report, cls, frame), ...holdoutMarks(report, cls, frame)];
  const title = `${what} over the iterations: train rate of the original and of each candidate with its 95% interval, the accepted path, and the holdout rates measured`;
  return html`<svg class="trend" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img"><title>${title}</title>${grid(frame)}${ticks(frame)}${acceptedLine(report, cls, frame)}${marks}</svg>`;
}

function grid({ y }: Frame): Markup[] {
  return [0, 0.5, 1].map(
    (share) =>
      html`<line class="grid" x1="${LEFT}" y1="${fixed(y(share))}" x2="${WIDTH - RIGHT}" y2="${fixed(y(share))}"/><text class="axis" x="${LEFT - 6}" y="${fixed(y(share) + 4)}">${percent(share)}</text>`,
  );
}

function ticks({ last, x }: Frame): Markup[] {
  return Array.from(
    { length: last + 1 },
    (_, i) =>
      html`<text class="axis tick" x="${fixed(x(i))}" y="${HEIGHT - 8}">${i === 0 ? 'original' : i}</text>`,
  );
}

/** The accepted path as a step line: the incumbent's train rate holds until a candidate replaces it. */
function acceptedLine(report: ImproveReport, cls: ChartClass, { last, x, y }: Frame): Markup | '' {
  const points = acceptedPath(report)
    .filter((p) => classFigures(p.train, cls).runs > 0)
    .map((p) => ({
      at: p.iteration,
      share: classFigures(p.train, cls).hits / classFigures(p.train, cls).runs,
    }));
  let d = '';
  points.forEach((p, i) => {
    d += i === 0 ? `M${fixed(x(p.at))} ${fixed(y(p.share))}` : `H${fixed(x(p.at))}V${fixed(y(p.share))}`;
  });
  if (points.length > 0) d += `H${fixed(x(last))}`;
  return d === '' ? '' : html`<path class="accepted-path" d="${d}"/>`;
}

function whisker({ x, y }: Frame, at: number, f: Counts): Markup | '' {
  const interval = rateInterval(f.hits, f.runs);
  if (interval === null) return '';
  const cx = x(at);
  return html`<path class="whisker" d="M${fixed(cx)} ${fixed(y(interval.lower))}V${fixed(y(interval.upper))}M${fixed(cx - 3)} ${fixed(y(interval.lower))}H${fixed(cx + 3)}M${fixed(cx - 3)} ${fixed(y(interval.upper))}H${fixed(cx + 3)}"/>`;
}

/** The train rates: the original's and each candidate's with its interval, a cross for one not measured. */
function trainMarks(report: ImproveReport, cls: ChartClass, frame: Frame): Markup[] {
  const { x, y } = frame;
  const base = y(0);
  const original = classFigures(report.original.train, cls);
  const marks: Markup[] = [];
  if (original.runs > 0) {
    marks.push(
      html`${whisker(frame, 0, original)}<circle class="pt accepted" cx="${fixed(x(0))}" cy="${fixed(y(original.hits / original.runs))}" r="4.5"><title>${`original, train: ${rateWords(original, cls)}`}</title></circle>`,
    );
  }
  for (const c of report.candidates) {
    const cx = x(c.iteration);
    if (!c.train) {
      marks.push(
        html`<path class="pt unmeasured" d="M${fixed(cx - 3.5)} ${fixed(base - 3.5)}L${fixed(cx + 3.5)} ${fixed(base + 3.5)}M${fixed(cx + 3.5)} ${fixed(base - 3.5)}L${fixed(cx - 3.5)} ${fixed(base + 3.5)}"><title>${`iteration ${c.iteration}: not measured (${c.proposal}); ${c.decision}`}</title></path>`,
      );
      continue;
    }
    const f = classFigures(c.train.candidate, cls);
    if (f.runs === 0) continue;
    marks.push(
      html`${whisker(frame, c.iteration, f)}<circle class="pt ${c.decision}" cx="${fixed(cx)}" cy="${fixed(y(f.hits / f.runs))}" r="4.5"><title>${`iteration ${c.iteration}, train: ${rateWords(f, cls)}; ${c.decision}`}</title></circle>`,
    );
  }
  return marks;
}

/** Holdout: the original as first measured, and the winner as measured against it at the end. */
function holdoutMarks(report: ImproveReport, cls: ChartClass, { x, y }: Frame): Markup[] {
  const diamond = (at: number, f: Counts, who: string) => {
    if (f.runs === 0) return '';
    const cx = x(at);
    const cy = y(f.hits / f.runs);
    return html`<path class="pt holdout" d="M${fixed(cx)} ${fixed(cy - 5)}L${fixed(cx + 5)} ${fixed(cy)}L${fixed(cx)} ${fixed(cy + 5)}L${fixed(cx - 5)} ${fixed(cy)}Z"><title>${`${who}, holdout: ${rateWords(f, cls)}`}</title></path>`;
  };
  const marks = [html`${diamond(0, classFigures(report.original.holdout, cls), 'original')}`];
  const winnerAt = winnerIteration(report);
  if (report.final.holdout && winnerAt !== null) {
    marks.push(
      html`${diamond(winnerAt, classFigures(report.final.holdout.winner, cls), `winner (iteration ${winnerAt})`)}`,
    );
  }
  return marks;
}

/** The chart's legend, drawn with the same shapes. */
export function improveLegend(): Markup {
  return html`<div class="legend"><span><svg width="13" height="13" viewBox="0 0 13 13" aria-hidden="true"><circle class="pt accepted" cx="6.5" cy="6.5" r="4.5"/></svg>accepted (train)</span><span><svg width="13" height="13" viewBox="0 0 13 13" aria-hidden="true"><circle class="pt rejected" cx="6.5" cy="6.5" r="4"/></svg>rejected (train)</span><span><svg width="13" height="13" viewBox="0 0 13 13" aria-hidden="true"><path class="pt unmeasured" d="M3 3L10 10M10 3L3 10"/></svg>not measured</span><span><svg width="13" height="13" viewBox="0 0 13 13" aria-hidden="true"><path class="pt holdout" d="M6.5 1.5L11.5 6.5L6.5 11.5L1.5 6.5Z"/></svg>holdout</span><span><svg width="22" height="13" viewBox="0 0 22 13" aria-hidden="true"><path class="accepted-path" d="M1 10H11V3H21"/></svg>accepted path</span><span><svg width="13" height="13" viewBox="0 0 13 13" aria-hidden="true"><path class="whisker" d="M6.5 1V12M3.5 1H9.5M3.5 12H9.5"/></svg>95% interval</span></div>`;
}
