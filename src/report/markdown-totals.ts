/** The report's Markdown "Totals" section (pure): each side's counts, usage and lost runs. */

import { escapeInline } from '../escape.js';
import type { Measurement, ReportUsage } from '../schemas/report.js';
import { counted } from './headline.js';
import { lostCount } from './markdown-queries.js';
import type { Side } from './sides.js';

function lostRunsLines(m: Measurement): string[] {
  return m.queries
    .filter((q) => lostCount(q) > 0)
    .map((q) => {
      const runs = q.outcomes.flatMap((code, i) =>
        code === 'timeout'
          ? [`run ${i + 1} timed out`]
          : code.startsWith('error:')
            ? [`run ${i + 1} error (${escapeInline(code.slice('error:'.length))})`]
            : [],
      );
      return `- ${escapeInline(q.id)}: ${runs.join('; ')}`;
    });
}

function usageText(u: ReportUsage): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const tokens =
    `${n(u.inputTokens)} input, ${n(u.outputTokens)} output, ` +
    `${n(u.cacheReadInputTokens)} cache read, ${n(u.cacheCreationInputTokens)} cache write tokens`;
  // One cost only: the priced one in the cost line. The CLI's total_cost_usd comes only with its
  // result event, which a run stopped at its decision never reaches, so its sum is a part of the
  // bill; it serves as the check on the table beside the cost line (src/cost/cost-check.ts).
  return tokens;
}

function totalsLines(m: Measurement): string[] {
  const t = m.totals;
  const causes = Object.entries(t.errorCauses)
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([cause, n]) => `${escapeInline(cause)} ${n}`);
  return [
    `- Queries: ${t.passed} pass, ${t.failed} fail${t.queries - t.passed - t.failed > 0 ? `, ${t.queries - t.passed - t.failed} unmeasured` : ''}`,
    `- Runs: ${t.executed} of ${t.planned} planned ran; ${counted(t.timeouts, 'timeout')}, ${counted(t.errors, 'error')}`,
    ...(causes.length > 0 ? [`- Errors by cause: ${causes.join(', ')}`] : []),
    `- Usage: ${usageText(t.usage)}`,
  ];
}

export function totalsSection(sides: readonly Side[]): string[] {
  const lines = ['## Totals'];
  for (const side of sides) {
    lines.push('', ...(side.label ? [`### ${side.label}`, ''] : []), ...totalsLines(side.m));
    const lost = lostRunsLines(side.m);
    if (lost.length > 0) lines.push('', 'Lost runs (counted apart):', '', ...lost);
  }
  return lines;
}
