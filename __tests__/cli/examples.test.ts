import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRoster } from '../../src/inputs/roster.js';
import { REPO_ROOT } from '../fakes/cli.js';
import { runCliInProcess } from '../fakes/cli-in-process.js';

/**
 * The shipped example skills are what a good eval set looks like: `check` finds no defect and no
 * warning on any of them (enough positives and near-miss negatives, a holdout in each class, the
 * prompts that presuppose a session marked).
 */
const EXAMPLES = path.join(REPO_ROOT, 'examples');
const skills = (await readdir(EXAMPLES, { withFileTypes: true }))
  .filter((e) => e.isDirectory() && e.name !== 'workflows' && e.name !== 'crowd')
  .map((e) => e.name);

describe('the shipped examples', () => {
  it('are the three skills the demo and the matrix demo use', () => {
    expect(skills.sort()).toEqual(['changelog', 'handoff', 'standup']);
  });

  it('ship a crowd: a roster folder of 85 never-used skills, none of them an example', async () => {
    const crowd = await loadRoster(path.join(EXAMPLES, 'crowd'));
    expect(crowd.from).toBe('folder');
    expect(crowd.entries).toHaveLength(85);
    expect(crowd.entries.filter((e) => skills.includes(e.name))).toEqual([]);
    const chars = crowd.entries.reduce((sum, e) => sum + (e.fileText?.length ?? 0), 0);
    expect(chars).toBeGreaterThan(24_000);
  });

  it.each(skills)('%s passes check with no warning', async (name) => {
    const dir = path.join(EXAMPLES, name);
    const r = await runCliInProcess(['check', '--skill', dir, '--eval', path.join(dir, 'evals.json')], {
      env: { PATH: '' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/^warn /m);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('clean: 0 defects, 0 warnings');
  });
});
