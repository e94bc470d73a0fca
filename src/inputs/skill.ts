/**
 * A skill as skilltrigger measures it: SKILL.md's frontmatter (frontmatter.ts) checked field by
 * field (skill-fields.ts), every defect collected. The file is found in its folder and read by
 * `loadSkill` (src/inputs/files.ts).
 */
import path from 'node:path';
import { isMap, isScalar } from 'yaml';
import { isControlCharacter } from './eval-entry.js';
import { parseFrontmatter, splitFrontmatter, valueComment } from './frontmatter.js';
import { emulateListing, listingFindings } from './listing.js';
import { describeValue, inputFailure, isRecord, Problems, quote } from './problems.js';
import {
  authoredText,
  checkDescriptionText,
  NAME_MAX_CHARS,
  nameProblem,
  specLengthWarning,
  suggestName,
} from './skill-fields.js';
import type { Skill } from './types.js';
import { yamlValue } from './yaml-errors.js';

/**
 * The largest SKILL.md Claude Code lists: a file of more bytes is read and silently left out of
 * the skill listing, so the model never sees the skill. Found by bisecting the file size through
 * the listing probe with Claude Code 2.1.328: 1,000,000 bytes are listed, 1,000,001 are not, and
 * the limit counts bytes, not characters (docs/listing-parity.md).
 */
export const SKILL_FILE_MAX_BYTES = 1_000_000;

/** A frontmatter key's line in SKILL.md, when the key is there. */
type KeyLine = (key: string) => number | undefined;

/** Where a field's problems are reported: the file, and each key's line in it. */
interface Fields {
  file: string;
  keyLine: KeyLine;
  problems: Problems;
  warnings: string[];
}

/** Parses SKILL.md text read from `file` (by `loadSkill`, or by the Action from a base-branch blob). */
export function parseSkill(text: string, where: { dir: string; file: string }): Skill {
  const { file, dir } = where;
  const warnings: string[] = [];
  checkFileSize(text, file);
  const { doc, data, keyLine } = readFrontmatter(text, file, warnings);
  const fields: Fields = { file, keyLine, problems: new Problems(), warnings };
  const { description, descriptionLine } = readDescription(data, fields);
  const whenToUse = readWhenToUse(data, fields);
  const name = readName(data, dir, fields);
  fields.problems.throwIfAny();

  // What Claude Code lists, as far as the emulation can tell; `run` and `check` replace it with the
  // listing probe's reading when the CLI is there (src/agents/claude/listed-text.ts).
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
  const modelInvocationDisabled = disablesModelInvocation(data, warnings);

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
    ...(modelInvocationDisabled ? { disableModelInvocation: true as const } : {}),
    warnings,
  };
}

function checkFileSize(text: string, file: string): void {
  const size = Buffer.byteLength(text, 'utf8');
  if (size > SKILL_FILE_MAX_BYTES) {
    throw inputFailure(
      { file },
      `is ${size.toLocaleString('en-US')} bytes, and Claude Code does not list a SKILL.md over ${SKILL_FILE_MAX_BYTES.toLocaleString('en-US')} bytes: the model would never see this skill, so there is nothing to measure`,
      'move reference material out of SKILL.md into files the skill points to, until SKILL.md is under 1 MB',
    );
  }
}

/** The frontmatter parsed, as a mapping of keys (else an input failure), with each key's line. */
function readFrontmatter(text: string, file: string, warnings: string[]) {
  const frontmatter = splitFrontmatter(text, file);
  // Frontmatter line k is file line k + 1 (line 1 is the opening `---`).
  const fileLine = (frontmatterLine: number) => frontmatterLine + 1;

  const parsed = parseFrontmatter(frontmatter, file, fileLine, warnings);
  const { doc, lineCounter } = parsed;
  const keyLine: KeyLine = (key) => {
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
  return { doc, data, keyLine };
}

/** `description`: present, text, and usable; a lookalike key (`Description:`) is named in the fix. */
function readDescription(
  data: Record<string, unknown>,
  { file, keyLine, problems, warnings }: Fields,
): { description: string; descriptionLine: number } {
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
  return { description, descriptionLine };
}

/** `when_to_use`, optional: text without control characters. */
function readWhenToUse(
  data: Record<string, unknown>,
  { file, keyLine, problems }: Fields,
): string | undefined {
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
  return whenToUse;
}

/** `name`: the frontmatter's, else the folder's. Either way it must be usable in file names. */
function readName(
  data: Record<string, unknown>,
  dir: string,
  { file, keyLine, problems, warnings }: Fields,
): string {
  const folderName = path.basename(path.resolve(dir));
  if (!('name' in data) || data.name === null) {
    const problem = nameProblem(folderName);
    if (problem) {
      problems.add(
        { file, line: 1 },
        `the frontmatter has no name, and the folder name ${quote(folderName)} ${problem}`,
        `add "name: ${suggestName(folderName) || 'my-skill'}" to the frontmatter, or rename the folder to lowercase letters, digits and hyphens`,
      );
    }
    return folderName;
  }
  const rawName = data.name;
  if (typeof rawName !== 'string') {
    problems.add(
      { file, line: keyLine('name') },
      `name must be text, got ${describeValue(rawName)}`,
      `write the name as lowercase words joined by hyphens, e.g. ${quote(folderName)}`,
    );
    return folderName;
  }
  const problem = nameProblem(rawName);
  if (problem) {
    problems.add(
      { file, line: keyLine('name') },
      `name ${quote(rawName)} ${problem}`,
      `use lowercase letters, digits and single hyphens, at most ${NAME_MAX_CHARS} characters, e.g. ${quote(suggestName(rawName) || suggestName(folderName) || 'my-skill')}`,
    );
    return folderName;
  }
  if (rawName !== folderName) {
    warnings.push(
      `name ${quote(rawName)} differs from the folder name ${quote(folderName)}: Claude Code lists and invokes a project skill by its folder name, so the measurement (which uses ${quote(rawName)}) may not match what users see; rename the folder or the name so they agree`,
    );
  }
  return rawName;
}

/** Claude Code takes the quoted "true" as the flag too (observed with the listing probe). */
function disablesModelInvocation(data: Record<string, unknown>, warnings: string[]): boolean {
  const disabled = data['disable-model-invocation'] === true || data['disable-model-invocation'] === 'true';
  if (disabled) {
    warnings.push(
      'disable-model-invocation: true takes the skill out of the listing the model reads, so Claude never loads it on its own; the measurement shows what the description would do without that flag',
    );
  }
  return disabled;
}
