import type { AskResult } from '../agents/agent.js';
import type { AgentId } from '../agents/ids.js';
import { DEFAULT_AGENT } from '../agents/registry.js';
import { ExitCode, SkilltriggerError } from '../errors.js';
import type { EvalItem } from '../inputs/types.js';
import type { Usage } from '../outcome.js';
import {
  IMPROVE_NOTICE,
  IMPROVE_SCHEMA_ID,
  IMPROVE_SCHEMA_VERSION,
  type ImproveReport,
} from '../schemas/improve.js';
import type { Report } from '../schemas/report.js';
import { type SessionBudget, SessionSpend, sessionBudgetReason } from './budget.js';
import { figuresOf, proposalAlpha, SESSION_ALPHA, splitItems } from './decide.js';
import {
  checkOnHoldout,
  type LoopState,
  type MeasureRequest,
  rewriteLoop,
  type Session,
  show,
} from './session-loop.js';

/**
 * The author's loop (docs/author-loop.md): measure the original, ask for a rewrite from the train failures,
 * measure it paired against the incumbent on train, accept only a significant improvement with no
 * regression, stop on the iteration cap or two rejections in a row, then check the winner on the
 * holdout. No I/O of its own: measuring and asking are the caller's (`ImproveDeps`).
 */
export interface ImproveDeps {
  /** Measure `description` over `items` (paired against `baseline` when given, interleaved). */
  measure(request: MeasureRequest): Promise<Report>;
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
  /** `--agent`: the agent measured and asked for rewrites (absent: the default agent). */
  agent?: AgentId;
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

/** The session's shared state: the train/holdout split, the spend, and measuring within the budget. */
function openSession(settings: ImproveSettings, deps: ImproveDeps): Session {
  const { train, holdout } = splitItems(settings.items);
  const spend = new SessionSpend(settings.budget, settings.costOfUsage);
  const interrupted = () => deps.stopped?.() === true;
  return {
    ...(settings.agent === undefined ? {} : { agent: settings.agent }),
    skillName: settings.skillName,
    body: settings.body,
    original: settings.original,
    iterations: settings.iterations,
    train,
    holdout,
    alpha: proposalAlpha(settings.iterations),
    spend,
    measure: async (request) => {
      const budget = spend.beforeMeasure(request.phase);
      if (budget === false) return undefined;
      const report = await deps.measure({ ...request, ...(budget ? { budget } : {}) });
      spend.afterMeasure(report, request.phase);
      return report;
    },
    ask: (prompt) => deps.ask(prompt),
    phase: (line) => deps.phase(line),
    interrupted,
    notJudged: () => (interrupted() ? INTERRUPTED_NOT_JUDGED : BUDGET_NOT_JUDGED),
  };
}

type ReportHeader = Pick<
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
>;

/** The report's fields that do not depend on how the session went. */
function reportHeader(settings: ImproveSettings, session: Session): ReportHeader {
  const classCount = (items: EvalItem[]) => ({
    positives: items.filter((i) => i.shouldTrigger).length,
    negatives: items.filter((i) => !i.shouldTrigger).length,
  });
  return {
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
      proposalAlpha: session.alpha,
      model: settings.model ?? null,
      triggerThreshold: settings.triggerThreshold,
      stub: settings.stub,
      ...(settings.budget ? { maxCostUsd: settings.budget.maxUsd } : {}),
      ...(settings.agent === undefined || settings.agent === DEFAULT_AGENT ? {} : { agent: settings.agent }),
    },
    queries: { train: classCount(session.train), holdout: classCount(session.holdout) },
  };
}

/** The report's cost and budget stop, whichever way the session ended. */
function spent(session: Session) {
  const cost = session.spend.cost();
  return {
    ...(cost ? { cost } : {}),
    ...(session.spend.stop ? { budgetStop: session.spend.stop } : {}),
    ...(session.interrupted() ? { interrupted: true as const } : {}),
  };
}

/**
 * The budget ran out on the original, or a signal stopped it: nothing can be judged, but what was
 * measured is reported.
 */
function endedOnOriginal(session: Session, header: ReportHeader, first: Report | undefined): ImproveReport {
  const queries = first?.candidate.queries ?? [];
  const trainIds = new Set(session.train.map((i) => i.id));
  const holdoutIds = new Set(session.holdout.map((i) => i.id));
  const stop = session.interrupted()
    ? INTERRUPTED_STOP
    : session.spend.stop
      ? sessionBudgetReason(session.spend.stop)
      : 'stopped';
  session.phase(`improve: ${stop}`);
  return {
    ...header,
    original: {
      description: session.original,
      train: figuresOf(queries, trainIds),
      holdout: figuresOf(queries, holdoutIds),
    },
    candidates: [],
    stopReason: stop,
    final: { winner: null, holdout: null, recommendation: 'no-verdict', written: false },
    ...spent(session),
  };
}

export async function runImproveSession(
  settings: ImproveSettings,
  deps: ImproveDeps,
): Promise<ImproveReport> {
  const session = openSession(settings, deps);
  const { train, holdout, spend } = session;
  const trainIds = new Set(train.map((i) => i.id));
  const holdoutIds = new Set(holdout.map((i) => i.id));
  const header = reportHeader(settings, session);

  deps.phase(`improve: measuring the original on ${train.length} train + ${holdout.length} holdout queries`);
  const first = await session.measure({
    phase: 'original',
    items: settings.items,
    description: settings.original,
  });
  if (first === undefined || spend.stop || session.interrupted())
    return endedOnOriginal(session, header, first);
  if (first.verdict === 'no-verdict') {
    throw new NoBaselineError(
      `improve: the original description's measurement has no verdict (${first.candidate.noVerdictReasons.join('; ')}); nothing can be judged against it. Fix: see \`skilltrigger run\` on the same inputs`,
      ExitCode.noVerdict,
    );
  }
  const originalTrain = figuresOf(first.candidate.queries, trainIds);
  const originalHoldout = figuresOf(first.candidate.queries, holdoutIds);
  deps.phase(`improve: original · train ${show(originalTrain)} · holdout ${show(originalHoldout)}`);

  const state: LoopState = {
    incumbent: settings.original,
    incumbentTrainQueries: first.candidate.queries.filter((q) => trainIds.has(q.id)),
    candidates: [],
    attempts: [],
    seen: [settings.original],
  };
  const stop = await rewriteLoop(session, state);
  const final: ImproveReport['final'] =
    state.incumbent !== settings.original && !spend.stop && !session.interrupted()
      ? await checkOnHoldout(session, state.incumbent)
      : { winner: null, holdout: null, recommendation: 'keep-original', written: false };
  return {
    ...header,
    original: { description: settings.original, train: originalTrain, holdout: originalHoldout },
    candidates: state.candidates,
    ...(spend.stop || session.interrupted()
      ? endedEarly(session, state.incumbent, final)
      : { stopReason: stop ?? 'stopped', final }),
    ...spent(session),
  };
}

/**
 * The budget or a signal ended the session: no verdict, the winner so far (if any) unchecked and
 * never written.
 */
function endedEarly(
  session: Session,
  incumbent: string,
  final: ImproveReport['final'],
): Pick<ImproveReport, 'stopReason' | 'final'> {
  const { spend } = session;
  const stop = session.interrupted() || !spend.stop ? INTERRUPTED_STOP : sessionBudgetReason(spend.stop);
  session.phase(`improve: ${stop}`);
  return {
    stopReason: stop,
    final: {
      winner: incumbent === session.original ? null : incumbent,
      holdout: final.holdout,
      recommendation: 'no-verdict',
      written: false,
    },
  };
}
