import { sessionCostText } from '../improve/cost-text.js';
import type { ImproveReport } from '../schemas/improve.js';

/**
 * What `improve` prints when the session ends: the candidates, why it stopped, what it cost (the
 * improve Markdown's and page's own line, so the three never word it apart) and the recommendation.
 */
export function improveSummary(report: ImproveReport): string {
  const accepted = report.candidates.filter((c) => c.decision === 'accepted').length;
  const cost = sessionCostText(report);
  const spent = cost === null ? '' : `\n${cost}`;
  const head = `${report.candidates.length} candidate(s), ${accepted} accepted; stopped: ${report.stopReason}.${spent}`;
  switch (report.final.recommendation) {
    case 'keep-original':
      return `${head}\nKeep the original description: no rewrite was a significant improvement on train.${whyNotEnough(report)}`;
    case 'did-not-generalise':
      return `${head}\nThe winner did not generalise to the holdout (${report.final.holdout?.reason ?? ''}); keep the original.`;
    case 'no-verdict':
      // A signal or the budget: the report says which (`interrupted`, `budgetStop`).
      return `${head}\nNo verdict: ${report.interrupted === true ? 'a signal' : '--max-cost-usd'} stopped the session${report.final.winner === null ? '' : ' before the winner was checked on the holdout'}; nothing was written.`;
    case 'adopt':
      return `${head}\nA winner held on the holdout (${report.final.holdout?.reason ?? ''}):\n  ${report.final.winner ?? ''}\n${report.final.written ? 'SKILL.md updated (description only).' : 'Put it into SKILL.md with skilltrigger improve --apply <the improve report below> --skill <dir> (no model call, nothing measured again), or copy it in yourself.'}`;
  }
}

/**
 * Why the session ended without a winner, when `--iterations` cut it short: the last rewrite's
 * reason, and that more iterations would let improve try again from the failures that remain.
 */
function whyNotEnough(report: ImproveReport): string {
  const last = report.candidates.at(-1);
  if (last === undefined || !report.stopReason.startsWith('reached --iterations')) return '';
  const tried = report.candidates.length;
  return (
    `\nThe last rewrite (iteration ${last.iteration}) was rejected: ${last.reason}.` +
    `\n${tried === 1 ? 'One iteration judges one rewrite' : `${tried} iterations judged ${tried} rewrites`}; ` +
    `--iterations ${Math.max(5, tried + 2)} lets improve propose again from the train failures that remain.`
  );
}
