import type { GateResult } from '../../agents/gates.js';
import type { ModelComparison } from '../../compare/by-model.js';
import type { Comparison } from '../../compare/compare.js';
import type { WeakSetCode } from '../../inputs/weak-set.js';
import type { MatrixReport } from '../../schemas/matrix.js';
import type { Report } from '../../schemas/report.js';
import { listingLosses } from './listing-change.js';

/**
 * What one Action run found, as data: the renderers (comment, summary), the outputs and the exit
 * code all read this and nothing else. Strings in here are plain text; renderers escape them.
 */

/** How a SKILL.md changed between the two commits (`all`: listed because every skill is measured). */
export type SkillChange = 'added' | 'modified' | 'renamed' | 'removed' | 'all';

/** Why a SKILL.md that changed is not measured. */
export type SkipReason =
  /** The listing entry is the same: only the body (or formatting) changed, which the model never reads. */
  | 'body-only'
  /** Moved without a change to its listing entry. */
  | 'renamed-unchanged'
  /** Deleted: there is nothing left to measure. */
  | 'removed';

/**
 * How a PR's numbers get a baseline to compare with, the one list the input, its check and the
 * results file read:
 * - `cache`: the report saved on the default branch (by the base sha, else the newest). When none
 *   is cached (or it cannot be read), the base description is measured in this job, paired, and
 *   the comment says why: a missing baseline never lets a regressed description pass unmeasured.
 * - `cache-only`: the cached report only: when it is missing, the PR is measured alone and the
 *   comment says so (saves runs).
 * - `measure`: the cached report when it fits; when it is missing, stale or from another
 *   environment, the base description is measured in this job, interleaved with the PR's (paired).
 * - `none`: no comparison: the PR's description is measured alone.
 */
export const BASELINE_MODES = ['cache', 'cache-only', 'measure', 'none'] as const;
export type BaselineMode = (typeof BASELINE_MODES)[number];

/** Where a PR's comparison got its baseline from. */
export type BaselineUse =
  | {
      kind: 'cache';
      /** `exact`: the base commit's own report; `prefix`: the newest report saved for the skill. */
      hit: 'exact' | 'prefix';
      /** The commit the cached report measured (from its key). */
      sha?: string;
      createdAt: string;
      /** Environment differences that matter (model, CLI version, roster), plainly worded. */
      drift: string[];
      /** The cached report measured another description than the base branch holds. */
      stale: boolean;
    }
  /** The base description was measured in this job, interleaved with the PR's. `why` says what made that necessary. */
  | { kind: 'paired'; why: string }
  /** Nothing to compare with; `why` says so plainly. */
  | { kind: 'none'; why: string };

/** Saving a push's report as the baseline. */
export type BaselineSave = { saved: true; key: string } | { saved: false; why: string };

export interface MeasuredSkill {
  kind: 'measured';
  skill: string;
  /** Repository-relative SKILL.md path. */
  file: string;
  descriptionLine: number;
  change: SkillChange;
  previousPath?: string;
  report: Report;
  reportPath: string;
  markdownPath: string;
  /** On a PR. */
  baseline?: BaselineUse;
  /** The cached report the comparison used as its base (a paired report carries its own). */
  baselineReport?: Report;
  /** On a PR with a baseline. */
  comparison?: Comparison;
  /** On a PR with a baseline and several models: each model compared on its own runs. */
  byModel?: ModelComparison[];
  /** On a push. */
  saved?: BaselineSave;
  /** Loader warnings (a listing the CLI will cut, an eval set's dropped parts, …). */
  warnings: string[];
}

export interface SkippedSkill {
  kind: 'skipped';
  file: string;
  change: SkillChange;
  previousPath?: string;
  reason: SkipReason;
  skill?: string;
}

export interface InvalidSkill {
  kind: 'invalid';
  file: string;
  skill?: string;
  /** One line per defect, each naming file and line. */
  problems: string[];
}

/** A skill that was due to be measured when the run stopped (a gate failed, or another skill's input did). */
export interface NotRunSkill {
  kind: 'not-run';
  file: string;
  skill: string;
}

export type SkillResult = MeasuredSkill | SkippedSkill | InvalidSkill | NotRunSkill;

/**
 * The repository's routing matrix (`routing-matrix: true`, docs/matrix.md): measured (in a matrix leg, its
 * slice of the queries; after `mode: merge`, every leg's joined), refused for its inputs, or not
 * measured (a gate failed, the job was cancelled), with why.
 */
export type RoutingMatrix =
  | { kind: 'measured'; report: MatrixReport; reportPath: string; markdownPath: string }
  | { kind: 'invalid'; problems: string[] }
  | { kind: 'not-run'; why: string };

/** How far the run got. */
export type RunStage =
  /** No SKILL.md in scope changed. */
  | 'nothing'
  /** Another event or branch: not this Action's business. */
  | 'ignored'
  /** An input defect stopped the run before anything was spent. */
  | 'input-error'
  | 'gate-failed'
  | 'measured';

export interface ActionRun {
  event: 'pull_request' | 'push' | 'other';
  eventName: string;
  prNumber?: number;
  /** The commit measured. */
  headSha?: string;
  /** The commit compared with (a PR's base; a push's previous commit). */
  baseSha?: string;
  fromFork: boolean;
  stage: RunStage;
  skills: SkillResult[];
  gates: GateResult[];
  /** Plain statements about the run (why every skill was measured, why no comment, …). */
  notes: string[];
  settings: {
    runs: number;
    model?: string;
    baseline: BaselineMode;
    failOnRegression: boolean;
    /** `roster`: the crowd's path in the repository, for the comment's local command. */
    roster?: string;
  };
  cliVersion?: string;
  /** `max-cost-usd` (docs/cost.md): the job's budget; `refused` says why nothing was measured when the estimate passed it. */
  budget?: { maxUsd: number; refused?: string };
  /** With `routing-matrix: true`, when the run had a skill to measure. */
  matrix?: RoutingMatrix;
  /**
   * Where a reader finds more, for the footer: this workflow run's page (which holds the job
   * summaries) and the HTML pages' artifact. Set when publishing; never stored in a results file.
   */
  links?: RunLinks;
  /**
   * The eval sets' findings (`check`'s weak-set rules), by skill: annotated on each eval set, and one
   * line in the job summary. This job's own; never stored in a results file.
   */
  evalSetFindings?: EvalSetFindings[];
  /** `mode: drift`: a drift run (its findings are judged from the skills: results/drift.ts). */
  drift?: DriftRun;
}

/** What a drift run holds beside its skills. */
export interface DriftRun {
  /** `accept-drift`: this run's measurements were to become the baselines even where a skill moved. */
  accept: boolean;
  /** What became of the drift issue, or why it could not be kept. Set when publishing. */
  issue?:
    | { kind: 'kept'; action: 'created' | 'updated' | 'closed' | 'none'; number?: number; url?: string }
    | { kind: 'failed'; why: string };
}

/** One skill's eval-set findings, by code (src/inputs/weak-set.ts). */
export interface EvalSetFindings {
  skill: string;
  codes: WeakSetCode[];
}

export interface RunLinks {
  /** `<server>/<owner>/<repo>/actions/runs/<id>`. */
  run?: string;
  /** The HTML pages' artifact: its name, and its page when the upload gave an id. */
  artifact?: { name: string; url?: string };
}

/** The skill's overall standing, as the tables show it. */
export type SkillStanding =
  | 'regression'
  | 'improvement'
  | 'noise'
  | 'no-verdict'
  | 'no-baseline'
  | 'measured'
  | 'not-measured'
  | 'invalid';

/** The label a skill stands at: a regression on any model wins, else the pooled label. */
export function byModelLabel<L extends string>(
  pooled: L,
  byModel: ModelComparison[] | undefined,
): L | 'regression' {
  return byModel?.some((m) => m.comparison.label === 'regression') ? 'regression' : pooled;
}

export function standingOf(result: SkillResult): SkillStanding {
  switch (result.kind) {
    case 'measured':
      if (result.report.verdict === 'no-verdict') return 'no-verdict';
      // A description the baseline listed and this run lists by its name alone regressed, whatever the rates.
      if (listingLosses(result).length > 0) return 'regression';
      if (result.comparison) return byModelLabel(result.comparison.label, result.byModel);
      return result.baseline ? 'no-baseline' : 'measured';
    case 'skipped':
    case 'not-run':
      return 'not-measured';
    case 'invalid':
      return 'invalid';
  }
}

export function regressions(run: ActionRun): MeasuredSkill[] {
  return run.skills.filter(
    (s): s is MeasuredSkill => s.kind === 'measured' && standingOf(s) === 'regression',
  );
}

/**
 * The counts a skill's table shows, and so its `verdicts` output (one rule for both): with a
 * comparison, this run's side over the queries both sides share; else every query measured.
 * `leftOut` counts this run's queries the comparison does not hold (new, or should_trigger flipped).
 */
export function shownCounts(s: MeasuredSkill): {
  positives: { triggered: number; runs: number };
  negatives: { fired: number; runs: number };
  queries: { compared: number; leftOut: number };
} {
  const c = s.comparison;
  if (c) {
    return {
      positives: { triggered: c.positives.cand.hits, runs: c.positives.cand.runs },
      negatives: { fired: c.negatives.cand.hits, runs: c.negatives.cand.runs },
      queries: { compared: c.queries.shared, leftOut: c.queries.candOnly + c.queries.shouldTriggerChanged },
    };
  }
  const t = s.report.candidate.totals;
  return {
    positives: { triggered: t.positives.triggered, runs: t.positives.runs },
    negatives: { fired: t.negatives.fired, runs: t.negatives.runs },
    queries: { compared: t.queries, leftOut: 0 },
  };
}

/**
 * The `reports` output: the JSON reports this run wrote, one per measured skill in the run's order,
 * then the routing matrix's (`routing-matrix: true`: a leg's slice, or after `mode: merge` the
 * merged matrix). Each report's Markdown and HTML sit beside its JSON under the same stem.
 */
export function reportPaths(run: ActionRun): string[] {
  const skills = run.skills.flatMap((s) => (s.kind === 'measured' ? [s.reportPath] : []));
  return run.matrix?.kind === 'measured' ? [...skills, run.matrix.reportPath] : skills;
}

/**
 * The `verdicts` output's `passed`, the field a script gates on (docs/action.md, "Outputs"): true
 * for a skill measured with a verdict and no regression, false for a regression, no verdict or an
 * input error, null for one not measured (nothing to measure, or the run stopped first). It does
 * not depend on `fail-on-regression`; `verdict: "ok"` only says the measurement is valid.
 */
export function passedOf(s: SkillResult): boolean | null {
  switch (standingOf(s)) {
    case 'regression':
    case 'no-verdict':
    case 'invalid':
      return false;
    case 'not-measured':
      return null;
    case 'improvement':
    case 'noise':
    case 'no-baseline':
    case 'measured':
      return true;
  }
}

/** The `verdicts` output: one entry per skill, keyed by skill name (by path when unnamed or taken). */
export function verdictsOutput(run: ActionRun): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of run.skills) {
    const name = s.kind === 'measured' || s.kind === 'not-run' ? s.skill : (s.skill ?? s.file);
    // Two folders may hold skills of one name (a monorepo): the second is keyed by its path.
    const key = Object.hasOwn(out, name) ? s.file : name;
    const common = { file: s.file, standing: standingOf(s), passed: passedOf(s) };
    switch (s.kind) {
      case 'measured': {
        const t = s.report.candidate.totals;
        const shown = shownCounts(s);
        out[key] = {
          ...common,
          verdict: s.report.verdict,
          label: s.comparison?.label ?? null,
          positives: shown.positives,
          negatives: shown.negatives,
          queries: shown.queries,
          lost: { timeouts: t.timeouts, errors: t.errors },
          baseline: s.baseline?.kind ?? null,
          report: s.reportPath,
        };
        break;
      }
      case 'skipped':
        out[key] = { ...common, reason: s.reason };
        break;
      case 'invalid':
        out[key] = { ...common, problems: s.problems };
        break;
      case 'not-run':
        out[key] = common;
        break;
    }
  }
  return out;
}
