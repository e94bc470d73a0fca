import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { InputError, InputErrors } from '../errors.js';
import { evalCandidates } from './discovery.js';
import { parseEvalSet } from './eval-set.js';
import { findSkillFiles, loadSkill, readIfFile } from './files.js';
import type { SiblingSkill } from './siblings.js';
import type { EvalItem, Skill } from './types.js';

/**
 * Loading `run --siblings <dir>`'s skills, checked as src/inputs/siblings.ts describes, and with
 * `--cross-negatives` their eval sets.
 */

async function real(file: string): Promise<string> {
  return realpath(file).catch(() => path.resolve(file));
}

/**
 * Loads every sibling under `dirs`; throws InputErrors listing every defect at once. With
 * `onUnparsed` (the Action, where a broken SKILL.md is annotated on its own), a sibling that does
 * not parse is told to it and left out instead of being a defect. A link out of a folder is left
 * out and told to `onLeftOut` (findSkillFiles).
 */
export async function loadSiblings(
  dirs: readonly string[],
  tested: Skill,
  onUnparsed?: (file: string, errors: readonly InputError[]) => void,
  onLeftOut?: (dir: string, relative: string) => void,
): Promise<SiblingSkill[]> {
  const testedFile = await real(tested.file);
  const problems: InputError[] = [];
  const found: SiblingSkill[] = [];
  const seenFiles = new Set<string>();
  for (const dir of dirs) {
    for (const relative of await findSkillFiles(dir, '--siblings', (link) => onLeftOut?.(dir, link))) {
      const file = path.join(dir, relative);
      const resolved = await real(file);
      // The tested skill's own file, and a file reached through two --siblings folders, count once.
      if (resolved === testedFile || seenFiles.has(resolved)) continue;
      seenFiles.add(resolved);
      try {
        found.push({ skill: await loadSkill(file), file });
      } catch (error) {
        const errors =
          error instanceof InputErrors ? error.errors : error instanceof InputError ? [error] : undefined;
        if (errors === undefined) throw error;
        if (onUnparsed) onUnparsed(file, errors);
        else problems.push(...errors);
      }
    }
  }
  const byName = new Map<string, string>();
  for (const { skill, file } of found) {
    if (skill.name === tested.name) {
      problems.push(
        new InputError(
          { file, line: skill.descriptionLine },
          `this sibling is named ${JSON.stringify(skill.name)}, the name of the skill under test`,
          'rename one of them, or leave this folder out of --siblings',
        ),
      );
      continue;
    }
    const earlier = byName.get(skill.name);
    if (earlier !== undefined) {
      problems.push(
        new InputError(
          { file },
          `two siblings are named ${JSON.stringify(skill.name)} (the other is ${earlier})`,
          'give each skill its own name, or pass only one of the folders to --siblings',
        ),
      );
      continue;
    }
    byName.set(skill.name, file);
  }
  if (problems.length > 0) throw new InputErrors(problems);
  return found.sort((a, b) => (a.skill.name < b.skill.name ? -1 : a.skill.name > b.skill.name ? 1 : 0));
}

/**
 * `--cross-negatives`: each sibling's positives, found by the eval-set convention beside its
 * SKILL.md, as extra negatives of the tested skill: id `<sibling>/<id>`, `from` and `owner` naming
 * the sibling (so a run it loaded counts as "went to its owner"). A sibling without an eval set adds
 * nothing; one whose set does not parse is an input error naming that file.
 */
export async function crossNegativeItems(
  siblings: readonly SiblingSkill[],
): Promise<{ items: EvalItem[]; without: string[] }> {
  const items: EvalItem[] = [];
  const without: string[] = [];
  for (const { skill, file } of siblings) {
    const dir = path.dirname(file);
    let found = false;
    for (const candidate of evalCandidates('SKILL.md', skill.name, [])) {
      const evalFile = path.join(dir, candidate);
      const text = await readIfFile(evalFile);
      if (text === undefined) continue;
      found = true;
      const set = parseEvalSet(text, evalFile, skill.name);
      for (const item of set.items) {
        if (!item.shouldTrigger) continue;
        items.push({
          id: `${skill.name}/${item.id}`,
          query: item.query,
          shouldTrigger: false,
          extra: { from: skill.name, owner: skill.name },
        });
      }
      break;
    }
    if (!found) without.push(skill.name);
  }
  return { items, without };
}
