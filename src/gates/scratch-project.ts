import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

/** An empty project for the gates' claude commands; removed by `remove()`. */
export interface ScratchProject {
  dir: string;
  remove(): Promise<void>;
}

/**
 * A fresh `git init`ed folder with no stub: the roster run sees what every measured run sees
 * besides the stub (user skills, plugins, built-ins), and `plugin list` reports the enabled state
 * that applies there rather than in the user's current folder (claude-cli-facts.md §4: `enabled`
 * depends on the cwd). Same prefix as the stub projects so leftovers are easy to spot.
 */
export async function createScratchProject(root: string = os.tmpdir()): Promise<ScratchProject> {
  const base = await mkdtemp(path.join(root, 'skilltrigger-'));
  const dir = path.join(base, 'project');
  const remove = () => rm(base, { recursive: true, force: true });
  try {
    await mkdir(dir);
    await execa('git', ['init', '-q'], { cwd: dir, stdin: 'ignore' });
  } catch (error) {
    await remove();
    throw error;
  }
  return { dir, remove };
}
