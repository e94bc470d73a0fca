/**
 * Reading the skill and eval-set files the user names or keeps in a folder: SKILL.md (a folder or
 * the file itself), an eval set, every SKILL.md under a folder, and a skill's eval set by the
 * convention (src/inputs/discovery.ts). Each read's failure becomes an input error naming the
 * file and the fix; the text is parsed by the pure rules of src/inputs/.
 */
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { InputError, InputErrors, messageOf, SkilltriggerError } from '../errors.js';
import { errorCode } from '../guards.js';
import { nonRegularKind, readInputFile, readInputText } from '../system/input-file.js';
import { resolveEvalContexts } from './context-file.js';
import { evalCandidates } from './discovery.js';
import { parseEvalSet } from './eval-set.js';
import { inputFailure } from './problems.js';
import { parseSkill } from './skill.js';
import type { EvalSet, Skill } from './types.js';
import { refuseInvalidUtf8 } from './utf8.js';

const SKILL_FILE = 'SKILL.md';

/** A read's error code (`ENOENT`, …), or its message when it has none. */
function codeOf(error: unknown): string {
  return errorCode(error) ?? messageOf(error);
}

/**
 * Reads `<dir>/SKILL.md` (a path to the SKILL.md itself is accepted too) and validates its
 * frontmatter. Every defect of the file is collected; the loader throws `InputErrors` holding all
 * of them (one or more), each naming the file and line and saying how to fix it.
 */
export async function loadSkill(dir: string): Promise<Skill> {
  const located = await locateSkillFile(dir);
  let bytes: Buffer;
  try {
    bytes = await readInputFile(located.file, 'SKILL.md');
  } catch (error) {
    if (error instanceof SkilltriggerError) throw error;
    throw inputFailure(
      { file: located.file },
      codeOf(error) === 'EISDIR' ? 'is a folder, not a file' : `cannot read the file (${codeOf(error)})`,
      codeOf(error) === 'EISDIR'
        ? 'SKILL.md must be a file holding the frontmatter'
        : 'check that the file is readable',
    );
  }
  refuseInvalidUtf8(bytes, located.file, 'SKILL.md');
  return parseSkill(bytes.toString('utf8'), located);
}

async function locateSkillFile(input: string): Promise<{ dir: string; file: string }> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(input);
  } catch (error) {
    throw inputFailure(
      { file: input },
      codeOf(error) === 'ENOENT' ? 'the skill folder does not exist' : `cannot open (${codeOf(error)})`,
      'pass the folder that holds SKILL.md, e.g. .claude/skills/my-skill',
    );
  }
  const kind = nonRegularKind(info);
  if (kind !== undefined && kind !== 'a folder') {
    throw inputFailure(
      { file: input },
      `is ${kind}, not a skill folder or a SKILL.md file`,
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
    throw inputFailure({ file: input }, `cannot list the folder (${codeOf(error)})`, 'check its permissions');
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

/**
 * Reads the eval set at `file` (strict UTF-8) and parses it (`parseEvalSet`, src/inputs/eval-set.ts);
 * a missing, unreadable or folder path is an input error naming it.
 */
export async function loadEvalSet(file: string, skillName: string): Promise<EvalSet> {
  let bytes: Buffer;
  try {
    bytes = await readInputFile(file, 'the eval set');
  } catch (error) {
    if (error instanceof SkilltriggerError) throw error;
    const code = errorCode(error) ?? String(error);
    throw inputFailure(
      { file },
      code === 'ENOENT'
        ? 'the eval set does not exist'
        : code === 'EISDIR'
          ? 'is a folder, not an eval set'
          : `cannot read the eval set (${code})`,
      'pass the path of a .json, .yaml or .csv eval set',
    );
  }
  refuseInvalidUtf8(bytes, file, 'the eval set');
  return resolveEvalContexts(parseEvalSet(bytes.toString('utf8'), file, skillName), path.dirname(file));
}

/** Folders never searched for skills: a repository's own metadata and installed packages. */
const SKIPPED_FOLDERS = new Set(['.git', 'node_modules']);

/**
 * Every SKILL.md under `dir`, recursively (hidden folders included, `.git` and `node_modules`
 * skipped), as `/`-separated paths relative to `dir`, sorted. A `dir` that is not a folder is an
 * input error naming it. A symbolic link is followed, to a folder or to a SKILL.md, as Claude Code
 * follows them in `.claude/skills/` (observed with 2.1.328), but only when it resolves inside
 * `dir`: a link out of it (to `/`, to a skill outside a checkout) is left out and told to
 * `onLeftOut` (its path relative to `dir`), so a walk never leaves the folder it was given
 * (docs/security.md). A dangling link is nothing, as it is to Claude Code; a folder reached twice
 * is walked once, so a link loop ends.
 */
export async function findSkillFiles(
  dir: string,
  option = '--siblings',
  onLeftOut?: (relative: string) => void,
): Promise<string[]> {
  const found: string[] = [];
  const walked = new Set<string>();
  const root = await realpath(dir).catch(() => path.resolve(dir));
  const inside = (real: string) =>
    real === root || real.startsWith(root.endsWith(path.sep) ? root : `${root}${path.sep}`);
  const walk = async (relative: string): Promise<void> => {
    const real = await realpath(path.join(dir, relative)).catch(() => undefined);
    if (real !== undefined) {
      if (walked.has(real)) return;
      walked.add(real);
    }
    let entries: Dirent[];
    try {
      entries = await readdir(path.join(dir, relative), { withFileTypes: true });
    } catch (error) {
      if (relative !== '') return;
      const code = errorCode(error) ?? 'error';
      throw new InputErrors([
        new InputError(
          { file: dir },
          `${option}: cannot read this folder (${code})`,
          `give ${option} a folder of skills`,
        ),
      ]);
    }
    for (const entry of entries) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isSymbolicLink()) {
        // A link is what it points to; a dangling one is nothing, as it is to Claude Code.
        const resolved = await realpath(path.join(dir, child)).catch(() => undefined);
        if (resolved === undefined) continue;
        if (!inside(resolved)) {
          onLeftOut?.(child);
          continue;
        }
      }
      const target = entry.isSymbolicLink()
        ? await stat(path.join(dir, child)).catch(() => undefined)
        : entry;
      if (target === undefined) continue;
      if (target.isDirectory() && !SKIPPED_FOLDERS.has(entry.name)) await walk(child);
      else if (target.isFile() && entry.name === 'SKILL.md') found.push(child);
    }
  };
  await walk('');
  return found.sort();
}

/** What a walk tells of a link it left out, for a warning or a log note. */
export function leftOutLink(dir: string, relative: string): string {
  return `${path.join(dir, relative)} is a symbolic link out of ${dir}, so it was left out (a walk for skills stays inside the folder it was given)`;
}

/** A file's text, or undefined when there is no such file (a folder or a missing path). */
export async function readIfFile(file: string): Promise<string | undefined> {
  try {
    return await readInputText(file, 'the eval set');
  } catch (error) {
    if (error instanceof SkilltriggerError) throw error;
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/**
 * Loads the eval set of a skill from the working tree. Errors name repository-relative paths (so
 * annotations land on the file); a skill without any eval set is an input error on its SKILL.md.
 */
export async function loadSkillEvalSet(
  root: string,
  skillFile: string,
  skill: Skill,
  templates: readonly string[],
): Promise<{ evalSet: EvalSet; file: string }> {
  const candidates = evalCandidates(skillFile, skill.name, templates);
  for (const candidate of candidates) {
    const text = await readIfFile(path.join(root, candidate));
    if (text === undefined) continue;
    const parsed = parseEvalSet(text, candidate, skill.name);
    const evalSet = await resolveEvalContexts(parsed, path.dirname(path.join(root, candidate)));
    return { evalSet, file: candidate };
  }
  throw new InputErrors([
    new InputError(
      { file: skillFile, line: skill.descriptionLine },
      `no eval set found for skill ${JSON.stringify(skill.name)} (looked for ${candidates.join(', ')})`,
      templates.length > 0
        ? 'create one of those files, or change the evals input'
        : `add ${candidates[0]} (a JSON array of {"query", "should_trigger"}), or point the evals input at it`,
    ),
  ]);
}
