import type { ImproveReport } from '../../schemas/improve.js';

/** One contradiction, by JSON path (the shape of consistency.ts's issues). */
interface ConsistencyIssue {
  path: PropertyKey[];
  message: string;
}

/**
 * What an improve report must agree with itself on, as `read` checks a measurement report
 * (consistency.ts): an edited file would otherwise have `improve --apply` write a text the session
 * never judged, under evidence that belongs to another. The session (src/improve/session.ts) keeps
 * the last accepted candidate as the winner, checks it on the holdout, and recommends `adopt` only
 * when it held there; `no-verdict` only when the budget or a signal stopped it. Pure.
 */
export function improveIssues(r: ImproveReport): ConsistencyIssue[] {
  const issues: ConsistencyIssue[] = [];
  r.candidates.forEach((c, i) => {
    if (
      c.decision === 'accepted' &&
      (c.proposal !== 'measured' || c.train === null || c.description === null)
    )
      issues.push({
        path: ['candidates', i, 'decision'],
        message: `"accepted", but the candidate was not measured (proposal "${c.proposal}")`,
      });
  });
  const accepted = r.candidates.filter((c) => c.decision === 'accepted');
  const last = accepted.at(-1);
  const { winner, holdout, recommendation } = r.final;
  if (winner !== null && winner !== last?.description)
    issues.push({
      path: ['final', 'winner'],
      message:
        last === undefined
          ? 'a text, but no candidate was accepted'
          : `not the last accepted candidate's text (iteration ${last.iteration})`,
    });
  if (winner === null && last !== undefined && recommendation !== 'no-verdict')
    issues.push({
      path: ['final', 'winner'],
      message: `null, but iteration ${last.iteration} was accepted`,
    });
  if (recommendation === 'adopt') {
    if (holdout === null)
      issues.push({ path: ['final', 'holdout'], message: 'null under the recommendation "adopt"' });
    else if (holdout.label !== 'noise' && holdout.label !== 'improvement')
      issues.push({
        path: ['final', 'holdout', 'label'],
        message: `"${holdout.label}" under the recommendation "adopt", which needs the winner to hold on the holdout`,
      });
    if (r.budgetStop !== undefined || r.interrupted === true)
      issues.push({
        path: ['final', 'recommendation'],
        message: `"adopt", but the session was ${r.interrupted ? 'interrupted' : 'stopped by --max-cost-usd'}`,
      });
  }
  if (recommendation === 'did-not-generalise' && winner === null)
    issues.push({ path: ['final', 'recommendation'], message: '"did-not-generalise" without a winner' });
  if (recommendation === 'keep-original' && last !== undefined)
    issues.push({
      path: ['final', 'recommendation'],
      message: `"keep-original", but iteration ${last.iteration} was accepted`,
    });
  if (recommendation === 'no-verdict' && r.budgetStop === undefined && r.interrupted !== true)
    issues.push({
      path: ['final', 'recommendation'],
      message: '"no-verdict", but neither budgetStop nor interrupted says what stopped the session',
    });
  return issues;
}
