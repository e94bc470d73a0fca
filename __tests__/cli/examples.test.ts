import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../fakes/cli.js';
import { runCliInProcess } from '../fakes/cli-in-process.js';

/**
 * The shipped example skills are what a good eval set looks like: `check` finds no defect and no
 * warning on any of them (enough positives and near-miss negatives, a holdout in each class, the
 * prompts that presuppose a session marked).
 */
const EXAMPLES = path.join(REPO_ROOT, 'examples');
const skills = (await readdir(EXAMPLES, { withFileTypes: true }))
  .filter((e) => e.isDirectory() && e.name !== 'workflows')
  .map((e) => e.name);

describe('the shipped examples', () => {
  it('are the three skills the demo and the matrix demo use', () => {
    expect(skills.sort()).toEqual(['changelog', 'handoff', 'standup']);
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
