/**
 * What a Codex measurement installs, read as Codex lists it (src/agents/codex/listing.ts,
 * docs/codex.md "Listing parity"): the tested SKILL.md must be one Codex lists, or there is nothing
 * to measure; each sibling is installed as Codex would list it, and one Codex leaves out does not
 * compete, so it is left out. Both are decided before anything runs.
 */
import path from 'node:path';
import { InputError } from '../../errors.js';
import type { ListedSiblings, SiblingText, SkillFile } from '../listing.js';
import { codexListingOf } from './listing.js';

/** Codex's listing of a parsed SKILL.md, by its folder's name as Codex reads it. */
function listingOf(skill: SkillFile) {
  return codexListingOf(skill.fileText ?? '', path.basename(skill.dir));
}

/**
 * The defect of a SKILL.md Codex leaves out of its listing: a stub of it would show the model a
 * skill that Codex never shows. Undefined when Codex lists it.
 */
export function codexUnlistedDefect(skill: SkillFile): InputError | undefined {
  if (skill.fileText === undefined) return undefined;
  const listing = listingOf(skill);
  if (listing.kind === 'listed') return undefined;
  return new InputError(
    { file: skill.file },
    `Codex leaves this skill out of its listing (${listing.reason}), so a Codex model never sees it and there is nothing to measure on Codex`,
    `${CODEX_FIXES[listing.reason] ?? 'fix the frontmatter'} (docs/codex.md "Listing parity"), or measure it with --agent claude alone`,
  );
}

/** The fix for each reason `codexListingOf` gives. */
const CODEX_FIXES: Record<string, string> = {
  'no frontmatter between --- lines':
    'start the file with a line `---` (no byte-order mark before it) and close the frontmatter with another',
  'the frontmatter is not valid YAML':
    'make the frontmatter valid YAML (no tab-indented keys, close every quote)',
  'the frontmatter is not a mapping': 'write the frontmatter as `key: value` lines',
  'name is not text': 'write `name` as plain text',
  'name is longer than 64 characters': 'shorten `name` to 64 characters or fewer',
  'no description': 'give the skill a non-empty `description`',
};

/** A sibling as a Codex run installs it: its name and the description its SKILL.md holds. */
export type CodexSibling = SiblingText;

/** The siblings as Codex sees them: those it lists, and those it leaves out, with why. */
export type CodexSiblings = ListedSiblings;

/**
 * The siblings a Codex run installs beside the stub: those Codex lists, each with its own
 * description (the stub writer cuts it as Codex does). `leftOut` names the others, with why.
 */
export function codexSiblings(siblings: readonly { skill: SkillFile; file: string }[]): CodexSiblings {
  const installed: CodexSibling[] = [];
  const leftOut: Array<{ name: string; reason: string }> = [];
  for (const { skill } of siblings) {
    const listing = listingOf(skill);
    if (listing.kind === 'listed')
      installed.push({ skillName: skill.name, description: listing.description });
    else leftOut.push({ name: skill.name, reason: listing.reason });
  }
  return { installed, leftOut };
}
