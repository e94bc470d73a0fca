import { mkdir, mkdtemp, readdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeProjectEntriesIn } from '../../../src/agents/claude/leftovers.js';

let root: string;
beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'claude-leftovers-')));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const slug = (dir: string) => dir.replace(/[^a-zA-Z0-9]/g, '-');

describe("a dead skilltrigger's temp folder, swept", () => {
  it("removes the projects entry of its temp project, and no one else's", async () => {
    const home = path.join(root, 'home');
    const temp = path.join(root, 'tmp', 'skilltrigger-abc123');
    const project = path.join(temp, 'project');
    await mkdir(project, { recursive: true });
    const projects = path.join(home, '.claude', 'projects');
    const ours = slug(project);
    const users = '-home-me-src-app';
    await mkdir(path.join(projects, ours, 'memory'), { recursive: true });
    await mkdir(path.join(projects, users), { recursive: true });
    await removeProjectEntriesIn(temp, { HOME: home });
    expect(await readdir(projects)).toEqual([users]);
  });

  it('reads CLAUDE_CONFIG_DIR when it is set, and does nothing without a HOME or config folder', async () => {
    const config = path.join(root, 'config');
    const temp = path.join(root, 'tmp', 'skilltrigger-def456');
    const project = path.join(temp, 'project');
    await mkdir(project, { recursive: true });
    await mkdir(path.join(config, 'projects', slug(project)), { recursive: true });
    await removeProjectEntriesIn(temp, {});
    expect(await readdir(path.join(config, 'projects'))).toEqual([slug(project)]);
    await removeProjectEntriesIn(temp, { HOME: path.join(root, 'elsewhere'), CLAUDE_CONFIG_DIR: config });
    expect(await readdir(path.join(config, 'projects'))).toEqual([]);
  });
});
