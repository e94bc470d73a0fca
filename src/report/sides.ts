/**
 * A report's sides, as the Markdown sections and the HTML pages walk them: a paired report's two, a
 * single report's one, or the two reports `compare` puts side by side.
 */
import type { Measurement, Report } from '../schemas/report.js';

export interface Side {
  /** `Baseline` / `Candidate` in a paired report (or a compared report's file name); undefined in a single one. */
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
