import path from 'node:path';
import { InputErrors, UsageError } from '../errors.js';
import { parseSkill } from '../inputs/skill.js';
import type { Skill } from '../inputs/types.js';
import {
  changedPaths,
  fetchCommit,
  type GitChange,
  listFiles,
  resolveCommit,
  showFile,
} from '../system/git.js';
import type { ActionEvent } from './context.js';
import type { SkillChange, SkipReason } from './results/results.js';
import { skillMatcher } from './skill-glob.js';

/**
 * Which skills a run measures (docs/action.md): on a PR, the SKILL.md files whose listing entry (name,
 * description, when_to_use: what the model reads) differs between base and head; on a push to the
 * default branch, the changed ones (or all of them). The decisions are pure functions of the
 * changed paths and the file texts; `planSkills` gathers those through the git adapter.
 */

export interface SkillCandidate {
  /** Repository-relative path at the head (at the base for a removed file). */
  path: string;
  /** The base's path of a renamed file. */
  previousPath?: string;
  change: SkillChange;
}

/** What happens to one candidate. */
export type SkillPlan =
  | {
      kind: 'measure';
      path: string;
      previousPath?: string;
      change: SkillChange;
      head: Skill;
      /** The base's SKILL.md, when the base has one that parses. */
      base?: Skill;
      /** Why there is no `base` although the file existed there (it does not parse). */
      baseProblem?: string;
    }
  | {
      kind: 'skip';
      path: string;
      previousPath?: string;
      change: SkillChange;
      reason: SkipReason;
      /** The skill's name, when known. */
      skill?: string;
    }
  | { kind: 'invalid'; path: string; previousPath?: string; change: SkillChange; errors: InputErrors };

/** The SKILL.md candidates among changed paths (pure). */
export function skillCandidates(changes: readonly GitChange[], globs: readonly string[]): SkillCandidate[] {
  const matches = skillMatcher(globs);
  const out: SkillCandidate[] = [];
  for (const change of changes) {
    switch (change.status) {
      case 'added':
      case 'copied':
        if (matches(change.path)) out.push({ path: change.path, change: 'added' });
        break;
      case 'modified':
      case 'type-changed':
        if (matches(change.path)) out.push({ path: change.path, change: 'modified' });
        break;
      case 'removed':
        if (matches(change.path)) out.push({ path: change.path, change: 'removed' });
        break;
      case 'renamed': {
        const from = matches(change.previousPath);
        const to = matches(change.path);
        if (from && to) out.push({ path: change.path, previousPath: change.previousPath, change: 'renamed' });
        else if (to) out.push({ path: change.path, change: 'added' });
        else if (from) out.push({ path: change.previousPath, change: 'removed' });
        break;
      }
    }
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** What the model reads of a skill: its listing entry. Two equal entries trigger alike. */
function listingEntry(skill: Skill): string {
  return JSON.stringify([skill.name, skill.description, skill.whenToUse ?? null]);
}

function parseAt(root: string, file: string, text: string): Skill {
  return parseSkill(text, { dir: path.join(root, path.dirname(file)), file });
}

/**
 * Decides one candidate from its head and base texts (pure apart from parsing). `root` makes the
 * folder name (a skill's default name) come out right for a SKILL.md at the repository root.
 */
export function planSkill(
  root: string,
  candidate: SkillCandidate,
  headText: string | undefined,
  baseText: string | undefined,
): SkillPlan {
  const { path: file, change } = candidate;
  const previous = candidate.previousPath === undefined ? {} : { previousPath: candidate.previousPath };
  if (change === 'removed' || headText === undefined) {
    const skill = removedName(root, file, baseText);
    return {
      kind: 'skip',
      path: file,
      ...previous,
      change: 'removed',
      reason: 'removed',
      ...(skill ? { skill } : {}),
    };
  }
  let head: Skill;
  try {
    head = parseAt(root, file, headText);
  } catch (error) {
    if (error instanceof InputErrors)
      return { kind: 'invalid', path: file, ...previous, change, errors: error };
    throw error;
  }
  const { base, baseProblem } = parseBase(root, candidate.previousPath ?? file, baseText);
  if (base && change !== 'all' && listingEntry(base) === listingEntry(head)) {
    return {
      kind: 'skip',
      path: file,
      ...previous,
      change,
      reason: change === 'renamed' ? 'renamed-unchanged' : 'body-only',
      skill: head.name,
    };
  }
  return {
    kind: 'measure',
    path: file,
    ...previous,
    change,
    head,
    ...(base ? { base } : {}),
    ...(baseProblem ? { baseProblem } : {}),
  };
}

/** A removed skill's name, from its base text where that parses. */
function removedName(root: string, file: string, baseText: string | undefined): string | undefined {
  try {
    return baseText === undefined ? undefined : parseAt(root, file, baseText).name;
  } catch {
    return undefined;
  }
}

/** The base side of a skill, or why it cannot be measured (its SKILL.md does not parse); neither without one. */
function parseBase(
  root: string,
  file: string,
  baseText: string | undefined,
): { base?: Skill; baseProblem?: string } {
  if (baseText === undefined) return {};
  try {
    return { base: parseAt(root, file, baseText) };
  } catch (error) {
    if (!(error instanceof InputErrors)) throw error;
    return {
      baseProblem: `the base branch's SKILL.md does not parse (${error.errors[0]?.problem ?? error.message})`,
    };
  }
}

/** The commits a run compares, and the plan for every SKILL.md in scope. */
export interface SkillScope {
  /** The commit the head texts come from (the checkout). */
  head: string;
  /** The commit the base texts come from; absent when every skill is measured without one. */
  base?: string;
  plans: SkillPlan[];
  /** Plain statements for the log and summary (e.g. why every skill is measured). */
  notes: string[];
}

export interface PlanOptions {
  root: string;
  event: ActionEvent;
  skills: readonly string[];
  skillsAll: boolean;
}

async function ensureCommit(root: string, sha: string, what: string): Promise<string> {
  const present = (await resolveCommit(root, sha)) ?? ((await fetchCommit(root, sha)) ? sha : undefined);
  if (present === undefined) {
    throw new UsageError(
      `the ${what} ${sha} is not in this clone and could not be fetched. Fix: check out with actions/checkout and fetch-depth: 0`,
    );
  }
  return present;
}

async function plansFor(
  root: string,
  candidates: readonly SkillCandidate[],
  base: string | undefined,
  head: string,
): Promise<SkillPlan[]> {
  const plans: SkillPlan[] = [];
  for (const candidate of candidates) {
    const headText = candidate.change === 'removed' ? undefined : await showFile(root, head, candidate.path);
    const basePath = candidate.previousPath ?? candidate.path;
    const baseText =
      base === undefined || candidate.change === 'added' ? undefined : await showFile(root, base, basePath);
    plans.push(planSkill(root, candidate, headText, baseText));
  }
  return plans;
}

/** Gathers the SKILL.md files in scope for this event and plans each. */
export async function planSkills(opts: PlanOptions): Promise<SkillScope> {
  const { root, event } = opts;
  const head = await resolveCommit(root, 'HEAD');
  if (head === undefined) {
    throw new UsageError(
      'the workspace has no commit checked out. Fix: run actions/checkout before skilltrigger',
    );
  }
  if (event.kind === 'pull_request') {
    const base = await ensureCommit(root, event.baseSha, "pull request's base commit");
    const candidates = skillCandidates(await changedPaths(root, base, head), opts.skills);
    return { head, base, plans: await plansFor(root, candidates, base, head), notes: [] };
  }
  const every = async (why: string): Promise<SkillScope> => {
    const files = (await listFiles(root, head)).filter(skillMatcher(opts.skills)).sort();
    const candidates = files.map((file): SkillCandidate => ({ path: file, change: 'all' }));
    return { head, plans: await plansFor(root, candidates, undefined, head), notes: [why] };
  };
  if (event.kind === 'other') return every(`a ${event.name} run measures every skill`);
  if (opts.skillsAll) return every('skills-all is true: every skill is measured');
  if (event.before === undefined)
    return every('the push has no previous commit (a new branch): every skill is measured');
  const before =
    (await resolveCommit(root, event.before)) ??
    ((await fetchCommit(root, event.before)) ? event.before : undefined);
  if (before === undefined) {
    return every(
      `the commit before the push (${event.before.slice(0, 12)}) is not in this clone (a force push, or a shallow checkout): every skill is measured`,
    );
  }
  const candidates = skillCandidates(await changedPaths(root, before, head), opts.skills);
  return { head, base: before, plans: await plansFor(root, candidates, before, head), notes: [] };
}
