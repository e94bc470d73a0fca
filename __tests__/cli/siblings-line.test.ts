import { describe, expect, it } from 'vitest';
import { codexSiblings } from '../../src/agents/codex/listed.js';
import { siblingsLine } from '../../src/cli/siblings-line.js';
import type { SiblingSkill } from '../../src/inputs/siblings.js';

/** A sibling as `--siblings` finds it; `fileText` is what Codex's listing is read from. */
function sibling(name: string, fileText: string): SiblingSkill {
  return {
    file: `skills/${name}/SKILL.md`,
    skill: {
      dir: `skills/${name}`,
      file: `skills/${name}/SKILL.md`,
      name,
      description: 'x',
      descriptionLine: 3,
      fileText,
    },
  } as SiblingSkill;
}
const listed = (name: string) =>
  sibling(name, `---\nname: ${name}\ndescription: Edit ${name} files\n---\nBody\n`);
// No frontmatter: Claude Code lists it under its folder, Codex leaves it out.
const bare = (name: string) => sibling(name, 'Just a body, no frontmatter.\n');

describe('siblingsLine', () => {
  const siblings = [bare('notes'), listed('pdf'), listed('xlsx')];

  it('counts every sibling for claude alone', () => {
    expect(siblingsLine(siblings, [{ agent: 'claude' }], {})).toBe(
      'siblings: 3 installed beside the stub in every run (notes, pdf, xlsx)',
    );
  });

  it('counts only what Codex lists when Codex runs alone', () => {
    expect(siblingsLine(siblings, [{ agent: 'codex' }], { codex: codexSiblings(siblings) })).toBe(
      'siblings: 2 installed beside the stub in every run (pdf, xlsx); notes left out, as Codex does not list it',
    );
  });

  it('counts each agent apart when both run', () => {
    expect(
      siblingsLine(siblings, [{ agent: 'claude' }, { agent: 'codex' }], { codex: codexSiblings(siblings) }),
    ).toBe(
      'siblings: 3 installed beside the stub in every claude run (notes, pdf, xlsx), 2 in every Codex run (notes left out, as Codex does not list it)',
    );
  });

  it('says nothing of Codex when it lists them all', () => {
    expect(
      siblingsLine([listed('pdf')], [{ agent: 'claude' }, { agent: 'codex' }], {
        codex: codexSiblings([listed('pdf')]),
      }),
    ).toBe('siblings: 1 installed beside the stub in every run (pdf)');
  });
});
