/**
 * What Codex lists for a SKILL.md, as codex-cli 0.169.0 showed it through a capture server
 * (docs/codex.md "The listing"): the line `- <name>: <description> (file: <alias>/<dir>/SKILL.md)`
 * inside `<skills_instructions>`, where
 * - the name is the frontmatter's `name`, else the folder's name;
 * - every run of whitespace in the description (line breaks, tabs, repeated spaces) is one space,
 *   and the ends are trimmed;
 * - a description longer than 1,024 characters is cut to its first 1,021 and "..." is appended.
 * With many skills installed Codex shortens every description further, with no marker, to keep
 * the list within its share of the context; a single stub never reaches that cap.
 * Pure.
 */

export const CODEX_DESCRIPTION_LIMIT = 1024;
const ELLIPSIS = '...';

/** The description as Codex lists it. */
export function codexListedDescription(description: string): string {
  const flat = description.replace(/\s+/gu, ' ').trim();
  const chars = Array.from(flat);
  if (chars.length <= CODEX_DESCRIPTION_LIMIT) return flat;
  return chars.slice(0, CODEX_DESCRIPTION_LIMIT - ELLIPSIS.length).join('') + ELLIPSIS;
}

/** The name Codex lists a skill under. */
export function codexListedName(frontmatterName: string | undefined, folder: string): string {
  const name = frontmatterName?.trim();
  return name === undefined || name === '' ? folder : name;
}

/** The whole listing line, with the file as the listing's alias root spells it (`r1`, …). */
export function codexListingLine(name: string, description: string, root: string, folder: string): string {
  return `- ${name}: ${codexListedDescription(description)} (file: ${root}/${folder}/SKILL.md)`;
}
