import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { InputError, InputErrors, SkilltriggerError } from '../errors.js';
import { errorCode } from '../guards.js';
import { parseEvalSet } from './eval-set.js';
import { readInputText } from './input-file.js';
import type { EvalSet, Skill } from './types.js';

/**
 * Finding skills and their eval sets, shared by the Action (over a checkout) and `run --siblings`
 * (over a folder): every file named exactly SKILL.md is a skill, and its eval set sits beside it by
 * the convention below.
 */

/**
 * Where an eval set is looked for when the Action's `evals` input is not set: each template is
 * relative to the repository root (or to the folder searched); `{dir}` is the folder holding
 * SKILL.md, `{name}` the skill's name. The first file that exists is used.
 */
export const DEFAULT_EVAL_LOCATIONS = [
  '{dir}/evals/evals.json',
  '{dir}/evals.json',
  '{dir}/evals/EVAL.yaml',
  '{dir}/EVAL.yaml',
  '{dir}/evals/evals.csv',
  '{dir}/evals.csv',
] as const;

/** Folders never searched for skills: a repository's own metadata and installed packages. */
const SKIPPED_FOLDERS = new Set(['.git', 'node_modules']);

/**
 * Every SKILL.md under `dir`, recursively (hidden folders included, `.git` and `node_modules`
 * skipped), as `/`-separated paths relative to `dir`, sorted. A `dir` that is not a folder is an
 * input error naming it. Symbolic links are followed, to a folder or to a SKILL.md, as Claude Code
 * follows them in `.claude/skills/` (observed with 2.1.328: a linked skill folder and a linked
 * SKILL.md are both listed, a dangling link is not); a folder reached twice is walked once, so a
 * link loop ends.
 */
export async function findSkillFiles(dir: string, option = '--siblings'): Promise<string[]> {
  const found: string[] = [];
  const walked = new Set<string>();
  const walk = async (relative: string): Promise<void> => {
    const real = await realpath(path.join(dir, relative)).catch(() => undefined);
    if (real !== undefined) {
      if (walked.has(real)) return;
      walked.add(real);
    }
    let entries: Dirent[];
    try {
      entries = await readdir(path.join(dir, relative), { withFileTypes: true });
    } catch (error) {
      if (relative !== '') return;
      const code = errorCode(error) ?? 'error';
      throw new InputErrors([
        new InputError(
          { file: dir },
          `${option}: cannot read this folder (${code})`,
          `give ${option} a folder of skills`,
        ),
      ]);
    }
    for (const entry of entries) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      // A link is what it points to; a dangling one is nothing, as it is to Claude Code.
      const target = entry.isSymbolicLink()
        ? await stat(path.join(dir, child)).catch(() => undefined)
        : entry;
      if (target === undefined) continue;
      if (target.isDirectory() && !SKIPPED_FOLDERS.has(entry.name)) await walk(child);
      else if (target.isFile() && entry.name === 'SKILL.md') found.push(child);
    }
  };
  await walk('');
  return found.sort();
}

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

/** A file's text, or undefined when there is no such file (a folder or a missing path). */
export async function readIfFile(file: string): Promise<string | undefined> {
  try {
    return await readInputText(file, 'the eval set');
  } catch (error) {
    if (error instanceof SkilltriggerError) throw error;
    const code = errorCode(error);
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
