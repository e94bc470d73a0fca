/**
 * The Action's public names in one place: inputs and outputs as `action.yml` declares them, and the
 * defaults the runner fills in from `action.yml`. The defaults are repeated here because a step
 * run outside the runner (the tests, `node dist/index.js` by hand) gets no `INPUT_*` for an input it
 * leaves out; a test checks that both lists agree.
 */
import type { AgentFacts } from '../agents/facts.js';
import { AGENTS, DEFAULT_AGENT } from '../agents/registry.js';

export const Inputs = {
  Agents: 'agents',
  Model: 'model',
  Models: 'models',
  Runs: 'runs',
  Timeout: 'timeout',
  Skills: 'skills',
  SkillsAll: 'skills-all',
  Evals: 'evals',
  Baseline: 'baseline',
  FailOnRegression: 'fail-on-regression',
  Comment: 'comment',
  AllowConflict: 'allow-conflict',
  AllowPullRequestTarget: 'allow-pull-request-target',
  OnFork: 'on-fork',
  GithubToken: 'github-token',
  Out: 'out',
  Shard: 'shard',
  Mode: 'mode',
  ResultsDir: 'results-dir',
  Competition: 'competition',
  CrossNegatives: 'cross-negatives',
  Late: 'late',
  ContextFill: 'context-fill',
  Context: 'context',
  Memory: 'memory',
  VersusFresh: 'versus-fresh',
  Roster: 'roster',
  Prices: 'prices',
  MaxCostUsd: 'max-cost-usd',
  RoutingMatrix: 'routing-matrix',
  AcceptDrift: 'accept-drift',
} as const;
/** Each agent's own inputs (its version, executable and API key), named by the registry. */
export const AgentInputNames: readonly string[] = Object.values(AGENTS).flatMap((a) =>
  Object.values(a.inputs),
);
export type InputName =
  | (typeof Inputs)[keyof typeof Inputs]
  | AgentFacts['inputs'][keyof AgentFacts['inputs']];

export const Outputs = {
  Verdicts: 'verdicts',
  Reports: 'reports',
  Junit: 'junit',
  Regressions: 'regressions',
  CommentId: 'comment-id',
  ResultsFile: 'results-file',
} as const;
export type OutputName = (typeof Outputs)[keyof typeof Outputs];

/**
 * Defaults of the inputs that have one (an input missing here defaults to empty). `github-token`
 * defaults to `${{ github.token }}` in action.yml, an expression only the runner can evaluate.
 */
export const InputDefaults: Partial<Record<InputName, string>> = {
  // Each agent's version: the one this release was tested with (package.json devDependencies).
  ...Object.fromEntries(Object.values(AGENTS).map((a) => [a.inputs.version, a.pinnedVersion])),
  [Inputs.Agents]: DEFAULT_AGENT,
  [Inputs.Runs]: '2',
  [Inputs.Timeout]: '30',
  [Inputs.Skills]: '**/SKILL.md',
  [Inputs.SkillsAll]: 'false',
  [Inputs.Baseline]: 'cache',
  [Inputs.FailOnRegression]: 'false',
  [Inputs.Comment]: 'true',
  [Inputs.AllowConflict]: 'false',
  [Inputs.AllowPullRequestTarget]: 'false',
  [Inputs.OnFork]: 'skip',
  [Inputs.Out]: 'skilltrigger-results',
  [Inputs.Mode]: 'measure',
  [Inputs.ResultsDir]: 'skilltrigger-results',
  [Inputs.Competition]: 'siblings',
  [Inputs.CrossNegatives]: 'false',
  [Inputs.Late]: '0',
  [Inputs.ContextFill]: '',
  [Inputs.Memory]: '',
  [Inputs.VersusFresh]: 'false',
  [Inputs.RoutingMatrix]: 'false',
  [Inputs.AcceptDrift]: 'false',
};

/** Names the sticky PR comment among other comments (`<!-- skilltrigger:results -->`). */
export const COMMENT_MARKER = 'results';

/** Names the one drift issue of a repository among its issues (`<!-- skilltrigger:drift -->`). */
export const DRIFT_MARKER = 'drift';

/**
 * Where a skill's eval set is looked for when the `evals` input is empty, in this order, relative to
 * the folder holding SKILL.md. `{dir}` is that folder (relative to the repository root), `{name}`
 * the skill's name. The first file that exists is used.
 */
export { DEFAULT_EVAL_LOCATIONS } from '../inputs/discovery.js';
