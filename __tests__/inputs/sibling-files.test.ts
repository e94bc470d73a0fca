import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputErrors } from '../../src/errors.js';
import { findSkillFiles, loadSkill } from '../../src/inputs/files.js';
import { crossNegativeItems, loadSiblings } from '../../src/inputs/sibling-files.js';

let root: string;
const skill = (name: string, description = `About ${name}`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\nBody.\n`;

async function put(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await writeFile(path.join(root, file), text);
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'skilltrigger-siblings-inputs-'));
  await put('skills/handoff/SKILL.md', skill('handoff'));
  await put('skills/xlsx/SKILL.md', skill('xlsx'));
  await put(
    'skills/xlsx/evals/evals.json',
    JSON.stringify([
      { query: 'fix my formula', should_trigger: true },
      { query: 'write a poem', should_trigger: false },
      { id: 'pivot', query: 'recalc the pivot', should_trigger: true },
    ]),
  );
  await put('skills/.hidden/deep/pdf/SKILL.md', skill('pdf'));
  await put('skills/node_modules/pkg/SKILL.md', skill('vendored'));
  await put('skills/.git/SKILL.md', skill('git-internal'));
  await put('skills/notes/skill.md', skill('lowercase'));
  await symlink(path.join(root, 'skills'), path.join(root, 'again'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('finding SKILL.md files under a folder', () => {
  it('recursive, hidden folders included, .git and node_modules skipped, only SKILL.md exactly', async () => {
    expect(await findSkillFiles(path.join(root, 'skills'))).toEqual([
      '.hidden/deep/pdf/SKILL.md',
      'handoff/SKILL.md',
      'xlsx/SKILL.md',
    ]);
  });

  it('follows a linked skill folder and a linked SKILL.md inside the folder, as Claude Code does; a dangling link and a loop are nothing', async () => {
    await put('links/store/linked/SKILL.md', skill('linked'));
    await put('links/store/file.md', skill('linked-file'));
    await mkdir(path.join(root, 'links/own'), { recursive: true });
    await symlink(path.join(root, 'links/store/linked'), path.join(root, 'links/z-linked'));
    await symlink(path.join(root, 'links/store/file.md'), path.join(root, 'links/own/SKILL.md'));
    await symlink(path.join(root, 'elsewhere/gone'), path.join(root, 'links/dangling'));
    await symlink(path.join(root, 'links'), path.join(root, 'links/loop'));
    const found = await findSkillFiles(path.join(root, 'links'));
    expect(found).toContain('own/SKILL.md');
    expect(found.filter((f) => f.endsWith('linked/SKILL.md'))).toHaveLength(1);
  });

  it('leaves out a link that resolves outside the folder, and says so', async () => {
    await put('outside/intruder/SKILL.md', skill('intruder'));
    await put('fenced/inner/SKILL.md', skill('inner'));
    await symlink(path.join(root, 'outside/intruder'), path.join(root, 'fenced/intruder'));
    await symlink('/', path.join(root, 'fenced/root'));
    await symlink(path.join(root, 'outside/intruder/SKILL.md'), path.join(root, 'fenced/inner-2'));
    const left: string[] = [];
    expect(await findSkillFiles(path.join(root, 'fenced'), '--siblings', (l) => left.push(l))).toEqual([
      'inner/SKILL.md',
    ]);
    expect(left.sort()).toEqual(['inner-2', 'intruder', 'root']);
  });

  it('a folder that does not exist is an input error naming it', async () => {
    const missing = path.join(root, 'nope');
    await expect(findSkillFiles(missing)).rejects.toThrow(
      `${missing}: --siblings: cannot read this folder (ENOENT)`,
    );
  });
});

describe('loading the siblings', () => {
  it('leaves out the tested skill by its path, counts a file reached twice once, sorts by name', async () => {
    const tested = await loadSkill(path.join(root, 'skills', 'handoff'));
    const siblings = await loadSiblings([path.join(root, 'skills'), path.join(root, 'again')], tested);
    expect(siblings.map((s) => s.skill.name)).toEqual(['pdf', 'xlsx']);
  });

  it("the siblings' positives become negatives of the tested skill, labelled from and owned by the sibling", async () => {
    const tested = await loadSkill(path.join(root, 'skills', 'handoff'));
    const siblings = await loadSiblings([path.join(root, 'skills')], tested);
    const cross = await crossNegativeItems(siblings);
    expect(cross.without).toEqual(['pdf']);
    expect(cross.items).toEqual([
      {
        id: 'xlsx/q1',
        query: 'fix my formula',
        shouldTrigger: false,
        extra: { from: 'xlsx', owner: 'xlsx' },
      },
      {
        id: 'xlsx/pivot',
        query: 'recalc the pivot',
        shouldTrigger: false,
        extra: { from: 'xlsx', owner: 'xlsx' },
      },
    ]);
  });

  it('every defect at once: a sibling that does not parse, the tested name, duplicate names', async () => {
    await put('bad/a/SKILL.md', '---\nname: a\n---\n');
    await put('bad/b/SKILL.md', skill('handoff', 'Another handoff'));
    await put('bad/c/SKILL.md', skill('twin'));
    await put('bad/d/SKILL.md', skill('twin'));
    const tested = await loadSkill(path.join(root, 'skills', 'handoff'));
    const error = await loadSiblings([path.join(root, 'bad')], tested).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputErrors);
    const messages = (error as InputErrors).errors.map((e) => e.message);
    expect(messages.some((m) => m.startsWith(path.join(root, 'bad', 'a', 'SKILL.md')))).toBe(true);
    expect(
      messages.some(
        (m) =>
          m.startsWith(path.join(root, 'bad', 'b', 'SKILL.md')) &&
          m.includes('the name of the skill under test'),
      ),
    ).toBe(true);
    expect(
      messages.some(
        (m) =>
          m.startsWith(path.join(root, 'bad', 'd', 'SKILL.md')) &&
          m.includes('two siblings are named "twin"'),
      ),
    ).toBe(true);
    expect(messages.every((m) => m.includes('Fix:'))).toBe(true);
  });
});
