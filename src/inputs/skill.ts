import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { type Document, isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import type { InputLocation } from '../errors.js';
import { messageOf } from '../errors.js';
import { isControlCharacter } from './eval-entry.js';
import { emulateListing, LISTING_CAP, listingFindings } from './listing.js';
import { codePointLength, describeValue, inputFailure, isRecord, Problems, quote } from './problems.js';
import type { Skill } from './types.js';
import { yamlErrorLine, yamlFix, yamlValue } from './yaml-errors.js';

/** The skills spec's cap on `description` (skill-creator's quick_validate.py enforces it too). */
export const DESCRIPTION_MAX_CHARS = 1024;
/**
 * Claude Code cuts a listing entry (`description`, then ` - ` and `when_to_use`) to 1535 characters
 * plus `…` (claude-cli-facts §1.1). The CLI is JavaScript, so this one counts UTF-16 units.
 */
export const LISTING_MAX_CHARS = LISTING_CAP;
/** The skills spec's cap on `name`; the name also becomes part of stub and report file names. */
export const NAME_MAX_CHARS = 64;

const SKILL_FILE = 'SKILL.md';

/**
 * Reads `<dir>/SKILL.md` (a path to the SKILL.md itself is accepted too) and validates its
 * frontmatter. Every defect of the file is collected; the loader throws `InputErrors` holding all
 * of them (one or more), each naming the file and line and saying how to fix it.
 */
export async function loadSkill(dir: string): Promise<Skill> {
  const located = await locateSkillFile(dir);
  let text: string;
  try {
    text = await readFile(located.file, 'utf8');
  } catch (error) {
    throw inputFailure(
      { file: located.file },
      `cannot read the file (${errorCode(error)})`,
      'check that the file is readable',
    );
  }
  return parseSkill(text, located);
}

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

/** Parses SKILL.md text already read from `file`. Exported for tests and for the Action (base-branch blobs). */
export function parseSkill(text: string, where: { dir: string; file: string }): Skill {
  const { file, dir } = where;
  const problems = new Problems();
  const warnings: string[] = [];

  const frontmatter = splitFrontmatter(text, file);
  // Frontmatter line k is file line k + 1 (line 1 is the opening `---`).
  const fileLine = (frontmatterLine: number) => frontmatterLine + 1;

  const parsed = parseFrontmatter(frontmatter, file, fileLine, warnings);
  const { doc, lineCounter } = parsed;
  const keyLine = (key: string): number | undefined => {
    if (!isMap(doc.contents)) return undefined;
    for (const pair of doc.contents.items) {
      if (isScalar(pair.key) && pair.key.value === key && pair.key.range) {
        return fileLine(lineCounter.linePos(pair.key.range[0]).line);
      }
    }
    return undefined;
  };

  if (doc.contents === null) {
    throw inputFailure(
      { file, line: 1 },
      'the frontmatter between the --- lines is empty',
      'add a "description: What the skill does. Use when …" line between the --- lines',
    );
  }
  const data: unknown = yamlValue(doc, { file });
  if (!isRecord(data)) {
    throw inputFailure(
      { file, line: 2 },
      `the frontmatter must be a mapping of keys (name:, description:), got ${describeValue(data)}`,
      'write one "key: value" per line between the --- lines',
    );
  }

  // description
  const descriptionLine = keyLine('description') ?? 1;
  let description = '';
  const rawDescription = data.description;
  if (!('description' in data)) {
    const lookalike = Object.keys(data).find((k) => k.toLowerCase().replace(/[-_ ]/g, '') === 'description');
    problems.add(
      { file, line: lookalike ? keyLine(lookalike) : 1 },
      'the frontmatter has no description, so Claude has nothing to decide on',
      lookalike
        ? `rename the key ${quote(lookalike)} to "description" (keys are case-sensitive)`
        : 'add a "description: What the skill does. Use when …" line between the --- lines',
    );
  } else if (rawDescription === null || rawDescription === undefined) {
    problems.add(
      { file, line: descriptionLine },
      'description is empty',
      'write what the skill does and when to use it after "description:"',
    );
  } else if (typeof rawDescription !== 'string') {
    problems.add(
      { file, line: descriptionLine },
      `description must be text, got ${describeValue(rawDescription)}`,
      'write the description as one string; quote it if it starts with a character YAML treats specially ([, {, -, *, &, !)',
    );
  } else {
    checkDescriptionText(rawDescription, { file, line: descriptionLine }, problems);
    description = rawDescription.trim();
    const long = specLengthWarning(description);
    if (long) warnings.push(long);
  }

  // when_to_use
  let whenToUse: string | undefined;
  const rawWhenToUse = data.when_to_use;
  if (rawWhenToUse !== undefined && rawWhenToUse !== null) {
    if (typeof rawWhenToUse === 'string') {
      whenToUse = rawWhenToUse.trim() || undefined;
      const control = [...rawWhenToUse].find(isControlCharacter);
      if (control !== undefined) {
        problems.add(
          { file, line: keyLine('when_to_use') },
          `when_to_use contains the control character U+${(control.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`,
          'remove it (Claude Code lists when_to_use after the description)',
        );
      }
    } else {
      problems.add(
        { file, line: keyLine('when_to_use') },
        `when_to_use must be text, got ${describeValue(rawWhenToUse)}`,
        'write when_to_use as one string (Claude Code appends it to the description in the skill listing)',
      );
    }
  }

  // name: the frontmatter's, else the folder's. Either way it must be usable in file names.
  const folderName = path.basename(path.resolve(dir));
  let name = folderName;
  if ('name' in data && data.name !== null) {
    const rawName = data.name;
    if (typeof rawName !== 'string') {
      problems.add(
        { file, line: keyLine('name') },
        `name must be text, got ${describeValue(rawName)}`,
        `write the name as lowercase words joined by hyphens, e.g. ${quote(folderName)}`,
      );
    } else {
      const problem = nameProblem(rawName);
      if (problem) {
        problems.add(
          { file, line: keyLine('name') },
          `name ${quote(rawName)} ${problem}`,
          `use lowercase letters, digits and single hyphens, at most ${NAME_MAX_CHARS} characters, e.g. ${quote(suggestName(rawName))}`,
        );
      } else {
        name = rawName;
        if (rawName !== folderName) {
          warnings.push(
            `name ${quote(rawName)} differs from the folder name ${quote(folderName)}: Claude Code lists and invokes a project skill by its folder name, so the measurement (which uses ${quote(rawName)}) may not match what users see; rename the folder or the name so they agree`,
          );
        }
      }
    }
  } else {
    const problem = nameProblem(folderName);
    if (problem) {
      problems.add(
        { file, line: 1 },
        `the frontmatter has no name, and the folder name ${quote(folderName)} ${problem}`,
        `add "name: ${suggestName(folderName)}" to the frontmatter, or rename the folder to lowercase letters, digits and hyphens`,
      );
    }
  }

  problems.throwIfAny();

  // What Claude Code lists, as far as the emulation can tell; `run` and `check` replace it with the
  // listing probe's reading when the CLI is there (src/measure/listed-text.ts).
  const emulated = emulateListing(text);
  const authored = authoredText(description, whenToUse);
  const listingWarnings = listingFindings(authored, emulated.listed);
  // `description: Merge PDFs # for forms`: every YAML reader, Claude Code's included, drops the
  // comment, so the model never reads it; say so, since the author most likely meant it as text.
  const comment = valueComment(doc, 'description');
  if (comment !== undefined) {
    warnings.push(
      `the description line holds a YAML comment (${quote(`#${comment}`, 40)}): the text after " #" is not part of the description, so Claude Code lists ${emulated.listed.length} characters without it; quote the description if the "#" belongs to it`,
    );
  }
  warnings.push(...listingWarnings);
  if (data['disable-model-invocation'] === true) {
    warnings.push(
      'disable-model-invocation: true takes the skill out of the listing the model reads, so Claude never loads it on its own; the measurement shows what the description would do without that flag',
    );
  }

  return {
    dir,
    file,
    name,
    description,
    descriptionLine,
    fileText: text,
    emulatedListing: emulated.listed,
    authoredListing: authored,
    listingWarnings,
    ...(whenToUse !== undefined ? { whenToUse } : {}),
    warnings,
  };
}

/** The same-line comment after a key's plain value (`key: value # comment`), if any. */
function valueComment(doc: Document.Parsed, key: string): string | undefined {
  if (!isMap(doc.contents)) return undefined;
  for (const pair of doc.contents.items) {
    if (isScalar(pair.key) && pair.key.value === key && isScalar(pair.value)) {
      const comment = pair.value.comment;
      return typeof comment === 'string' && comment.trim() !== '' ? comment : undefined;
    }
  }
  return undefined;
}

async function locateSkillFile(input: string): Promise<{ dir: string; file: string }> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(input);
  } catch (error) {
    throw inputFailure(
      { file: input },
      errorCode(error) === 'ENOENT' ? 'the skill folder does not exist' : `cannot open (${errorCode(error)})`,
      'pass the folder that holds SKILL.md, e.g. .claude/skills/my-skill',
    );
  }
  if (info.isFile()) {
    if (path.basename(input) === SKILL_FILE) return { dir: path.dirname(input), file: input };
    throw inputFailure(
      { file: input },
      'is a file, not a skill folder',
      'pass the folder that holds SKILL.md, e.g. .claude/skills/my-skill',
    );
  }
  const file = path.join(input, SKILL_FILE);
  let entries: string[];
  try {
    entries = await readdir(input);
  } catch (error) {
    throw inputFailure(
      { file: input },
      `cannot list the folder (${errorCode(error)})`,
      'check its permissions',
    );
  }
  if (!entries.includes(SKILL_FILE)) {
    // Claude Code looks for the exact name; a `skill.md` works on macOS and fails in Linux CI.
    const nearly = entries.find((e) => e.toLowerCase() === SKILL_FILE.toLowerCase());
    throw inputFailure(
      { file: input },
      nearly ? `has ${nearly} but no ${SKILL_FILE}` : `has no ${SKILL_FILE}`,
      nearly
        ? `rename ${nearly} to ${SKILL_FILE} (the name is case-sensitive)`
        : `pass the folder that holds ${SKILL_FILE}, or create ${file} with name and description frontmatter`,
    );
  }
  return { dir: input, file };
}

/** The text between the opening `---` on line 1 and the next `---` line. */
function splitFrontmatter(text: string, file: string): string {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trimEnd() !== '---') {
    throw inputFailure(
      { file, line: 1 },
      'has no YAML frontmatter (the file must start with a --- line)',
      'start the file with ---, then "name:" and "description:" lines, then a closing ---',
    );
  }
  const close = lines.findIndex((line, i) => i > 0 && line.trimEnd() === '---');
  if (close === -1) {
    throw inputFailure(
      { file, line: 1 },
      'the frontmatter opened by --- on line 1 is never closed',
      'add a line holding only --- after the last frontmatter key',
    );
  }
  return lines.slice(1, close).join('\n');
}

interface ParsedFrontmatter {
  doc: Document.Parsed;
  lineCounter: LineCounter;
}

function parseYaml(text: string): ParsedFrontmatter {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  return { doc, lineCounter };
}

/**
 * Parses the frontmatter. When strict YAML fails, tries the two repairs Claude Code itself applies
 * before giving up (tab indentation, and an unquoted ": " inside a one-line value, which the CLI
 * was observed to accept — claude-cli-facts §1.1). If the repaired text parses, the skill loads
 * as Claude Code would load it, with a warning; otherwise every YAML error is reported.
 */
function parseFrontmatter(
  text: string,
  file: string,
  fileLine: (n: number) => number,
  warnings: string[],
): ParsedFrontmatter {
  const strict = parseYaml(text);
  if (strict.doc.errors.length === 0) return strict;

  const repair = repairFrontmatter(text);
  if (repair.changedLines.length > 0) {
    const repaired = parseYaml(repair.text);
    if (repaired.doc.errors.length === 0) {
      const lines = repair.changedLines.map(fileLine).join(', ');
      warnings.push(
        `frontmatter line(s) ${lines} are not valid YAML (an unquoted ": " inside a value, or tab indentation); Claude Code repairs them, other tools (skill validators, GitHub's preview) reject them: quote the value or indent with spaces`,
      );
      return repaired;
    }
  }

  const problems = new Problems();
  for (const error of strict.doc.errors) {
    const line = fileLine(yamlErrorLine(error, text, strict.lineCounter));
    problems.add({ file, line }, `the frontmatter is not valid YAML: ${error.message}`, yamlFix(error.code));
  }
  problems.throwIfAny();
  return strict;
}

function repairFrontmatter(text: string): { text: string; changedLines: number[] } {
  const changedLines: number[] = [];
  const lines = text.split('\n').map((line, i) => {
    let out = line.replace(/^\t+/, (tabs) => '  '.repeat(tabs.length));
    const m = /^([A-Za-z0-9_-]+):[ \t]+(.*\S)\s*$/.exec(out);
    if (m?.[1] && m[2] && !/^["'|>[{&*!#]/.test(m[2]) && m[2].includes(': ')) {
      out = `${m[1]}: ${JSON.stringify(m[2])}`;
    }
    if (out !== line) changedLines.push(i + 1);
    return out;
  });
  return { text: lines.join('\n'), changedLines };
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

function checkDescriptionText(text: string, location: InputLocation, problems: Problems): void {
  const trimmed = text.trim();
  if (trimmed === '') {
    problems.add(location, 'description is empty', 'write what the skill does and when to use it');
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
  const bracket = trimmed.search(/[<>]/);
  if (bracket !== -1) {
    const which = ['<', '>'].filter((c) => trimmed.includes(c)).join('" and "');
    const start = Math.max(0, bracket - 15);
    const snippet = `${start > 0 ? '…' : ''}${trimmed.slice(start, bracket + 16)}${bracket + 16 < trimmed.length ? '…' : ''}`;
    problems.add(
      location,
      `description contains "${which}" (first at character ${bracket + 1}: ${quote(snippet)}), which the skills spec forbids`,
      'remove the angle brackets: write "a file path" rather than "<path>", and "more than" rather than ">"',
    );
  }
}

/** Why a skill name is unusable, or undefined. Mirrors the skills spec and quick_validate.py. */
function nameProblem(name: string): string | undefined {
  if (name === '') return 'is empty';
  if (name.length > NAME_MAX_CHARS) return `is ${name.length} characters, over ${NAME_MAX_CHARS}`;
  const bad = /[^a-z0-9-]/.exec(name);
  if (bad) return `contains ${quote(bad[0])}; only lowercase letters, digits and hyphens are allowed`;
  if (name.startsWith('-') || name.endsWith('-')) return 'starts or ends with a hyphen';
  if (name.includes('--')) return 'contains two hyphens in a row';
  return undefined;
}

function suggestName(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, NAME_MAX_CHARS)
    .replace(/-+$/, '');
}

function errorCode(error: unknown): string {
  if (isRecord(error) && typeof error.code === 'string') return error.code;
  return messageOf(error);
}
