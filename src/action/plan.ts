import * as core from '@actions/core';
import { type AgentId, measures } from '../agents/ids.js';
import type { SiblingText } from '../agents/listing.js';
import { agentFacts, DEFAULT_AGENT } from '../agents/registry.js';
import { loopRuntimeOf } from '../agents/runtime.js';
import { InputErrors } from '../errors.js';
import { loadSkillEvalSet } from '../inputs/files.js';
import type { EvalSet } from '../inputs/types.js';
import { type WeakSetCode, weakSetFindings } from '../inputs/weak-set.js';
import { shardText } from '../matrix/shard.js';
import { repositoryRoot } from '../system/git.js';
import { annotate } from './annotate.js';
import { planSkills, type SkillPlan, type SkillScope } from './changed-skills.js';
import { type CompetingSibling, loadCompetition } from './competition.js';
import { Inputs } from './constants.js';
import type { ActionEvent, RunnerContext } from './context.js';
import type { ActionRun, EvalSetFindings, NotRunSkill, SkillResult } from './results/results.js';
import { agentsOf, type Settings } from './settings.js';
import { shardPlans } from './shard.js';

/**
 * The plan phase: which skills this run measures, and with what. The changed SKILL.md files (this
 * shard's part of them), each one's eval set loaded and checked before anything is spent. A skill
 * whose SKILL.md or eval set is broken is annotated and reported invalid; the others are measured
 * all the same (the step then exits 1 at the end).
 */

/** A skill to measure: its plan (head and base SKILL.md) and its eval set. */
export interface MeasureTarget {
  plan: SkillPlan & { kind: 'measure' };
  /** The eval set measured: the skill's own, plus the siblings' positives with `cross-negatives`. */
  evalSet: EvalSet;
  /** `competition: siblings`: the repository's other skills installed beside the stub; empty: alone. */
  siblings: CompetingSibling[];
  /**
   * With other agents than the default one, the siblings each one's runs install: those it lists,
   * each as its SKILL.md holds it, as the CLI's `run --agent codex --siblings`.
   */
  agentSiblings?: Partial<Record<AgentId, SiblingText[]>>;
}

export interface RunPlan {
  root: string;
  scope: SkillScope;
  targets: MeasureTarget[];
}

/** The empty record of a run, from the event and settings, before anything is found. */
export function newRun(ctx: RunnerContext, settings: Settings): ActionRun {
  const event = ctx.event;
  return {
    event: event.kind,
    eventName: event.kind === 'other' ? event.name : event.kind === 'pull_request' ? event.name : 'push',
    ...(event.kind === 'pull_request' ? { prNumber: event.number, baseSha: event.baseSha } : {}),
    fromFork: event.kind === 'pull_request' && event.fromFork,
    stage: 'nothing',
    skills: [],
    gates: [],
    notes: [],
    settings: {
      runs: settings.runs,
      ...(settings.model === undefined ? {} : { model: settings.model }),
      baseline: settings.baseline,
      failOnRegression: settings.failOnRegression,
      ...(settings.roster === undefined ? {} : { roster: settings.roster }),
    },
  };
}

/**
 * Whether GitHub withheld this run's secrets because its pull request comes from a fork: only a
 * fork's `pull_request` run. A `pull_request_target` run has them whoever opened the pull request,
 * so there a missing key is the workflow's to pass, as on any other run, and the auth fix says so.
 */
export function forkWithoutSecrets(event: ActionEvent): boolean {
  return event.kind === 'pull_request' && event.name === 'pull_request' && event.fromFork;
}

/**
 * `pull_request_target` runs in the base repository's context: its secrets, a write token, a cache
 * shared with the base branch (docs/security.md). Measuring a fork's head there hands text anyone can
 * write to a model that holds the API key and runs tools on this runner, so it takes an explicit yes:
 * without `allow-pull-request-target` the run is refused (the message says why and the ways out);
 * with it, or for any other event, undefined.
 */
export function forkTargetRefusal(event: ActionEvent, allowPullRequestTarget: boolean): string | undefined {
  if (event.kind !== 'pull_request' || event.name !== 'pull_request_target') return undefined;
  if (!event.fromFork || allowPullRequestTarget) return undefined;
  return (
    `refused to measure pull request #${event.number}: it comes from a fork, and this is a pull_request_target run, ` +
    "which has this repository's secrets and a write token. Measuring would give the fork's SKILL.md descriptions " +
    'and eval queries to a model holding your API key, whose tools run on this runner. Nothing was measured. ' +
    `Use the pull_request event (a fork's run then gets no secrets), push the change to a branch of this repository, ` +
    `or, if you trust everyone who can open a pull request, set ${Inputs.AllowPullRequestTarget}: true`
  );
}

/** Each defect as an annotation on its file and line; returns the problems' messages. */
export function annotateInputErrors(errors: InputErrors): string[] {
  return errors.errors.map((e) => {
    annotate('error', `${e.problem}${e.fix ? `. Fix: ${e.fix}` : ''}`, {
      title: 'skilltrigger: input error',
      file: e.location.file,
      ...(e.location.line === undefined ? {} : { startLine: e.location.line }),
    });
    return e.message;
  });
}

/** Every measured skill's inputs are loaded before anything is spent; defects become annotations. */
async function loadInputs(
  root: string,
  plans: readonly SkillPlan[],
  settings: Settings,
): Promise<{ targets: MeasureTarget[]; results: SkillResult[]; findings: EvalSetFindings[] }> {
  const targets: MeasureTarget[] = [];
  const results: SkillResult[] = [];
  const findings: EvalSetFindings[] = [];
  for (const plan of plans) {
    switch (plan.kind) {
      case 'skip':
        core.info(`${plan.path}: not measured (${plan.reason})`);
        results.push({
          kind: 'skipped',
          file: plan.path,
          change: plan.change,
          ...(plan.previousPath === undefined ? {} : { previousPath: plan.previousPath }),
          reason: plan.reason,
          ...(plan.skill === undefined ? {} : { skill: plan.skill }),
        });
        break;
      case 'invalid':
        results.push({ kind: 'invalid', file: plan.path, problems: annotateInputErrors(plan.errors) });
        break;
      case 'measure': {
        const loaded = await loadTarget(root, plan, settings);
        if (loaded.findings) findings.push(loaded.findings);
        if (loaded.kind === 'invalid') results.push(loaded.result);
        else targets.push(loaded.target);
        break;
      }
    }
  }
  return { targets, results, findings };
}

/**
 * One measured skill's inputs: its frontmatter's warnings annotated, its eval set loaded and its
 * weaknesses annotated, its competition read; a defect makes it invalid, annotated on its file.
 */
async function loadTarget(
  root: string,
  plan: Extract<SkillPlan, { kind: 'measure' }>,
  settings: Settings,
): Promise<
  ({ kind: 'target'; target: MeasureTarget } | { kind: 'invalid'; result: SkillResult }) & {
    findings?: EvalSetFindings;
  }
> {
  for (const warning of plan.head.warnings) {
    annotate('warning', warning, {
      title: 'skilltrigger',
      file: plan.path,
      startLine: plan.head.descriptionLine,
    });
  }
  // The eval set's findings stand even where its competition turns out invalid.
  let findings: { findings?: EvalSetFindings } = {};
  try {
    const { evalSet: own, file } = await loadSkillEvalSet(root, plan.path, plan.head, settings.evals);
    core.info(`${plan.path}: measuring ${plan.head.name} with ${file} (${own.items.length} queries)`);
    const weak = annotateWeakSet(own, file, plan.head.name);
    if (weak.length > 0) findings = { findings: { skill: plan.head.name, codes: weak } };
    const { siblings, evalSet, notes } = await loadCompetition(root, plan.path, plan.head, own, settings);
    for (const note of notes) core.info(note);
    return {
      kind: 'target',
      target: { plan, evalSet, ...competitionOf(plan.path, siblings, settings) },
      ...findings,
    };
  } catch (error) {
    if (!(error instanceof InputErrors)) throw error;
    const problems = annotateInputErrors(error);
    return {
      kind: 'invalid',
      result: { kind: 'invalid', file: plan.path, skill: plan.head.name, problems },
      ...findings,
    };
  }
}

/**
 * The eval set's findings as `run` and `check` print them (few positives, no holdout, a prompt that
 * presupposes a session…), each a warning annotated on the eval set; returns their codes.
 */
function annotateWeakSet(evalSet: EvalSet, file: string, skill: string): WeakSetCode[] {
  const found = weakSetFindings(evalSet);
  for (const f of found) {
    annotate('warning', `${f.message}. Fix: ${f.fix}`, {
      title: `skilltrigger: eval set of ${skill}: ${f.code}`,
      file,
    });
  }
  return found.map((f) => f.code);
}

/**
 * Finds the changed skills (this shard's part), loads their inputs, and records what it found in
 * `run` (skipped and invalid skills, the notes, the commits).
 */
export async function planRun(ctx: RunnerContext, settings: Settings, run: ActionRun): Promise<RunPlan> {
  const event = ctx.event;
  const root = await repositoryRoot(ctx.workspace);
  const scope = await core.group('Find the changed skills', async () => {
    const found = await planSkills({ root, event, skills: settings.skills, skillsAll: settings.skillsAll });
    for (const note of found.notes) core.info(note);
    core.info(
      `${found.plans.length} SKILL.md file(s) in scope between ${found.base ?? '(none)'} and ${found.head}`,
    );
    return found;
  });
  run.headSha = event.kind === 'pull_request' ? event.headSha : scope.head;
  if (scope.base !== undefined) run.baseSha = scope.base;
  run.notes.push(...scope.notes);

  const shard = settings.shard;
  const plans = shard === undefined ? scope.plans : shardPlans(scope.plans, shard);
  if (shard !== undefined) {
    core.info(
      `shard ${shardText(shard)}: ${plans.filter((p) => p.kind === 'measure').length} of ${scope.plans.filter((p) => p.kind === 'measure').length} skill(s) to measure fall to this shard`,
    );
  }
  const { targets, results, findings } = await core.group('Read the skills and their eval sets', () =>
    loadInputs(root, plans, settings),
  );
  run.skills = results;
  if (findings.length > 0) run.evalSetFindings = findings;
  return { root, scope, targets };
}

/** The skills that were due to be measured when the run stopped. */
export function notRun(targets: readonly MeasureTarget[]): NotRunSkill[] {
  return targets.map((t) => ({ kind: 'not-run', file: t.plan.path, skill: t.plan.head.name }));
}

/**
 * The siblings as each agent lists them: an agent with a listed-text probe (the default one) has
 * its own listed by the probe later (`listSiblings`); every agent that lists them off their SKILL.md
 * (its runtime's `fileListing`) has them read here, and one it leaves out is said and does not
 * compete there. Without the default agent, the report's sibling set is the
 * first other agent's.
 */
function competitionOf(
  file: string,
  siblings: CompetingSibling[],
  settings: Settings,
): Pick<MeasureTarget, 'siblings' | 'agentSiblings'> {
  const agents = agentsOf(settings);
  const others = agents.flatMap((a) => {
    const listing = loopRuntimeOf(a.agent).fileListing;
    return listing ? [{ id: a.agent, listing }] : [];
  });
  if (siblings.length === 0 || others.length === 0) return { siblings };
  const agentSiblings: Partial<Record<AgentId, SiblingText[]>> = {};
  for (const { id, listing } of others) {
    const { installed, leftOut } = listing.siblings(
      siblings.map((s) => ({ skill: s.skill, file: s.skill.file })),
    );
    for (const { name, reason } of leftOut)
      core.info(
        `${file}: competition: ${name} is not listed by ${agentFacts(id).label} (${reason}), so it does not compete there; left out`,
      );
    agentSiblings[id] = installed;
  }
  if (measures(agents, DEFAULT_AGENT)) return { siblings, agentSiblings };
  const byName = new Map(siblings.map((s) => [s.name, s]));
  const first = agentSiblings[others[0]?.id ?? DEFAULT_AGENT] ?? [];
  return {
    siblings: first.flatMap((c) => {
      const sibling = byName.get(c.skillName);
      return sibling ? [{ ...sibling, listed: c.description }] : [];
    }),
    agentSiblings,
  };
}
