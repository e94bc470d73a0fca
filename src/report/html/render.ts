import { compareReport, compareReports } from '../../compare/compare.js';
import type { ImproveReport } from '../../schemas/improve.js';
import type { MatrixReport } from '../../schemas/matrix.js';
import type { Report } from '../../schemas/report.js';
import { pairTitle } from '../sides.js';
import { comparisonPageBody } from './comparison-page.js';
import { improvePageBody } from './improve-page.js';
import type { Markup } from './markup.js';
import { matrixPageBody } from './matrix-page.js';
import { type PageKind, renderPage } from './page.js';
import { utcDate } from './parts.js';
import { runPageBody } from './run-page.js';

/**
 * The HTML rendering of reports: one self-contained page per report (written beside its JSON),
 * or per comparison of two. Pure: reports in, text out. The page shows no more than the JSON it
 * is drawn from (docs/security.md): no description text, path, stub name or stderr, because the report
 * holds none; user text (skill name, queries, ids, notes, model names) is escaped by `html`.
 *
 * A new page type (the routing matrix, the improve history) adds a member to `HtmlPage` with the
 * report it draws, its name to `PageKind`, a body module, and a case below.
 */
export type HtmlPage =
  /** One measurement, or a paired report (its baseline against its candidate). */
  | { kind: 'report'; report: Report }
  /** `compare a.json b.json`: `base` is the baseline report, `cand` the candidate; `names` label them. */
  | { kind: 'compare'; base: Report; cand: Report; names: { base: string; cand: string } }
  /** An `improve` session: its candidates over the iterations; it holds the texts, as its JSON does (docs/author-loop.md). */
  | { kind: 'improve'; report: ImproveReport }
  /** A routing matrix: the heatmap of owners × loaded skills, recall and precision, the stolen queries. */
  | { kind: 'matrix'; report: MatrixReport };

/** The page of one report: a single run's page, or the comparison page of a paired report. */
export function renderReportHtml(report: Report, toolVersion: string): string {
  return renderHtml({ kind: 'report', report }, toolVersion);
}

export function renderHtml(page: HtmlPage, toolVersion: string): string {
  const shell = (kind: PageKind, title: string, body: Markup) =>
    renderPage({ kind, title, toolVersion, body });
  switch (page.kind) {
    case 'report': {
      const r = page.report;
      const title = `skilltrigger: ${r.skill} · ${utcDate(r.createdAt)}`;
      if (!r.baseline) return shell('run', title, runPageBody(r));
      return shell(
        'paired',
        `${title} · ${pairTitle(r)}`,
        comparisonPageBody({
          comparison: compareReport(r),
          reports: [r],
          base: r.baseline,
          cand: r.candidate,
          ...(r.pairedByModel ? { byModel: r.pairedByModel } : {}),
        }),
      );
    }
    case 'compare': {
      const comparison = compareReports(page.base, page.cand, { names: page.names });
      return shell(
        'compare',
        `skilltrigger compare: ${page.names.base} → ${page.names.cand}`,
        comparisonPageBody({
          comparison,
          reports: [page.base, page.cand],
          base: page.base.candidate,
          cand: page.cand.candidate,
        }),
      );
    }
    case 'improve': {
      const r = page.report;
      return shell(
        'improve',
        `skilltrigger improve: ${r.skill} · ${utcDate(r.createdAt)}`,
        improvePageBody(r),
      );
    }
    case 'matrix': {
      const r = page.report;
      return shell('matrix', `skilltrigger matrix · ${utcDate(r.createdAt)}`, matrixPageBody(r));
    }
  }
}
