import type { AskResult } from '../agents/claude/ask.js';
import { type PreviousAttempt, rewritePrompt } from '../author/prompts.js';
import { compareReport } from '../compare/compare.js';
import { ExitCode, SkilltriggerError } from '../errors.js';
import type { EvalItem } from '../inputs/types.js';
import type { Usage } from '../outcome.js';
import {
  type CandidateRecord,
  IMPROVE_NOTICE,
  IMPROVE_SCHEMA_ID,
  IMPROVE_SCHEMA_VERSION,
  type ImproveReport,
} from '../schemas/improve.js';
import type { QueryResult, Report } from '../schemas/report.js';
import { type MeasureBudget, type SessionBudget, SessionSpend, sessionBudgetReason } from './budget.js';
import {
  decideCandidate,
  type Figures,
  figuresOf,
  holdsOnHoldout,
  proposalAlpha,
  SESSION_ALPHA,
  splitItems,
  stopReason,
} from './decide.js';
import { readProposal } from './proposal.js';

/**
 * The author's loop (docs/author-loop.md): measure the original, ask for a rewrite from the train failures,
 * measure it paired against the incumbent on train, accept only a significant improvement with no
 * regression, stop on the iteration cap or two rejections in a row, then check the winner on the
 * holdout. No I/O of its own: measuring and asking are the caller's (`ImproveDeps`).
 */
export interface ImproveDeps {
  /** Measure `description` over `items` (paired against `baseline` when given, interleaved). */
  measure(request: {
    phase: string;
    items: EvalItem[];
    description: string;
    baseline?: string;
    /** `--max-cost-usd`: what is left of the session's budget; the measurement stops before a run that could pass it. */
    budget?: MeasureBudget;
  }): Promise<Report>;
  /** One rewrite call. */
  ask(prompt: string): Promise<AskResult>;
  /** A line per phase, for the terminal. */
  phase(line: string): void;
  /**
   * True once the user stopped the session (a signal): a measurement then comes back with the runs
   * made so far, and the session ends with what it has, no verdict, in a report.
   */
  stopped?(): boolean;
}

export interface ImproveSettings {
  skillName: string;
  body: string;
  original: string;
  items: EvalItem[];
  iterations: number;
  runsPerQuery: number;
  runsAuto: boolean;
  model?: string;
  triggerThreshold: number;
  stub: 'command' | 'skill';
  simulated: boolean;
  toolVersion: string;
  now?: () => Date;
  /** `--max-cost-usd` over the whole session: measured runs and rewrite calls. */
  budget?: SessionBudget;
  /** What a rewrite call's usage costs (null: no price); absent, the session's cost is not reported. */
  costOfUsage?: (usage: Usage) => number | null;
}

/** Why a candidate or the holdout check the budget cut short was not judged. */
const BUDGET_NOT_JUDGED = 'not judged: --max-cost-usd stopped its measurement';
/** Why a candidate or the holdout check a signal cut short was not judged. */
const INTERRUPTED_NOT_JUDGED = 'not judged: the session was interrupted during its measurement';
/** The stop reason of a session ended by a signal. */
export const INTERRUPTED_STOP =
  'interrupted: stopped by a signal; what was measured so far is reported, no verdict';

/** The improve session could not start or go on: its measurement of the incumbent has no verdict. */
export class NoBaselineError extends SkilltriggerError {}

function show(f: Figures): string {
  return `positives ${f.positives.hits}/${f.positives.runs}, negatives ${f.negatives.hits}/${f.negatives.runs}`;
}

/** Train queries the incumbent fails, with their hit counts: what the rewriter is shown. */
function failing(queries: readonly QueryResult[]) {
  return queries
    .filter((q) => q.pass === false)
    .map((q) => ({ query: q.query, shouldTrigger: q.shouldTrigger, hits: q.hits, runs: q.runs }));
}

export async function runImproveSession(
  settings: ImproveSettings,
  deps: ImproveDeps,
): Promise<ImproveReport> {
  const { train, holdout } = splitItems(settings.items);
  const alpha = proposalAlpha(settings.iterations);
  const trainIds = new Set(train.map((i) => i.id));
  const holdoutIds = new Set(holdout.map((i) => i.id));
  const classCount = (items: EvalItem[]) => ({
    positives: items.filter((i) => i.shouldTrigger).length,
    negatives: items.filter((i) => !i.shouldTrigger).length,
  });

  const spend = new SessionSpend(settings.budget, settings.costOfUsage);
  const interrupted = () => deps.stopped?.() === true;
  /** Why a measurement cut short (by the budget or a signal) is not judged. */
  const notJudged = () => (interrupted() ? INTERRUPTED_NOT_JUDGED : BUDGET_NOT_JUDGED);
  /** One measurement within what is left of the budget; undefined when the budget cannot pay its first run. */
  const measure = async (request: Parameters<ImproveDeps['measure']>[0]) => {
    const budget = spend.beforeMeasure(request.phase);
    if (budget === false) return undefined;
    const report = await deps.measure({ ...request, ...(budget ? { budget } : {}) });
    spend.afterMeasure(report, request.phase);
    return report;
  };
  const base: Pick<
    ImproveReport,
    | 'schema'
    | 'schemaVersion'
    | 'notice'
    | 'tool'
    | 'createdAt'
    | 'skill'
    | 'simulated'
    | 'settings'
    | 'queries'
  > = {
    schema: IMPROVE_SCHEMA_ID,
    schemaVersion: IMPROVE_SCHEMA_VERSION,
    notice: IMPROVE_NOTICE,
    tool: { name: 'skilltrigger', version: settings.toolVersion },
    createdAt: (settings.now?.() ?? new Date()).toISOString(),
    skill: settings.skillName,
    simulated: settings.simulated,
    settings: {
      iterations: settings.iterations,
      runsPerQuery: settings.runsPerQuery,
      runsMode: settings.runsAuto ? 'auto' : 'fixed',
      sessionAlpha: SESSION_ALPHA,
      proposalAlpha: alpha,
      model: settings.model ?? null,
      triggerThreshold: settings.triggerThreshold,
      stub: settings.stub,
      ...(settings.budget ? { maxCostUsd: settings.budget.maxUsd } : {}),
    },
    queries: { train: classCount(train), holdout: classCount(holdout) },
  };
  /** The report's cost and budget stop, whichever way the session ended. */
  const spent = () => {
    const cost = spend.cost();
    return {
      ...(cost ? { cost } : {}),
      ...(spend.stop ? { budgetStop: spend.stop } : {}),
      ...(interrupted() ? { interrupted: true as const } : {}),
    };
  };

  deps.phase(`improve: measuring the original on ${train.length} train + ${holdout.length} holdout queries`);
  const first = await measure({
    phase: 'original',
    items: settings.items,
    description: settings.original,
  });
  // The budget ran out on the original, or a signal stopped it: nothing can be judged, but what was
  // measured is reported.
  if (first === undefined || spend.stop || interrupted()) {
    const queries = first?.candidate.queries ?? [];
    const stop = interrupted() ? INTERRUPTED_STOP : spend.stop ? sessionBudgetReason(spend.stop) : 'stopped';
    deps.phase(`improve: ${stop}`);
    return {
      ...base,
      original: {
        description: settings.original,
        train: figuresOf(queries, trainIds),
        holdout: figuresOf(queries, holdoutIds),
      },
      candidates: [],
      stopReason: stop,
      final: { winner: null, holdout: null, recommendation: 'no-verdict', written: false },
      ...spent(),
    };
  }
  if (first.verdict === 'no-verdict') {
    throw new NoBaselineError(
      `improve: the original description's measurement has no verdict (${first.candidate.noVerdictReasons.join('; ')}); nothing can be judged against it. Fix: see \`skilltrigger run\` on the same inputs`,
      ExitCode.noVerdict,
    );
  }
  const originalTrain = figuresOf(first.candidate.queries, trainIds);
  const originalHoldout = figuresOf(first.candidate.queries, holdoutIds);
  deps.phase(`improve: original · train ${show(originalTrain)} · holdout ${show(originalHoldout)}`);

  let incumbent = settings.original;
  let incumbentTrainQueries = first.candidate.queries.filter((q) => trainIds.has(q.id));
  const candidates: CandidateRecord[] = [];
  const attempts: PreviousAttempt[] = [];
  const seen = [settings.original];
  let stop: string | undefined;
  for (;;) {
    stop = stopReason(
      candidates.map((c) => c.decision),
      settings.iterations,
    );
    if (stop !== undefined || interrupted()) break;
    const iteration = candidates.length + 1;
    if (!spend.beforeRewrite(`rewrite ${iteration}`)) break;
    deps.phase(`improve: iteration ${iteration}/${settings.iterations} · asking for a rewrite`);
    const prompt = rewritePrompt({
      skillName: settings.skillName,
      body: settings.body,
      current: incumbent,
      failing: failing(incumbentTrainQueries),
      attempts,
    });
    const answer = await deps.ask(prompt);
    spend.afterRewrite(answer.kind === 'answer' ? answer.usage : undefined);
    // A rewrite call cut by a signal is no proposal: the session ends with what it measured.
    if (interrupted()) break;
    const proposal = readProposal(answer, seen);
    if (proposal.kind === 'none') {
      deps.phase(`improve: iteration ${iteration} · rejected without measuring: ${proposal.reason}`);
      candidates.push({
        iteration,
        description: null,
        proposal: proposal.proposal,
        decision: 'rejected',
        reason: proposal.reason,
        label: null,
        pValue: null,
        train: null,
      });
      if (proposal.fatal) {
        stop = `the rewrite call failed: ${proposal.reason}`;
        break;
      }
      continue;
    }
    seen.push(proposal.text);
    deps.phase(
      `improve: iteration ${iteration} · measuring the candidate paired against the incumbent on ${train.length} train queries`,
    );
    const paired = await measure({
      phase: `candidate ${iteration}`,
      items: train,
      description: proposal.text,
      baseline: incumbent,
    });
    if (paired === undefined || spend.stop || interrupted()) {
      // Cut short by the budget or a signal: the candidate is not judged on a part of its runs.
      candidates.push({
        iteration,
        description: proposal.text,
        proposal: 'measured',
        decision: 'rejected',
        reason: notJudged(),
        label: 'no-verdict',
        pValue: null,
        train: paired
          ? {
              incumbent: figuresOf(paired.baseline?.queries ?? []),
              candidate: figuresOf(paired.candidate.queries),
            }
          : null,
      });
      break;
    }
    const decision = decideCandidate(compareReport(paired, { alpha }));
    const incumbentFigures = figuresOf(paired.baseline?.queries ?? []);
    const candidateFigures = figuresOf(paired.candidate.queries);
    deps.phase(`improve: iteration ${iteration} · ${decision.decision}: ${decision.reason}`);
    candidates.push({
      iteration,
      description: proposal.text,
      proposal: 'measured',
      decision: decision.decision,
      reason: decision.reason,
      label: decision.label,
      pValue: decision.pValue,
      train: { incumbent: incumbentFigures, candidate: candidateFigures },
    });
    attempts.push({
      description: proposal.text,
      train: show(candidateFigures),
      outcome: `${decision.decision}: ${decision.reason}`,
    });
    if (decision.decision === 'accepted') {
      incumbent = proposal.text;
      incumbentTrainQueries = paired.candidate.queries;
    } else if (paired.baseline) {
      // The freshest measurement of the incumbent feeds the next proposal.
      incumbentTrainQueries = paired.baseline.queries;
    }
  }

  let final: ImproveReport['final'] = {
    winner: null,
    holdout: null,
    recommendation: 'keep-original',
    written: false,
  };
  if (incumbent !== settings.original && !spend.stop && !interrupted()) {
    deps.phase(
      `improve: measuring the winner paired against the original on ${holdout.length} holdout queries`,
    );
    const check = await measure({
      phase: 'holdout',
      items: holdout,
      description: incumbent,
      baseline: settings.original,
    });
    // Cut short by the budget, the holdout check is not judged on a part of its runs; its runs are kept.
    const comparison =
      check === undefined || spend.stop || interrupted()
        ? undefined
        : compareReport(check, { alpha: SESSION_ALPHA });
    const verdict = comparison ? holdsOnHoldout(comparison) : { holds: false, reason: notJudged() };
    final = {
      winner: incumbent,
      holdout:
        check === undefined
          ? null
          : {
              original: figuresOf(check.baseline?.queries ?? []),
              winner: figuresOf(check.candidate.queries),
              label: comparison?.label ?? 'no-verdict',
              reason: verdict.reason,
            },
      recommendation: verdict.holds ? 'adopt' : 'did-not-generalise',
      written: false,
    };
    if (comparison)
      deps.phase(`improve: holdout · ${verdict.holds ? 'held' : 'did not generalise'}: ${verdict.reason}`);
  }
  // The budget or a signal ended the session: no verdict, the winner so far (if any) unchecked and
  // never written.
  if (spend.stop || interrupted()) {
    stop = interrupted() || !spend.stop ? INTERRUPTED_STOP : sessionBudgetReason(spend.stop);
    final = {
      winner: incumbent === settings.original ? null : incumbent,
      holdout: final.holdout,
      recommendation: 'no-verdict',
      written: false,
    };
    deps.phase(`improve: ${stop}`);
  }

  return {
    ...base,
    original: { description: settings.original, train: originalTrain, holdout: originalHoldout },
    candidates,
    stopReason: stop ?? 'stopped',
    final,
    ...spent(),
  };
}
