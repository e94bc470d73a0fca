import { type GateResult, gateLabel } from '../../agents/gates.js';
import { agentFacts } from '../../agents/registry.js';
import { ExitCode } from '../../errors.js';
import { percentOf as percent } from '../../format.js';
import { listingLosses } from './listing-change.js';
import { type ActionRun, type MeasuredSkill, regressions } from './results.js';

/**
 * The step's exit code and failure message, from the run's findings (pure). Codes as the CLI's
 * (docs/design.md): 1 an input error (or a regression with fail-on-regression), 2 a failed gate, 3 no
 * verdict. The message's first line is the reason; GitHub shows it as the step's error.
 */
/** A regression with fail-on-regression: a plain failure (setFailed's own code), not one of the CLI's special codes. */
const REGRESSION_FAILURE: ExitCode = 1;

export interface Conclusion {
  code: ExitCode;
  /** Absent when the step passes. */
  message?: string;
}

function regressionLine(s: MeasuredSkill): string {
  const c = s.comparison;
  const parts: string[] = [];
  if (c?.positives.label === 'regression') {
    parts.push(
      `positives triggered ${c.positives.base.hits}/${c.positives.base.runs} → ${c.positives.cand.hits}/${c.positives.cand.runs} (${percent(c.positives.base.hits, c.positives.base.runs)} → ${percent(c.positives.cand.hits, c.positives.cand.runs)})`,
    );
  }
  if (c?.negatives.label === 'regression') {
    parts.push(
      `negatives fired ${c.negatives.base.hits}/${c.negatives.base.runs} → ${c.negatives.cand.hits}/${c.negatives.cand.runs}`,
    );
  }
  for (const loss of listingLosses(s))
    parts.push(
      `${agentFacts(loss.agent).label} would list it name-only (${loss.base.stub.state} on the baseline)${
        loss.cand.stub.text === undefined
          ? ''
          : `: its description is ${loss.cand.stub.text.toLocaleString('en-US')} ${loss.cand.unit}`
      }${loss.cand.budget === undefined ? '' : ` against the ${loss.cand.budget.toLocaleString('en-US')}-${loss.cand.unit.slice(0, -1)} budget`}`,
    );
  const regressedModels = (s.byModel ?? []).filter((m) => m.comparison.label === 'regression');
  if (regressedModels.length > 0)
    parts.push(`regressed on ${regressedModels.map((m) => m.model).join(', ')}`);
  const where = `${s.file}:${s.descriptionLine}`;
  return `${s.skill} (${where}): ${parts.join('; ') || 'queries regressed'}`;
}

/** One line per failed gate, the reason then the fix; the first is the step's error. */
export function gateFailureMessage(findings: readonly GateResult[]): string {
  const failed = findings.filter((f) => f.status === 'fail');
  const lines = failed.map(
    (f) => `gate ${gateLabel(f)} failed: ${f.reason}${f.fix ? `. Fix: ${f.fix}` : ''}`,
  );
  return lines.join('\n') || 'a gate failed; nothing was measured';
}

function inputProblems(run: ActionRun): string[] {
  return run.skills.flatMap((s) => (s.kind === 'invalid' ? s.problems : []));
}

export function conclude(run: ActionRun): Conclusion {
  switch (run.stage) {
    case 'nothing':
    case 'ignored':
      return { code: ExitCode.verdict };
    case 'input-error': {
      // `max-cost-usd` refused the job's estimate: nothing was measured, the refusal says why.
      if (run.budget?.refused !== undefined) return { code: ExitCode.input, message: run.budget.refused };
      const problems = inputProblems(run);
      const count = problems.length;
      return {
        code: ExitCode.input,
        message: [
          `input error: ${count} problem${count === 1 ? '' : 's'} in the skills' inputs; nothing was measured`,
          ...problems,
        ].join('\n'),
      };
    }
    case 'gate-failed':
      return {
        code: ExitCode.gate,
        message: gateFailureMessage(run.gates),
      };
    case 'measured':
      return concludeMeasured(run);
  }
}

/**
 * A job that measured: no verdict for a skill (exit 3) comes first, then a skill's broken inputs
 * (exit 1), then a regression where the job fails on one; else a verdict.
 */
function concludeMeasured(run: ActionRun): Conclusion {
  const noVerdict = run.skills.filter(
    (s): s is MeasuredSkill => s.kind === 'measured' && s.report.verdict === 'no-verdict',
  );
  const regressed = regressions(run);
  const lines: string[] = [];
  if (noVerdict.length > 0) {
    const names = noVerdict.map((s) => s.skill).join(', ');
    const reasons = [
      ...new Set(
        noVerdict.flatMap((s) => [
          ...s.report.candidate.noVerdictReasons,
          ...(s.report.baseline?.noVerdictReasons ?? []),
        ]),
      ),
    ];
    lines.push(`no verdict for ${names}: ${reasons.join('; ') || 'too many runs were lost'}`);
  }
  if (regressed.length > 0 && run.settings.failOnRegression) {
    lines.push(
      `regression in ${regressed.length} skill${regressed.length === 1 ? '' : 's'}: ${regressed.map(regressionLine).join('; ')}`,
    );
  }
  // A broken SKILL.md or eval set does not stop the other skills; it fails the step at the end.
  const problems = inputProblems(run);
  if (problems.length > 0) {
    const count = problems.length;
    lines.push(
      `input error: ${count} problem${count === 1 ? '' : 's'} in the skills' inputs; the other skills were measured`,
      ...problems,
    );
  }
  if (noVerdict.length > 0) return { code: ExitCode.noVerdict, message: lines.join('\n') };
  if (problems.length > 0) return { code: ExitCode.input, message: lines.join('\n') };
  if (lines.length > 0) return { code: REGRESSION_FAILURE, message: lines.join('\n') };
  return { code: ExitCode.verdict };
}
