import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanPlugin, userPlace } from '../../../src/agents/claude/plugin-folders.js';

let root: string;

async function put(file: string, text: string) {
  await mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await writeFile(path.join(root, file), text);
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'skilltrigger-conflict-'));
  await put('plain/skills/handoff/SKILL.md', '---\nname: handoff\ndescription: x\n---\n');
  await put('plain/skills/other/SKILL.md', '---\nname: other\ndescription: x\n---\n');
  await put('renamed/skills/folder-name/SKILL.md', '---\nname: "handoff"\ndescription: x\n---\n');
  await put('nameless/skills/handoff/SKILL.md', 'no frontmatter\n');
  await put('command/commands/tools/handoff.md', '---\ndescription: x\n---\n');
  await put(
    'declared/.claude-plugin/plugin.json',
    JSON.stringify({ name: 'd', skills: './extra', commands: ['./cmd/handoff.md'] }),
  );
  await put('declared/extra/handoff/SKILL.md', '---\ndescription: x\n---\n');
  await put('declared/cmd/handoff.md', 'x\n');
  await put('clean/skills/handoffs/SKILL.md', '---\nname: handoffs\n---\n');
  await put('clean/commands/handoff-notes.md', 'x\n');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('scanPlugin', () => {
  it('finds a same-named skill by folder or frontmatter name, and a command at any depth', async () => {
    expect(await scanPlugin(path.join(root, 'plain'), 'handoff')).toEqual(['skill "handoff"']);
    expect(await scanPlugin(path.join(root, 'renamed'), 'handoff')).toEqual(['skill "handoff"']);
    expect(await scanPlugin(path.join(root, 'nameless'), 'handoff')).toEqual(['skill "handoff"']);
    expect(await scanPlugin(path.join(root, 'command'), 'handoff')).toEqual(['command "handoff"']);
    expect(await scanPlugin(path.join(root, 'declared'), 'handoff')).toEqual([
      'skill "handoff"',
      'command "handoff"',
    ]);
  });

  it('does not match on prefixes or missing folders', async () => {
    expect(await scanPlugin(path.join(root, 'clean'), 'handoff')).toEqual([]);
    expect(await scanPlugin(path.join(root, 'absent'), 'handoff')).toEqual([]);
  });
});

describe('userPlace', () => {
  it("names the user's own skill or command by the folder the user knows it under", async () => {
    await put('home/.claude/skills/handoff/SKILL.md', '---\nname: handoff\n---\n');
    await put('config/commands/notes.md', 'x\n');
    const home = { HOME: path.join(root, 'home') };
    expect(await userPlace(home, 'handoff')).toBe('~/.claude/skills/handoff');
    expect(await userPlace(home, 'notes')).toBeUndefined();
    const config = { ...home, CLAUDE_CONFIG_DIR: path.join(root, 'config') };
    expect(await userPlace(config, 'notes')).toBe('$CLAUDE_CONFIG_DIR/commands/notes.md');
    expect(await userPlace(config, 'handoff')).toBeUndefined();
  });
});
