import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { findSkillFiles, loadSkillEvalSet, readIfFile } from '../../src/inputs/files.js';
import type { Skill } from '../../src/inputs/types.js';
import { defectOf } from './input-errors.js';

// Finding skills and their eval sets, against a temporary folder laid out as a repository.
let root: string;

async function put(file: string, text = ''): Promise<void> {
  await mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await writeFile(path.join(root, file), text);
}

const evals = (id: string) =>
  JSON.stringify([
    { id, query: 'write the release notes', should_trigger: true },
    { query: 'what time is it', should_trigger: false },
  ]);
const skillNamed = (name: string, dir: string): Skill => ({
  dir: path.join(root, dir),
  file: path.join(root, dir, 'SKILL.md'),
  name,
  description: `About ${name}`,
  descriptionLine: 3,
  warnings: [],
});

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'skilltrigger-discovery-'));
  await put('repo/SKILL.md');
  await put('repo/skills/b/SKILL.md');
  await put('repo/skills/a/SKILL.md');
  await put('repo/skills/a/sub/SKILL.md');
  await put('repo/skills/a/SKILL.md.bak');
  await put('repo/skills/c/Skill.md');
  await put('repo/.claude/skills/hidden/SKILL.md');
  await put('repo/vendor/node_modules/x/SKILL.md');
  await put('repo/.git/SKILL.md');
  await mkdir(path.join(root, 'repo/skills/d/SKILL.md'), { recursive: true });
  await put('plain-file.txt', 'not a folder');
  // Eval sets by the convention, the first match winning.
  await put('repo/skills/a/evals/evals.json', evals('nested'));
  await put('repo/skills/a/evals.json', evals('beside'));
  await put('repo/skills/b/EVAL.yaml', 'tests: []\n');
  await mkdir(path.join(root, 'repo/skills/e/evals/evals.json'), { recursive: true });
  await put(
    'repo/skills/e/evals.csv',
    'id,should_trigger,prompt\ne1,true,write the notes\ne2,false,book a flight\n',
  );
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('findSkillFiles', () => {
  it('every file named exactly SKILL.md, sorted, / separated; a folder of that name is not one', async () => {
    expect(await findSkillFiles(path.join(root, 'repo'))).toEqual([
      '.claude/skills/hidden/SKILL.md',
      'SKILL.md',
      'skills/a/SKILL.md',
      'skills/a/sub/SKILL.md',
      'skills/b/SKILL.md',
    ]);
  });

  it('a folder without skills gives none', async () => {
    await mkdir(path.join(root, 'empty'), { recursive: true });
    expect(await findSkillFiles(path.join(root, 'empty'))).toEqual([]);
  });

  it('a path that is not a folder is an input error naming it and the option', async () => {
    const file = path.join(root, 'plain-file.txt');
    const e = await defectOf(() => findSkillFiles(file, 'skills'));
    expect(e.message).toBe(
      `${file}: skills: cannot read this folder (ENOTDIR). Fix: give skills a folder of skills`,
    );
  });

  it('a folder reached both directly and through a link is walked once', async () => {
    await put('linked/real/one/SKILL.md');
    await symlink(path.join(root, 'linked/real'), path.join(root, 'linked/z-link'));
    // Which of the two paths is kept depends on the order the folder is read in.
    const found = await findSkillFiles(path.join(root, 'linked'));
    expect(found).toHaveLength(1);
    expect(['real/one/SKILL.md', 'z-link/one/SKILL.md']).toContain(found[0]);
  });
});

describe('readIfFile', () => {
  it('the text of a file; undefined for a missing path, a folder, or a path through a file', async () => {
    expect(await readIfFile(path.join(root, 'plain-file.txt'))).toBe('not a folder');
    expect(await readIfFile(path.join(root, 'nope.json'))).toBeUndefined();
    expect(await readIfFile(path.join(root, 'repo/skills'))).toBeUndefined();
    expect(await readIfFile(path.join(root, 'plain-file.txt/evals.json'))).toBeUndefined();
  });

  it('a named pipe is refused as an input error, not waited on', async () => {
    const fifo = path.join(root, 'pipe.json');
    execFileSync('mkfifo', [fifo]);
    const error = await readIfFile(fifo).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toContain(`${fifo}: is a named pipe (FIFO), not a regular file`);
  });
});

describe('loadSkillEvalSet', () => {
  /** The eval set of `skills/<name>/SKILL.md` in the repository. */
  const load = (name: string, templates: string[] = []) =>
    loadSkillEvalSet(
      path.join(root, 'repo'),
      `skills/${name}/SKILL.md`,
      skillNamed(name, `repo/skills/${name}`),
      templates,
    );

  it('the first convention file that exists wins, named relative to the root', async () => {
    const { evalSet, file } = await load('a');
    expect(file).toBe('skills/a/evals/evals.json');
    expect(evalSet.file).toBe('skills/a/evals/evals.json');
    expect(evalSet.items[0]?.id).toBe('nested');
  });

  it('a folder where a file is expected is passed over for the next candidate', async () => {
    const { evalSet, file } = await load('e');
    expect(file).toBe('skills/e/evals.csv');
    expect(evalSet.format).toBe('csv');
  });

  it('templates replace the convention', async () => {
    const { file } = await load('a', ['{dir}/missing.json', '{dir}/evals.json']);
    expect(file).toBe('skills/a/evals.json');
  });

  it('a defect of the file found is its own error, on the repository-relative path', async () => {
    const e = await defectOf(() => load('b'));
    expect(e.location.file).toBe('skills/b/EVAL.yaml');
  });

  it('no eval set is an error on the SKILL.md, at the description, listing where it looked', async () => {
    const e = await defectOf(() => load('c'));
    expect(e.location).toEqual({ file: 'skills/c/SKILL.md', line: 3 });
    expect(e.message).toBe(
      'skills/c/SKILL.md:line 3: no eval set found for skill "c" (looked for skills/c/evals/evals.json, skills/c/evals.json, skills/c/evals/EVAL.yaml, skills/c/EVAL.yaml, skills/c/evals/evals.csv, skills/c/evals.csv). Fix: add skills/c/evals/evals.json (a JSON array of {"query", "should_trigger"}), or point the evals input at it',
    );
  });

  it('with templates, the fix points at the evals input', async () => {
    const e = await defectOf(() => load('c', ['evals/{name}.json']));
    expect(e.message).toBe(
      'skills/c/SKILL.md:line 3: no eval set found for skill "c" (looked for evals/c.json). Fix: create one of those files, or change the evals input',
    );
  });
});
