import path from 'node:path';
import { InputError, InputErrors } from '../errors.js';
import { composeListing } from '../inputs/listing.js';
import { crossNegativeItems, loadSiblings } from '../inputs/sibling-files.js';
import { crossNegativesEstimate } from '../inputs/siblings.js';
import type { EvalSet, Skill } from '../inputs/types.js';
import type { SiblingListed } from '../report/build/sibling-counts.js';

/**
 * `competition: siblings` (docs/action.md): a changed skill is measured with the repository's other
 * skills installed beside it. The siblings are found and loaded by the CLI's own `--siblings` code
 * (src/inputs/sibling-files.ts) over the checkout, and `cross-negatives` adds their positives as the
 * CLI's `--cross-negatives` does. Every defect is an input error on a repository-relative file,
 * found before anything is spent.
 */

/**
 * A sibling as the Action installs it: its name and listed text (the emulation when planned; the
 * listing probe's once the CLI is installed, src/action/listed.ts), and the skill it was read from.
 */
export interface CompetingSibling extends SiblingListed {
  skill: Skill;
}

/** What a measured skill competes with, and the eval set it is measured on. */
export interface Competition {
  /** Each sibling by name with the text its stub lists (sorted by name); empty: measured alone. */
  siblings: CompetingSibling[];
  /** The skill's own eval set, plus the siblings' positives as negatives with `cross-negatives`. */
  evalSet: EvalSet;
  /** Said in the log: who competes, and the extra runs cross-negatives cost. */
  notes: string[];
}

/** A path under `root` as the repository names it (`/`-separated); other text as it is. */
export function relative(root: string, text: string): string {
  const prefix = root.endsWith(path.sep) ? root : `${root}${path.sep}`;
  return text.split(prefix).join('');
}

/** The same defects, naming repository-relative files (annotations land on files by those). */
export function relativeErrors(root: string, error: InputErrors): InputErrors {
  return new InputErrors(
    error.errors.map(
      (e) =>
        new InputError(
          { ...e.location, file: relative(root, e.location.file).split(path.sep).join('/') },
          relative(root, e.problem),
          e.fix === undefined ? undefined : relative(root, e.fix),
        ),
    ),
  );
}

/**
 * The text a sibling's stub lists until the probe reads it: the emulated listing. Once the CLI is
 * installed, `listCompetition` (src/action/listed.ts) replaces it with what Claude Code lists.
 */
function listedText(skill: Skill): string {
  return skill.emulatedListing ?? composeListing(skill.description, skill.whenToUse);
}

/**
 * The competition of the skill at `file` (repository-relative) in the checkout at `root`. Throws
 * InputErrors (repository-relative) for a sibling or sibling eval set that does not parse, a
 * sibling named like the tested skill, or two siblings of one name.
 */
export async function loadCompetition(
  root: string,
  file: string,
  skill: Skill,
  evalSet: EvalSet,
  options: { competition: 'siblings' | 'isolated'; crossNegatives: boolean; runs: number },
): Promise<Competition> {
  if (options.competition === 'isolated') return { siblings: [], evalSet, notes: [] };
  try {
    const unparsed: string[] = [];
    const outside: string[] = [];
    const found = await loadSiblings(
      [root],
      { ...skill, file: path.join(root, file) },
      (broken) => unparsed.push(relative(root, broken).split(path.sep).join('/')),
      (_dir, link) => outside.push(link),
    );
    const siblings = found.map((s) => ({ name: s.skill.name, listed: listedText(s.skill), skill: s.skill }));
    const notes = [
      siblings.length === 0
        ? `${file}: competition: no other SKILL.md in the repository; measured alone`
        : `${file}: competition: ${siblings.length} sibling skill${siblings.length === 1 ? '' : 's'} installed beside the stub in every run (${siblings.map((s) => s.name).join(', ')})`,
      // A SKILL.md that does not parse cannot be listed; it is annotated as invalid where it is in scope.
      ...unparsed.map((f) => `${file}: competition: ${f} does not parse, so it is left out of the siblings`),
      // A committed link out of the checkout would install a skill from elsewhere on the runner.
      ...outside.map(
        (f) =>
          `${file}: competition: ${f} is a symbolic link out of the repository, so it is left out of the siblings`,
      ),
    ];
    if (!options.crossNegatives || siblings.length === 0) return { siblings, evalSet, notes };
    const cross = await crossNegativeItems(found);
    notes.push(`${file}: ${crossNegativesEstimate(cross, options.runs)}`);
    return { siblings, evalSet: { ...evalSet, items: [...evalSet.items, ...cross.items] }, notes };
  } catch (error) {
    if (error instanceof InputErrors) throw relativeErrors(root, error);
    if (error instanceof InputError) throw relativeErrors(root, new InputErrors([error]));
    throw error;
  }
}
