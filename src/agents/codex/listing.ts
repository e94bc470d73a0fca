/**
 * What Codex lists for a SKILL.md, as codex-cli 0.169.0 showed it through a capture server
 * (docs/codex.md "Listing parity"): the line `- <name>: <description> (file: <alias>/<dir>/SKILL.md)`
 * inside `<skills_instructions>`, where
 * - the frontmatter is the lines between a first line that is `---` (surrounding spaces allowed,
 *   a byte-order mark not) and the next such line; CRLF line ends are read as LF;
 * - the name is the frontmatter's `name`, else the folder's name; a name past 64 characters
 *   takes the skill out of the listing;
 * - every run of whitespace in the description (line breaks, tabs, repeated spaces) is one space,
 *   and the ends are trimmed; an empty or missing description takes the skill out;
 * - a description longer than 1,024 characters is cut to its first 1,021 and "..." is appended;
 * - a frontmatter that is not valid YAML takes the skill out, but for an unquoted ": " inside a
 *   value, which Codex reads as text.
 * With many skills installed Codex shortens every description further, with no marker, to keep
 * the list within its share of the context. That cut is not applied here: a run's stubs (the
 * tested skill and its siblings) hold the texts this module lists, and Codex cuts them as it would
 * the real folders; `listing-budget.ts` predicts the cut (docs/listing-budget.md).
 * Pure.
 */
import { parse as parseYaml } from 'yaml';

export const CODEX_DESCRIPTION_LIMIT = 1024;
export const CODEX_NAME_LIMIT = 64;
const ELLIPSIS = '...';

/** Unicode White_Space, which Codex (Rust's `split_whitespace`) splits on; unlike JS `\s`, not U+FEFF. */
const WHITE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/gu;

function collapse(text: string): string {
  return text.replace(WHITE, ' ').replace(/^ | $/g, '');
}

/** The description as Codex lists it. */
export function codexListedDescription(description: string): string {
  const flat = collapse(description);
  const chars = Array.from(flat);
  if (chars.length <= CODEX_DESCRIPTION_LIMIT) return flat;
  return chars.slice(0, CODEX_DESCRIPTION_LIMIT - ELLIPSIS.length).join('') + ELLIPSIS;
}

/** The name Codex lists a skill under. */
export function codexListedName(frontmatterName: string | undefined, folder: string): string {
  const name = frontmatterName === undefined ? '' : collapse(frontmatterName);
  return name === '' ? folder : name;
}

/** The whole listing line, with the file as the listing's alias root spells it (`r1`, …). */
export function codexListingLine(name: string, description: string, root: string, folder: string): string {
  return `- ${name}: ${codexListedDescription(description)} (file: ${root}/${folder}/SKILL.md)`;
}

/** How Codex would list one SKILL.md: its line's name and text, or why it leaves the skill out. */
export type CodexListing =
  | { kind: 'listed'; name: string; description: string }
  | { kind: 'unlisted'; reason: string };

/** The frontmatter lines, or undefined when Codex finds none (a BOM or no closing `---` included). */
function frontmatterOf(text: string): string | undefined {
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  const isFence = (line: string): boolean => collapse(line) === '---';
  if (!isFence(lines[0] ?? '')) return undefined;
  const end = lines.findIndex((line, i) => i > 0 && isFence(line));
  if (end <= 1) return undefined;
  return lines.slice(1, end).join('\n');
}

/**
 * Codex lists `description: Summarise: write it` (an unquoted ": " inside a plain value, which
 * strict YAML refuses) with the whole value; a tab-indented key it does not repair.
 */
function quoteColonValues(frontmatter: string): string {
  return frontmatter
    .split('\n')
    .map((line) => {
      const m = /^([A-Za-z0-9_-]+):[ \t]+(.*\S)\s*$/.exec(line);
      return m?.[1] && m[2] && !/^["'|>[{&*!#]/.test(m[2]) && m[2].includes(': ')
        ? `${m[1]}: ${JSON.stringify(m[2])}`
        : line;
    })
    .join('\n');
}

/** A scalar as text: Codex takes a number or a boolean as its text too. */
function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/**
 * The emulation of Codex's reading of a SKILL.md (see the header), checked against the real binary
 * in __tests__/adapters/codex-listing-parity.e2e.test.ts. `folder` is the skill's folder name.
 */
export function codexListingOf(text: string, folder: string): CodexListing {
  const frontmatter = frontmatterOf(text);
  if (frontmatter === undefined) return { kind: 'unlisted', reason: 'no frontmatter between --- lines' };
  let data: unknown;
  try {
    data = parseYaml(frontmatter, { merge: true });
  } catch {
    try {
      data = parseYaml(quoteColonValues(frontmatter), { merge: true });
    } catch {
      return { kind: 'unlisted', reason: 'the frontmatter is not valid YAML' };
    }
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { kind: 'unlisted', reason: 'the frontmatter is not a mapping' };
  const fields = data as Record<string, unknown>;
  const rawName = fields.name === undefined || fields.name === null ? undefined : scalarText(fields.name);
  if (fields.name !== undefined && fields.name !== null && rawName === undefined)
    return { kind: 'unlisted', reason: 'name is not text' };
  const name = codexListedName(rawName, folder);
  if (Array.from(name).length > CODEX_NAME_LIMIT)
    return { kind: 'unlisted', reason: `name is longer than ${CODEX_NAME_LIMIT} characters` };
  const description = scalarText(fields.description);
  if (description === undefined || collapse(description) === '')
    return { kind: 'unlisted', reason: 'no description' };
  return { kind: 'listed', name, description: codexListedDescription(description) };
}
