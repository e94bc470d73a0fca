/**
 * The rules of a skill's fields (pure): the spec's and Claude Code's limits on `description` and
 * `name`, the checks a description passes wherever it comes from (SKILL.md, `--description`, a
 * proposed rewrite), and a usable name suggested for a bad one.
 */
import type { InputLocation } from '../errors.js';
import { invisibleOnly, isControlCharacter } from './eval-entry.js';
import { LISTING_CAP } from './listing.js';
import { codePointLength, Problems, quote } from './problems.js';

/** The skills spec's cap on `description` (skill-creator's quick_validate.py enforces it too). */
export const DESCRIPTION_MAX_CHARS = 1024;
/**
 * Claude Code cuts a listing entry (`description`, then ` - ` and `when_to_use`) to 1535 characters
 * plus `…` (docs/claude-cli.md §2). The CLI is JavaScript, so this one counts UTF-16 units.
 */
export const LISTING_MAX_CHARS = LISTING_CAP;
/** The skills spec's cap on `name`; the name also becomes part of stub and report file names. */
export const NAME_MAX_CHARS = 64;

/**
 * Validates a `--description` override with the limits a SKILL.md description has, and returns it
 * trimmed (leading and trailing whitespace never reaches the listing).
 */
export function validateDescription(text: string, source: InputLocation): string {
  const problems = new Problems();
  checkDescriptionText(text, source, problems);
  problems.throwIfAny();
  return text.trim();
}

/**
 * Over the Agent Skills spec's 1,024 characters: a warning, not a defect, since Claude Code lists up
 * to 1,536 (other agents may enforce the spec). The spec counts code points (Python's len).
 */
export function specLengthWarning(text: string): string | undefined {
  const length = codePointLength(text.trim());
  if (length <= DESCRIPTION_MAX_CHARS) return undefined;
  return `description is ${length} characters, over the ${DESCRIPTION_MAX_CHARS} the Agent Skills spec allows: Claude Code lists up to ${LISTING_CAP} and is measured as it lists it, but other agents and validators may refuse the skill; shorten it by at least ${length - DESCRIPTION_MAX_CHARS} character${length - DESCRIPTION_MAX_CHARS === 1 ? '' : 's'} to be safe`;
}

/** The author's entry, joined as Claude Code joins it: what `check` compares the listed text with. */
export function authoredText(description: string, whenToUse?: string): string {
  return whenToUse ? `${description} - ${whenToUse}` : description;
}

export function checkDescriptionText(text: string, location: InputLocation, problems: Problems): void {
  const trimmed = text.trim();
  if (trimmed === '') {
    problems.add(location, 'description is empty', 'write what the skill does and when to use it');
    return;
  }
  const invisible = invisibleOnly(trimmed);
  if (invisible !== undefined) {
    problems.add(
      location,
      `description holds only invisible characters (${invisible}), so the model reads an empty description`,
      'write what the skill does and when to use it',
    );
    return;
  }
  const control = [...trimmed].find(isControlCharacter);
  if (control !== undefined) {
    const code = (control.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
    problems.add(
      location,
      `description contains the control character U+${code}`,
      'remove it (Claude Code drops or garbles it in the listing, and it garbles terminals and reports)',
    );
  }
  // In characters (code points), as the length limit counts: an emoji is one, never cut in half.
  const chars = [...trimmed];
  const bracket = chars.findIndex((c) => c === '<' || c === '>');
  if (bracket !== -1) {
    const which = ['<', '>'].filter((c) => trimmed.includes(c)).join('" and "');
    const start = Math.max(0, bracket - 15);
    const snippet = `${start > 0 ? '…' : ''}${chars.slice(start, bracket + 16).join('')}${bracket + 16 < chars.length ? '…' : ''}`;
    problems.add(
      location,
      `description contains "${which}" (first at character ${bracket + 1}: ${quote(snippet)}), which the skills spec forbids`,
      'remove the angle brackets: write "a file path" rather than "<path>", and "more than" rather than ">"',
    );
  }
}

/** Why a skill name is unusable, or undefined. Mirrors the skills spec and quick_validate.py. */
export function nameProblem(name: string): string | undefined {
  if (name === '') return 'is empty';
  if (name.length > NAME_MAX_CHARS) return `is ${name.length} characters, over ${NAME_MAX_CHARS}`;
  const bad = /[^a-z0-9-]/.exec(name);
  if (bad) return `contains ${quote(bad[0])}; only lowercase letters, digits and hyphens are allowed`;
  if (name.startsWith('-') || name.endsWith('-')) return 'starts or ends with a hyphen';
  if (name.includes('--')) return 'contains two hyphens in a row';
  return undefined;
}

export function suggestName(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, NAME_MAX_CHARS)
    .replace(/-+$/, '');
}
