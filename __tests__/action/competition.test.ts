import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCompetition } from '../../src/action/competition.js';
import { InputErrors } from '../../src/errors.js';
import { parseEvalSet } from '../../src/inputs/eval-set.js';
import { loadSkill } from '../../src/inputs/files.js';
import { skillFile } from './harness.js';

/** The competition of a changed skill in a checkout: found by the CLI's sibling code, errors repository-relative. */

let root: string;

async function put(files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.join(root, path.dirname(file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
}

const ALPHA = '.claude/skills/alpha/SKILL.md';
const evalSet = parseEvalSet(
  JSON.stringify([
    { query: 'alpha notes', should_trigger: true },
    { query: 'not alpha', should_trigger: false },
  ]),
  'evals.json',
  'alpha',
);
const options = { competition: 'siblings', crossNegatives: false, runs: 2 } as const;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'skilltrigger-competition-'));
  await put({
    [ALPHA]: skillFile('alpha', 'Draft alpha notes. Use when asked for alpha notes.'),
    '.claude/skills/beta/SKILL.md': skillFile('beta', 'Write beta entries.'),
    '.claude/skills/beta/evals.json': JSON.stringify([
      { query: 'beta one', should_trigger: true },
      { query: 'not beta', should_trigger: false },
    ]),
    'node_modules/pkg/SKILL.md': skillFile('pkg', 'Never a sibling.'),
  });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function alpha() {
  return loadSkill(path.join(root, '.claude/skills/alpha'));
}

describe('loadCompetition', () => {
  it('isolated: no siblings, the eval set as it is', async () => {
    const c = await loadCompetition(root, ALPHA, await alpha(), evalSet, {
      ...options,
      competition: 'isolated',
    });
    expect(c).toEqual({ siblings: [], evalSet, notes: [] });
  });

  it('siblings: every other SKILL.md but node_modules, the tested one left out by its path', async () => {
    const c = await loadCompetition(root, ALPHA, await alpha(), evalSet, options);
    expect(c.siblings.map(({ name, listed }) => ({ name, listed }))).toEqual([
      { name: 'beta', listed: 'Write beta entries.' },
    ]);
    // The skill travels with it, for the listing probe once the CLI is installed.
    expect(c.siblings[0]?.skill.name).toBe('beta');
    expect(c.evalSet).toBe(evalSet);
    expect(c.notes).toEqual([
      `${ALPHA}: competition: 1 sibling skill installed beside the stub in every run (beta)`,
    ]);
  });

  it('cross-negatives: the siblings’ positives as negatives, the estimate in the notes', async () => {
    const c = await loadCompetition(root, ALPHA, await alpha(), evalSet, {
      ...options,
      crossNegatives: true,
    });
    expect(c.evalSet.items.map((i) => [i.id, i.shouldTrigger, i.extra])).toEqual([
      ...evalSet.items.map((i) => [i.id, i.shouldTrigger, i.extra]),
      [expect.stringMatching(/^beta\//), false, { from: 'beta', owner: 'beta' }],
    ]);
    expect(c.notes[1]).toBe(
      `${ALPHA}: cross-negatives: 1 positive of the siblings added as negatives: up to 2 more runs (2 per query)`,
    );
  });

  it('a SKILL.md that does not parse is left out, said in the notes', async () => {
    await put({ 'skills/broken/SKILL.md': '---\nname: broken\ndescription: [never closed\n---\n' });
    const c = await loadCompetition(root, ALPHA, await alpha(), evalSet, options);
    expect(c.siblings.map((s) => s.name)).toEqual(['beta']);
    expect(c.notes).toContain(
      `${ALPHA}: competition: skills/broken/SKILL.md does not parse, so it is left out of the siblings`,
    );
  });

  it('two skills of one name, or one named like the tested skill, are input errors on repository-relative files', async () => {
    await put({
      'other/beta/SKILL.md': skillFile('beta', 'Another beta.'),
      'copy/alpha/SKILL.md': skillFile('alpha', 'A second alpha.'),
    });
    const error = await loadCompetition(root, ALPHA, await alpha(), evalSet, options).catch(
      (e: unknown) => e,
    );
    if (!(error instanceof InputErrors)) throw new Error(`expected InputErrors, got ${String(error)}`);
    expect(error.errors.map((e) => e.location.file).sort()).toEqual([
      'copy/alpha/SKILL.md',
      'other/beta/SKILL.md',
    ]);
    expect(error.message).not.toContain(root);
  });
});
