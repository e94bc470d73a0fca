/**
 * How numbers, tables and dates are written for people: the report's Markdown, the Action's
 * comment and job summary, `compare`'s text and the HTML pages all use these, so one rate reads
 * the same everywhere. Pure; no I/O.
 */

/**
 * A share as a whole percent, halves rounded up: 2/3 → `67%`, 29/200 → `15%`, 1/8 → `13%`.
 * The share is first taken to 9 decimals, so a float such as 0.145 × 100 = 14.499999999999998
 * rounds as the 14.5 it stands for (it would print `14%` otherwise, and `15%` when computed as
 * 100 × 29 / 200: the same rate printed two ways).
 */
export function percent(share: number): string {
  const scaled = Number((share * 100).toFixed(9));
  return `${Math.round(scaled)}%`;
}

/** `percent(hits / runs)`, or `–` without a measured run. */
export function percentOf(hits: number, runs: number): string {
  return runs === 0 ? '–' : percent(hits / runs);
}

/**
 * A change in rate in whole percentage points, the number alone: `+36`, `−25`, `±0`. The same
 * rounding as `percent` (the change first taken to 9 decimals, so a float artifact never decides),
 * with halves away from zero, so a change and its reverse print the same size (±12.5 → ±13). The
 * sign: `+` above zero, the minus sign `−` (U+2212, not a hyphen) below, and `±0` for a change
 * that rounds to nothing, never a signed nought.
 */
export function signedPoints(delta: number): string {
  const scaled = Number((delta * 100).toFixed(9));
  const size = Math.round(Math.abs(scaled));
  if (size === 0) return '±0';
  return scaled > 0 ? `+${size}` : `−${size}`;
}

/** `signedPoints` with its unit: `+36 pp`, `−25 pp`, `±0 pp`; `–` without a change. */
export function points(delta: number | null): string {
  return delta === null ? '–' : `${signedPoints(delta)} pp`;
}

/** One GitHub-flavoured Markdown table row. Cells must already be escaped for a table. */
export function markdownRow(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** A GitHub-flavoured Markdown table: the header, its rule, then the rows. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [markdownRow(header), markdownRow(header.map(() => '---')), ...rows.map(markdownRow)];
}

/**
 * Text of at most `max` characters (code points, as a reader counts them), its last one `…` when
 * cut. Never splits a surrogate pair, so an emoji at the cut stays whole or goes whole.
 */
export function clipChars(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** `2026-12-01` (the UTC day of an ISO timestamp), or `an unknown date` when it does not parse. */
export function utcDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? 'an unknown date' : d.toISOString().slice(0, 10);
}

/**
 * How a report's prompts reached claude (`settings.launch`), in words: `warm standbys` or `cold
 * starts`; a report from before the field ran cold (docs/speed.md, "A warm standby").
 */
export function launchText(launch: 'standby' | 'cold' | undefined): string {
  return launch === 'standby' ? 'warm standbys' : 'cold starts';
}
