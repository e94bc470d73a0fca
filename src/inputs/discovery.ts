import path from 'node:path';

/**
 * Where skills and their eval sets are, shared by the Action (over a checkout) and `run --siblings`
 * (over a folder): every file named exactly SKILL.md is a skill, and its eval set sits beside it by
 * the convention below. The folders are walked and the files read by src/inputs/files.ts.
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
