/**
 * A report's sides, as the Markdown sections and the HTML pages walk them: a paired report's two, a
 * single report's one, or the two reports `compare` puts side by side.
 */
import { pairNames } from '../compare/comparison.js';
import type { Measurement, Report } from '../schemas/report.js';

export interface Side {
  /**
   * `Baseline` / `Candidate` in a paired report (`Clean room` / `Among the crowd` under `--versus-clean`),
   * or a compared report's file name; undefined in a single one.
   */
  label?: string;
  m: Measurement;
}

export function sidesOf(report: Report): Side[] {
  if (!report.baseline) return [{ m: report.candidate }];
  const names = pairNames(report);
  return [
    { label: capitalised(names.base), m: report.baseline },
    { label: capitalised(names.cand), m: report.candidate },
  ];
}

/** A paired report's title words: `baseline vs candidate`, or its own sides' names. */
export function pairTitle(report: Report): string {
  const names = pairNames(report);
  return `${names.base} vs ${names.cand}`;
}

const capitalised = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

export const labelled = (side: Side, text: string) => (side.label ? `${side.label}: ${text}` : text);
