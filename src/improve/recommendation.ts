import type { ImproveReport } from '../schemas/improve.js';

/** What the session recommends, in words: the improve Markdown's and the improve page's headline. */
export const RECOMMENDATION_TEXT: Record<ImproveReport['final']['recommendation'], string> = {
  adopt: 'Adopt the winner: it improved on train and held on the holdout.',
  'keep-original': 'Keep the original: no candidate was a significant improvement on train.',
  'did-not-generalise':
    'Keep the original: the winner improved on train but did not generalise to the holdout, so it is not offered.',
  'no-verdict':
    'No verdict: --max-cost-usd stopped the session before it could judge; keep the original (nothing was written).',
};
