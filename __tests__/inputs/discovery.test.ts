import { describe, expect, it } from 'vitest';
import { DEFAULT_EVAL_LOCATIONS, evalCandidates } from '../../src/inputs/discovery.js';

// Where a skill's eval set is looked for: the convention, or the templates the user gives.
describe('evalCandidates', () => {
  it('without templates, the convention in the skill folder, in its order', () => {
    expect(evalCandidates('skills/a/SKILL.md', 'a', [])).toEqual(
      DEFAULT_EVAL_LOCATIONS.map((t) => t.replace('{dir}', 'skills/a')),
    );
  });

  it('fills every {dir} and {name}, normalizes, and drops repeats keeping the first', () => {
    expect(
      evalCandidates('skills/a/SKILL.md', 'notes', [
        '{dir}/{name}/{name}.json',
        './skills/a/notes/notes.json',
        '{dir}/../{name}.csv',
        'evals//{name}.yaml',
      ]),
    ).toEqual(['skills/a/notes/notes.json', 'skills/notes.csv', 'evals/notes.yaml']);
  });

  it('a SKILL.md at the root has . as its folder', () => {
    expect(evalCandidates('SKILL.md', 'root', ['{dir}/evals/{name}.json'])).toEqual(['evals/root.json']);
  });
});
