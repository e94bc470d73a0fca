import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { InputError, InputErrors } from '../errors.js';
import { parseEvalSet } from '../inputs/eval-set.js';
import type { EvalSet, Skill } from '../inputs/types.js';
import { DEFAULT_EVAL_LOCATIONS } from './constants.js';

/**
 * Finding a skill's eval set in the checkout. The `evals` input lists path templates, relative to
 * the repository root; `{dir}` is the folder holding SKILL.md and `{name}` the skill's name. The
 * first template that names an existing file wins. Without the input, the convention
 * (DEFAULT_EVAL_LOCATIONS) is: `evals/evals.json`, `evals.json`, `evals/EVAL.yaml`, `EVAL.yaml`,
 * `evals/evals.csv`, `evals.csv`, each inside the skill's folder.
 */

/** The candidate paths for one skill, repository-relative, in order (pure). */
export function evalCandidates(skillFile: string, skillName: string, templates: readonly string[]): string[] {
  const dir = path.posix.dirname(skillFile);
  const list = templates.length > 0 ? templates : DEFAULT_EVAL_LOCATIONS;
  return [
    ...new Set(
      list.map((template) =>
        path.posix.normalize(template.replaceAll('{dir}', dir).replaceAll('{name}', skillName)),
      ),
    ),
  ];
}

async function readIfFile(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/**
 * Loads the eval set of a skill from the working tree. Errors name repository-relative paths (so
 * annotations land on the file); a skill without any eval set is an input error on its SKILL.md.
 */
export async function loadSkillEvalSet(
  root: string,
  skillFile: string,
  skill: Skill,
  templates: readonly string[],
): Promise<{ evalSet: EvalSet; file: string }> {
  const candidates = evalCandidates(skillFile, skill.name, templates);
  for (const candidate of candidates) {
    const text = await readIfFile(path.join(root, candidate));
    if (text !== undefined) return { evalSet: parseEvalSet(text, candidate, skill.name), file: candidate };
  }
  throw new InputErrors([
    new InputError(
      { file: skillFile, line: skill.descriptionLine },
      `no eval set found for skill ${JSON.stringify(skill.name)} (looked for ${candidates.join(', ')})`,
      templates.length > 0
        ? 'create one of those files, or change the evals input'
        : `add ${candidates[0]} (a JSON array of {"query", "should_trigger"}), or point the evals input at it`,
    ),
  ]);
}
