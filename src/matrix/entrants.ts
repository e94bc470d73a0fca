import path from 'node:path';
import { InputError, InputErrors } from '../errors.js';
import { errorCode } from '../guards.js';
import { resolveEvalContexts } from '../inputs/context-file.js';
import { DEFAULT_EVAL_LOCATIONS, evalCandidates } from '../inputs/discovery.js';
import { parseEvalSet } from '../inputs/eval-set.js';
import { findSkillFiles, leftOutLink, loadSkill, readIfFile } from '../inputs/files.js';
import type { EvalSet, Skill } from '../inputs/types.js';

/**
 * The skills of a routing matrix, found and validated before anything is spent: every SKILL.md
 * under a folder (`findSkillFiles`, src/inputs/files.ts), each with its eval set by the
 * convention (src/inputs/discovery.ts) or the Action's `evals` templates. Shared by `skilltrigger
 * matrix --skills` and the Action's `routing-matrix` input, so both measure the same matrix of one
 * repository.
 */

/** One skill of the matrix as loaded: its SKILL.md, and its eval set (null: installed as a competitor only). */
export interface MatrixEntrantInput {
  skill: Skill;
  evalSet: EvalSet | null;
  /** The eval set's file (joined to the folder searched); absent with no eval set. */
  evalFile?: string;
}

export interface EntrantsOptions {
  /** Names the folder's option in messages (`--skills`). */
  option: string;
  /** Eval-set path templates (`{dir}`, `{name}`), relative to `root`; empty: DEFAULT_EVAL_LOCATIONS. */
  templates?: readonly string[];
  /** Told each loader warning (a listing the CLI will cut, a weak set, …). */
  warn?: (warning: string) => void;
  /** The fix named when no skill has an eval set. */
  noEvalFix?: string;
}

/** The eval set of a skill, or null when none of its candidate files exists. */
async function evalSetOf(
  root: string,
  skillFile: string,
  skill: Skill,
  templates: readonly string[],
): Promise<{ evalSet: EvalSet; file: string } | null> {
  for (const candidate of evalCandidates(skillFile, skill.name, templates)) {
    const file = path.join(root, candidate);
    const text = await readIfFile(file).catch((error: unknown) => {
      throw new InputError(
        { file },
        `cannot be read (${errorCode(error) ?? 'error'})`,
        'fix its permissions',
      );
    });
    // An entry's context file is read now, beside its eval set (docs/context.md, "A context per entry").
    if (text !== undefined)
      return {
        evalSet: await resolveEvalContexts(parseEvalSet(text, file, skill.name), path.dirname(file)),
        file,
      };
  }
  return null;
}

/**
 * Every skill under `root` and its eval set. A SKILL.md or an eval set that does not parse, two
 * skills of one name is an input error, all of them thrown at once as InputErrors; no SKILL.md, or
 * no eval set at all, is one InputError.
 */
export async function loadMatrixEntrants(
  root: string,
  options: EntrantsOptions,
): Promise<MatrixEntrantInput[]> {
  const templates = options.templates ?? [];
  const files = await findSkillFiles(root, options.option, (link) =>
    options.warn?.(`${options.option}: ${leftOutLink(root, link)}`),
  );
  if (files.length === 0)
    throw new InputError(
      { file: root },
      'holds no SKILL.md',
      `point ${options.option} at the folder holding your skills`,
    );
  const errors: InputError[] = [];
  const loaded: MatrixEntrantInput[] = [];
  for (const file of files) {
    try {
      const skill = await loadSkill(path.join(root, path.posix.dirname(file)));
      const found = await evalSetOf(root, file, skill, templates);
      for (const warning of skill.warnings) options.warn?.(warning);
      loaded.push({
        skill,
        evalSet: found?.evalSet ?? null,
        ...(found === null ? {} : { evalFile: found.file }),
      });
    } catch (error) {
      if (error instanceof InputErrors) errors.push(...error.errors);
      else if (error instanceof InputError) errors.push(error);
      else throw error;
    }
  }
  const byName = new Map<string, Skill>();
  for (const { skill } of loaded) {
    const twin = byName.get(skill.name);
    if (twin)
      errors.push(
        new InputError(
          { file: skill.file, line: skill.descriptionLine },
          `a second skill named ${JSON.stringify(skill.name)} (the first is ${twin.file})`,
          'give every skill its own name: Claude Code cannot tell two of one name apart',
        ),
      );
    byName.set(skill.name, skill);
  }
  if (errors.length > 0) throw new InputErrors(errors);
  if (loaded.every((l) => l.evalSet === null)) {
    const looked = templates.length > 0 ? templates : DEFAULT_EVAL_LOCATIONS;
    throw new InputError(
      { file: root },
      `none of its ${loaded.length} skills has an eval set, so there is nothing to measure`,
      options.noEvalFix ??
        `add evals/evals.json (a JSON array of {"query", "should_trigger"}) to at least one skill's folder (looked for ${looked.join(', ')})`,
    );
  }
  return loaded;
}
