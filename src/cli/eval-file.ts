import path from 'node:path';
import { DEFAULT_EVAL_LOCATIONS, evalCandidates } from '../inputs/discovery.js';
import { loadEvalSet, readIfFile } from '../inputs/files.js';
import { inputFailure } from '../inputs/problems.js';
import type { EvalSet, Skill } from '../inputs/types.js';
import type { CliIo } from './output.js';

/**
 * `run`'s eval set: `--eval <file>`, or without it the skill's own, found by the convention `init`
 * writes to and the Action reads (src/inputs/discovery.ts: `evals/evals.json`, `evals.json`,
 * `evals/EVAL.yaml`, `EVAL.yaml`, `evals/evals.csv`, `evals.csv` in the skill's folder). A set
 * found that way is named on stderr, so the user sees which file was measured.
 */
export async function ownEvalSet(
  given: string | undefined,
  skill: Skill,
  io: Pick<CliIo, 'stderr'>,
): Promise<{ file: string; evalSet: EvalSet }> {
  if (given !== undefined) return { file: given, evalSet: await loadEvalSet(given, skill.name) };
  const candidates = evalCandidates('SKILL.md', skill.name, DEFAULT_EVAL_LOCATIONS).map((c) =>
    path.join(skill.dir, c),
  );
  for (const file of candidates) {
    if ((await readIfFile(file)) === undefined) continue;
    io.stderr.write(`eval set: ${file} (found in the skill's folder; --eval <file> measures another)\n`);
    return { file, evalSet: await loadEvalSet(file, skill.name) };
  }
  throw inputFailure(
    { file: skill.dir },
    `no --eval given, and no eval set in the skill's folder (looked for ${candidates.map((c) => path.relative(skill.dir, c)).join(', ')})`,
    `pass --eval <file>, or add ${candidates[0]} (a JSON array of {"query", "should_trigger"}; \`skilltrigger init --skill ${skill.dir}\` drafts one)`,
  );
}
