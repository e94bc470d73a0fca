import { agentFacts } from '../../agents/registry.js';
import type { Report } from '../../schemas/report.js';
import { type ActionRun, type MeasuredSkill, type SkillResult, standingOf } from './results.js';

/**
 * A drift run (`mode: drift`, docs/action.md "Drift watch"), judged (pure): every skill of the
 * default branch measured again and compared with the last baseline stored for it, its description
 * unchanged, so what moves is the model or what surrounds it. Which skills moved, what changed in
 * the environment between each baseline and this run, whether the stored baselines may be refreshed,
 * and what the one drift issue should say.
 */

/** What changed between a stored baseline and this run in what the model sees and runs on. */
export interface EnvironmentChange {
  /** The model asked for (null: the CLI's default), when it differs. */
  requested?: { before: string | null; after: string | null };
  /** The models the runs reported answering, when the set differs. */
  answering?: { before: string[]; after: string[] };
  /** Each agent's CLI whose version differs, by its label (`Claude Code`). */
  cli: { label: string; before: string | null; after: string | null }[];
  /** The skills and commands the model is shown, by hash: how many came and went; `unknown` when a side recorded none. */
  roster?: { added: number; removed: number } | 'unknown';
}

/** The environment change between two reports of one skill (pure). */
export function environmentChange(before: Report, after: Report): EnvironmentChange {
  const change: EnvironmentChange = { cli: [] };
  if (before.model.requested !== after.model.requested)
    change.requested = { before: before.model.requested, after: after.model.requested };
  const answering = (r: Report) => Object.keys(r.model.reported).sort();
  if (answering(before).join('\n') !== answering(after).join('\n'))
    change.answering = { before: answering(before), after: answering(after) };
  for (const agent of after.agents) {
    const was = before.agents.find((a) => a.name === agent.name);
    if (was === undefined || was.version === agent.version) continue;
    change.cli.push({ label: agentFacts(agent.name).label, before: was.version, after: agent.version });
  }
  if (before.roster === null || after.roster === null) change.roster = 'unknown';
  else {
    const was = new Set(before.roster.members);
    const now = new Set(after.roster.members);
    const added = [...now].filter((m) => !was.has(m)).length;
    const removed = [...was].filter((m) => !now.has(m)).length;
    if (added > 0 || removed > 0) change.roster = { added, removed };
  }
  return change;
}

/** One skill that moved against its stored baseline. */
export interface MovedSkill {
  skill: string;
  file: string;
  standing: 'regression' | 'improvement';
  result: MeasuredSkill;
  environment: EnvironmentChange;
}

/**
 * - `drift`: a skill moved (a regression or an improvement: either is a change nobody made);
 * - `clear`: every skill compared is noise, and every skill was measured with a verdict;
 * - `unsettled`: nothing moved, but a skill could not be judged (no verdict, not measured, invalid).
 */
export type DriftOutcome = 'drift' | 'clear' | 'unsettled';

/**
 * Whether this run's measurements become the stored baselines: after a run where nothing moved
 * (`no-drift`), on `accept-drift` (`accepted`), or not (`withheld`: a drift is never adopted unseen).
 * A skill with no baseline yet gets its first one in every case: there is nothing it could adopt.
 */
export type BaselineRefresh = 'no-drift' | 'accepted' | 'withheld';

export interface DriftFindings {
  outcome: DriftOutcome;
  moved: MovedSkill[];
  /** Compared and labelled noise. */
  steady: string[];
  /** Measured with no stored baseline to compare with (or one of another description): saved as the first. */
  fresh: string[];
  /** Not judged: no verdict, cut short or not measured (a gate, the budget, a cancel), or an invalid input. */
  unsettled: string[];
  refresh: BaselineRefresh;
}

/**
 * Whether max-cost-usd stopped the skill's measurement before its planned runs: a move it shows is
 * still a move, but a noise reading of fewer runs is not the all-clear, nor a baseline to keep.
 */
export function cutShort(s: MeasuredSkill): boolean {
  return s.report.candidate.budgetStop !== undefined;
}

function nameOf(s: SkillResult): string {
  return s.kind === 'measured' || s.kind === 'not-run' ? s.skill : (s.skill ?? s.file);
}

/** The run's drift findings (pure), with `accept` the `accept-drift` input. */
export function judgeDrift(run: ActionRun, accept: boolean): DriftFindings {
  const moved: MovedSkill[] = [];
  const steady: string[] = [];
  const fresh: string[] = [];
  const unsettled: string[] = [];
  for (const s of run.skills) {
    const standing = standingOf(s);
    if (s.kind === 'measured' && (standing === 'regression' || standing === 'improvement')) {
      const environment = s.baselineReport
        ? environmentChange(s.baselineReport, s.report)
        : { cli: [] as EnvironmentChange['cli'] };
      moved.push({ skill: s.skill, file: s.file, standing, result: s, environment });
    } else if (s.kind === 'measured' && cutShort(s)) unsettled.push(s.skill);
    else if (standing === 'noise') steady.push(nameOf(s));
    else if (standing === 'no-baseline' || standing === 'measured') fresh.push(nameOf(s));
    else if (s.kind !== 'skipped') unsettled.push(nameOf(s));
  }
  const outcome: DriftOutcome = moved.length > 0 ? 'drift' : unsettled.length > 0 ? 'unsettled' : 'clear';
  const refresh: BaselineRefresh = accept ? 'accepted' : outcome === 'clear' ? 'no-drift' : 'withheld';
  return { outcome, moved, steady, fresh, unsettled, refresh };
}

/** Whether a measured skill's report is saved as its stored baseline after this run (pure). */
export function savesBaseline(findings: DriftFindings, s: MeasuredSkill): boolean {
  if (s.report.verdict !== 'ok' || cutShort(s)) return false;
  return findings.refresh !== 'withheld' || findings.fresh.includes(s.skill);
}

/**
 * What becomes of the drift issue: opened or updated while a skill has moved; closed when every skill
 * is back to noise or the drift was accepted; while nothing moved but a skill went unjudged, an open
 * one is updated and none is opened.
 */
export type IssueIntent = 'open' | 'update-if-open' | 'close';

export function issueIntent(findings: DriftFindings): IssueIntent {
  if (findings.refresh === 'accepted') return 'close';
  switch (findings.outcome) {
    case 'drift':
      return 'open';
    case 'unsettled':
      return 'update-if-open';
    case 'clear':
      return 'close';
  }
}
