import type { AskResult } from '../author/ask.js';
import { describeAskFailure } from '../author/ask.js';
import {
  between,
  type PreviousAttempt,
  REWRITE_CLOSE,
  REWRITE_OPEN,
  rewritePrompt,
} from '../author/prompts.js';
import { compareReport } from '../compare/compare.js';
import { ExitCode, SkilltriggerError } from '../errors.js';
import { specLengthWarning, validateDescription } from '../inputs/skill.js';
import type { EvalItem } from '../inputs/types.js';
import type { QueryResult, Report } from '../report/schema.js';
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
import {
  type CandidateRecord,
  IMPROVE_NOTICE,
  IMPROVE_SCHEMA_ID,
  IMPROVE_SCHEMA_VERSION,
  type ImproveReport,
} from './schema.js';

/**
 * The author's loop (issue 13): measure the original, ask for a rewrite from the train failures,
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
  }): Promise<Report>;
  /** One rewrite call. */
  ask(prompt: string): Promise<AskResult>;
  /** A line per phase, for the terminal. */
  phase(line: string): void;
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
}

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

/** A proposal, or why there is none; `fatal`: the call itself failed, so the session stops. */
type Proposal =
  | { kind: 'text'; text: string }
  | { kind: 'none'; proposal: CandidateRecord['proposal']; reason: string; fatal: boolean };

function readProposal(answer: AskResult, seen: readonly string[]): Proposal {
  if (answer.kind !== 'answer') {
    return { kind: 'none', proposal: 'no-answer', reason: describeAskFailure(answer), fatal: true };
  }
  const inner = between(answer.text, REWRITE_OPEN, REWRITE_CLOSE);
  if (inner === undefined) {
    return {
      kind: 'none',
      proposal: 'no-answer',
      reason: `no ${REWRITE_OPEN}…${REWRITE_CLOSE} in the answer`,
      fatal: false,
    };
  }
  let text: string;
  try {
    // The report keeps this reason: no path in it, only what is wrong with the text.
    text = validateDescription(inner, { file: 'the proposed description' });
  } catch (error) {
    if (!(error instanceof SkilltriggerError)) throw error;
    return {
      kind: 'none',
      proposal: 'invalid',
      reason: error.message.split('\n')[0] ?? 'invalid',
      fatal: false,
    };
  }
  // A rewrite is written into SKILL.md: it keeps to the Agent Skills spec, which measuring need not.
  const overLong = specLengthWarning(text);
  if (overLong) {
    return {
      kind: 'none',
      proposal: 'invalid',
      reason: `the proposed description: ${overLong}`,
      fatal: false,
    };
  }
  if (seen.includes(text))
    return {
      kind: 'none',
      proposal: 'repeat',
      reason: 'repeats the incumbent or an earlier candidate',
      fatal: false,
    };
  return { kind: 'text', text };
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

  deps.phase(`improve: measuring the original on ${train.length} train + ${holdout.length} holdout queries`);
  const first = await deps.measure({
    phase: 'original',
    items: settings.items,
    description: settings.original,
  });
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
    if (stop !== undefined) break;
    const iteration = candidates.length + 1;
    deps.phase(`improve: iteration ${iteration}/${settings.iterations} · asking for a rewrite`);
    const prompt = rewritePrompt({
      skillName: settings.skillName,
      body: settings.body,
      current: incumbent,
      failing: failing(incumbentTrainQueries),
      attempts,
    });
    const proposal = readProposal(await deps.ask(prompt), seen);
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
    const paired = await deps.measure({
      phase: `candidate ${iteration}`,
      items: train,
      description: proposal.text,
      baseline: incumbent,
    });
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
  if (incumbent !== settings.original) {
    deps.phase(
      `improve: measuring the winner paired against the original on ${holdout.length} holdout queries`,
    );
    const check = await deps.measure({
      phase: 'holdout',
      items: holdout,
      description: incumbent,
      baseline: settings.original,
    });
    const comparison = compareReport(check, { alpha: SESSION_ALPHA });
    const verdict = holdsOnHoldout(comparison);
    final = {
      winner: incumbent,
      holdout: {
        original: figuresOf(check.baseline?.queries ?? []),
        winner: figuresOf(check.candidate.queries),
        label: comparison.label,
        reason: verdict.reason,
      },
      recommendation: verdict.holds ? 'adopt' : 'did-not-generalise',
      written: false,
    };
    deps.phase(`improve: holdout · ${verdict.holds ? 'held' : 'did not generalise'}: ${verdict.reason}`);
  }

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
      proposalAlpha: alpha,
      model: settings.model ?? null,
      triggerThreshold: settings.triggerThreshold,
      stub: settings.stub,
    },
    queries: { train: classCount(train), holdout: classCount(holdout) },
    original: { description: settings.original, train: originalTrain, holdout: originalHoldout },
    candidates,
    stopReason: stop ?? 'stopped',
    final,
  };
}
