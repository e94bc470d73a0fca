import { describe, expect, it } from 'vitest';
import { codexSiblings, codexUnlistedDefect } from '../../../src/agents/codex/listed.js';
import { InputError } from '../../../src/errors.js';
import { parseSkill } from '../../../src/inputs/skill.js';

const skill = (folder: string, text: string) =>
  parseSkill(text, { dir: `/skills/${folder}`, file: `/skills/${folder}/SKILL.md` });

describe('codexUnlistedDefect', () => {
  it('passes a SKILL.md Codex lists', () => {
    expect(codexUnlistedDefect(skill('a', '---\nname: a\ndescription: Does a\n---\n'))).toBeUndefined();
  });

  it('refuses one with a byte-order mark, naming the file, what Codex does and the fix', () => {
    const defect = codexUnlistedDefect(skill('a', '\uFEFF---\nname: a\ndescription: Does a\n---\n'));
    expect(defect).toBeInstanceOf(InputError);
    expect(defect?.exitCode).toBe(1);
    expect(defect?.message).toContain('/skills/a/SKILL.md');
    expect(defect?.message).toContain(
      'Codex leaves this skill out of its listing (no frontmatter between --- lines)',
    );
    expect(defect?.message).toContain('no byte-order mark');
    expect(defect?.message).toContain('--agent claude');
  });
});

describe('codexSiblings', () => {
  it('installs what Codex lists, with its text, and leaves out what it does not', () => {
    const long = 'x'.repeat(1100);
    const { installed, leftOut } = codexSiblings([
      { skill: skill('xlsx', '---\nname: xlsx\ndescription: |\n  Edit\n  sheets\n---\n'), file: 'x' },
      { skill: skill('long', `---\nname: long\ndescription: ${long}\n---\n`), file: 'l' },
      { skill: skill('bom', '\uFEFF---\nname: bom\ndescription: Has a BOM\n---\n'), file: 'b' },
    ]);
    expect(installed).toEqual([
      { skillName: 'xlsx', description: 'Edit sheets' },
      { skillName: 'long', description: `${'x'.repeat(1021)}...` },
    ]);
    expect(leftOut).toEqual([{ name: 'bom', reason: 'no frontmatter between --- lines' }]);
  });
});
