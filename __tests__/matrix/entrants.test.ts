import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError, InputErrors } from '../../src/errors.js';
import { loadMatrixEntrants } from '../../src/matrix/entrants.js';
import { thrown } from '../fakes/thrown.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'skilltrigger-entrants-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function write(relative: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await writeFile(path.join(root, relative), text);
}
const skill = (name: string, description = `Does ${name} things. Use when asked to ${name}.`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;
const evals = JSON.stringify([
  { query: 'fill the form', should_trigger: true },
  { query: 'write a poem', should_trigger: false },
]);

describe('loadMatrixEntrants', () => {
  it('every skill under the folder, each with its eval set by the convention or none (a competitor only)', async () => {
    await write('pdf/SKILL.md', skill('pdf'));
    await write('pdf/evals/evals.json', evals);
    await write('review/SKILL.md', skill('review'));
    const entrants = await loadMatrixEntrants(root, { option: '--skills' });
    const byName = new Map(entrants.map((e) => [e.skill.name, e]));
    expect([...byName.keys()].sort()).toEqual(['pdf', 'review']);
    expect(byName.get('pdf')?.evalSet?.items.map((i) => i.query)).toEqual(['fill the form', 'write a poem']);
    expect(byName.get('pdf')?.evalFile).toBe(path.join(root, 'pdf/evals/evals.json'));
    expect(byName.get('review')?.evalSet).toBeNull();
    expect(byName.get('review')).not.toHaveProperty('evalFile');
  });

  it('templates replace the convention: {dir} and {name} are filled per skill', async () => {
    await write('pdf/SKILL.md', skill('pdf'));
    await write('pdf/evals/evals.json', evals);
    await write('tests/pdf.json', evals);
    const [entrant] = await loadMatrixEntrants(root, {
      option: '--skills',
      templates: ['tests/{name}.json'],
    });
    expect(entrant?.evalFile).toBe(path.join(root, 'tests/pdf.json'));
  });

  it('a folder with no SKILL.md is one input error naming the folder and the option to fix', async () => {
    const error = await thrown(loadMatrixEntrants(root, { option: '--skills' }));
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toBe(
      `${root}: holds no SKILL.md. Fix: point --skills at the folder holding your skills`,
    );
  });

  it('no eval set at all: one input error saying where it looked, or the fix the caller gives', async () => {
    await write('pdf/SKILL.md', skill('pdf'));
    await write('review/SKILL.md', skill('review'));
    const error = (await thrown(loadMatrixEntrants(root, { option: '--skills' }))) as InputError;
    expect(error.problem).toBe('none of its 2 skills has an eval set, so there is nothing to measure');
    expect(error.fix).toContain('looked for {dir}/evals/evals.json');
    const own = (await thrown(
      loadMatrixEntrants(root, {
        option: 'routing-matrix',
        templates: ['x/{name}.json'],
        noEvalFix: 'add one',
      }),
    )) as InputError;
    expect(own.fix).toBe('add one');
  });

  it('every defect at once: a broken SKILL.md, a broken eval set, and two skills of one name', async () => {
    await write('a/SKILL.md', 'no frontmatter here\n');
    await write('b/SKILL.md', skill('pdf'));
    await write('b/evals.json', '[{"query": "x"}');
    await write('c/SKILL.md', skill('twin'));
    await write('d/SKILL.md', skill('twin'));
    await write('d/evals.json', evals);
    const error = await thrown(loadMatrixEntrants(root, { option: '--skills' }));
    expect(error).toBeInstanceOf(InputErrors);
    const errors = (error as InputErrors).errors;
    const files = errors.map((e) => path.relative(root, e.location.file));
    expect(files).toContain(path.join('a', 'SKILL.md'));
    expect(files).toContain(path.join('b', 'evals.json'));
    const twin = errors.find((e) => e.problem.startsWith('a second skill named "twin"'));
    expect(twin?.problem).toMatch(/\(the first is .*SKILL\.md\)$/);
    expect(twin?.fix).toBe('give every skill its own name: Claude Code cannot tell two of one name apart');
    expect(twin?.location.line).toBe(3);
  });

  it("passes each skill's loader warnings on", async () => {
    await write('pdf/SKILL.md', skill('pdf', 'Fill forms: use for PDFs'));
    await write('pdf/evals.json', evals);
    const warnings: string[] = [];
    await loadMatrixEntrants(root, { option: '--skills', warn: (w) => warnings.push(w) });
    expect(warnings.some((w) => w.includes('not valid YAML'))).toBe(true);
  });
});
