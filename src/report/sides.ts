/** A report's sides, as the Markdown sections walk them: a paired report's two, or a single report's one. */
import type { Measurement, Report } from '../shapes/report.js';

export interface Side {
  /** `Baseline` / `Candidate` in a paired report; undefined in a single one. */
  label?: string;
  m: Measurement;
}

export function sidesOf(report: Report): Side[] {
  return report.baseline
    ? [
        { label: 'Baseline', m: report.baseline },
        { label: 'Candidate', m: report.candidate },
      ]
    : [{ m: report.candidate }];
}

export const labelled = (side: Side, text: string) => (side.label ? `${side.label}: ${text}` : text);
