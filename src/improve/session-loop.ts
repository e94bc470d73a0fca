import type { AgentId } from '../agents/ids.js';
import { agentFacts, DEFAULT_AGENT } from '../agents/registry.js';
import { type PreviousAttempt, rewritePrompt } from '../author/prompts.js';
import { compareReport } from '../compare/compare.js';
import type { EvalItem } from '../inputs/types.js';
import type { CandidateRecord, ImproveReport } from '../schemas/improve.js';
import type { QueryResult, Report } from '../schemas/report.js';
import type { MeasureBudget, SessionSpend } from './budget.js';
import {
  decideCandidate,
  type Figures,
  figuresOf,
  holdsOnHoldout,
  SESSION_ALPHA,
  stopReason,
} from './decide.js';
import { type Proposal, readProposal } from './proposal.js';

/*
 * The steps of the improve session after the original is measured (session.ts): the rewrite loop,
 * one iteration at a time (ask, read the proposal, measure it paired against the incumbent, judge),
 * then the winner's check on the holdout.
 */

/** One measurement request: a phase's items and description, paired against `baseline` when given. */
export interface MeasureRequest {
  phase: string;
  items: EvalItem[];
  description: string;
  baseline?: string;
  /** `--max-cost-usd`: what is left of the session's budget; the measurement stops before a run that could pass it. */
  budget?: MeasureBudget;
}

/** What every step of one session shares: its inputs, its split, its spend, and its I/O. */
export interface Session {
  /** The agent measured and asked (absent: the default agent). */
  agent?: AgentId;
  skillName: string;
  body: string;
  original: string;
  iterations: number;
  train: EvalItem[];
  holdout: EvalItem[];
  /** The significance level each proposal is judged at. */
  alpha: number;
  spend: SessionSpend;
  /** One measurement within what is left of the budget; undefined when the budget cannot pay its first run. */
  measure(request: MeasureRequest): Promise<Report | undefined>;
  ask(prompt: string): Promise<Parameters<typeof readProposal>[0]>;
  phase(line: string): void;
  /** True once the user stopped the session (a signal). */
  interrupted(): boolean;
  /** Why a measurement cut short (by the budget or a signal) is not judged. */
  notJudged(): string;
}

/** The loop's state: the incumbent and its freshest train measurement, and what was tried. */
export interface LoopState {
  incumbent: string;
  incumbentTrainQueries: QueryResult[];
  candidates: CandidateRecord[];
  attempts: PreviousAttempt[];
  /** Every description the session has seen, so a proposal must be new. */
  seen: string[];
}

export function show(f: Figures): string {
  return `positives ${f.positives.hits}/${f.positives.runs}, negatives ${f.negatives.hits}/${f.negatives.runs}`;
}

/** Train queries the incumbent fails, with their hit counts: what the rewriter is shown. */
function failing(queries: readonly QueryResult[]) {
  return queries
    .filter((q) => q.pass === false)
    .map((q) => ({ query: q.query, shouldTrigger: q.shouldTrigger, hits: q.hits, runs: q.runs }));
}

/** An iteration either lets the loop go on, or ends it (with a stop reason when it has one). */
type Step = { end: false } | { end: true; stop?: string };

/**
 * Iterates until the cap or two rejections in a row (the stop reason), a signal, the budget (no
 * reason: the caller reports those), or a failed rewrite call.
 */
export async function rewriteLoop(session: Session, state: LoopState): Promise<string | undefined> {
  for (;;) {
    const stop = stopReason(
      state.candidates.map((c) => c.decision),
      session.iterations,
    );
    if (stop !== undefined || session.interrupted()) return stop;
    const iteration = state.candidates.length + 1;
    if (!session.spend.beforeRewrite(`rewrite ${iteration}`)) return undefined;
    const step = await iterate(session, state, iteration);
    if (step.end) return step.stop;
  }
}

async function iterate(session: Session, state: LoopState, iteration: number): Promise<Step> {
  session.phase(`improve: iteration ${iteration}/${session.iterations} · asking for a rewrite`);
  const prompt = rewritePrompt({
    skillName: session.skillName,
    body: session.body,
    current: state.incumbent,
    failing: failing(state.incumbentTrainQueries),
    attempts: state.attempts,
    ...(session.agent === undefined || session.agent === DEFAULT_AGENT
      ? {}
      : { agentLabel: agentFacts(session.agent).label }),
  });
  const answer = await session.ask(prompt);
  session.spend.afterRewrite(answer.kind === 'answer' ? answer.usage : undefined);
  // A rewrite call cut by a signal is no proposal: the session ends with what it measured.
  if (session.interrupted()) return { end: true };
  const proposal = readProposal(answer, state.seen, session.agent);
  if (proposal.kind === 'none') return rejectUnmeasured(session, state, iteration, proposal);
  state.seen.push(proposal.text);
  return measureCandidate(session, state, iteration, proposal.text);
}

/** A proposal with no usable text is rejected without a run; a failed call ends the session. */
function rejectUnmeasured(
  session: Session,
  state: LoopState,
  iteration: number,
  proposal: Extract<Proposal, { kind: 'none' }>,
): Step {
  session.phase(`improve: iteration ${iteration} · rejected without measuring: ${proposal.reason}`);
  state.candidates.push({
    iteration,
    description: null,
    proposal: proposal.proposal,
    decision: 'rejected',
    reason: proposal.reason,
    label: null,
    pValue: null,
    train: null,
  });
  return proposal.fatal ? { end: true, stop: `the rewrite call failed: ${proposal.reason}` } : { end: false };
}

/** Cut short by the budget or a signal: the candidate is not judged on a part of its runs. */
function cutShort(
  session: Session,
  iteration: number,
  text: string,
  paired: Report | undefined,
): CandidateRecord {
  return {
    iteration,
    description: text,
    proposal: 'measured',
    decision: 'rejected',
    reason: session.notJudged(),
    label: 'no-verdict',
    pValue: null,
    train: paired
      ? {
          incumbent: figuresOf(paired.baseline?.queries ?? []),
          candidate: figuresOf(paired.candidate.queries),
        }
      : null,
  };
}

/** Measures the candidate paired against the incumbent on train, judges it, and moves the incumbent. */
async function measureCandidate(
  session: Session,
  state: LoopState,
  iteration: number,
  text: string,
): Promise<Step> {
  session.phase(
    `improve: iteration ${iteration} · measuring the candidate paired against the incumbent on ${session.train.length} train queries`,
  );
  const paired = await session.measure({
    phase: `candidate ${iteration}`,
    items: session.train,
    description: text,
    baseline: state.incumbent,
  });
  if (paired === undefined || session.spend.stop || session.interrupted()) {
    state.candidates.push(cutShort(session, iteration, text, paired));
    return { end: true };
  }
  const decision = decideCandidate(compareReport(paired, { alpha: session.alpha }));
  const incumbentFigures = figuresOf(paired.baseline?.queries ?? []);
  const candidateFigures = figuresOf(paired.candidate.queries);
  session.phase(`improve: iteration ${iteration} · ${decision.decision}: ${decision.reason}`);
  state.candidates.push({
    iteration,
    description: text,
    proposal: 'measured',
    decision: decision.decision,
    reason: decision.reason,
    label: decision.label,
    pValue: decision.pValue,
    train: { incumbent: incumbentFigures, candidate: candidateFigures },
  });
  state.attempts.push({
    description: text,
    train: show(candidateFigures),
    outcome: `${decision.decision}: ${decision.reason}`,
  });
  if (decision.decision === 'accepted') {
    state.incumbent = text;
    state.incumbentTrainQueries = paired.candidate.queries;
  } else if (paired.baseline) {
    // The freshest measurement of the incumbent feeds the next proposal.
    state.incumbentTrainQueries = paired.baseline.queries;
  }
  return { end: false };
}

/** The winner measured paired against the original on the holdout: adopt it only if it holds there. */
export async function checkOnHoldout(session: Session, winner: string): Promise<ImproveReport['final']> {
  session.phase(
    `improve: measuring the winner paired against the original on ${session.holdout.length} holdout queries`,
  );
  const check = await session.measure({
    phase: 'holdout',
    items: session.holdout,
    description: winner,
    baseline: session.original,
  });
  // Cut short by the budget, the holdout check is not judged on a part of its runs; its runs are kept.
  const comparison =
    check === undefined || session.spend.stop || session.interrupted()
      ? undefined
      : compareReport(check, { alpha: SESSION_ALPHA });
  const verdict = comparison ? holdsOnHoldout(comparison) : { holds: false, reason: session.notJudged() };
  if (comparison)
    session.phase(`improve: holdout · ${verdict.holds ? 'held' : 'did not generalise'}: ${verdict.reason}`);
  return {
    winner,
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
}
