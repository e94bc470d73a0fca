import { describe, expect, it } from 'vitest';
import { DescriptionEditError, replaceDescription, skillBody } from '../../src/author/skill-file.js';
import { parseSkill } from '../../src/inputs/skill.js';

const WHERE = { dir: '/x/handoff', file: '/x/handoff/SKILL.md' };
const NEW = 'Writes "HANDOFF.md": the #1 note — a résumé. Use when: leaving';

function check(before: string, expectedAfter: string): void {
  const after = replaceDescription(before, NEW);
  expect(after).toBe(expectedAfter);
  expect(parseSkill(after, WHERE).description).toBe(NEW);
}

describe('replaceDescription', () => {
  it('replaces a plain one-line value and nothing else', () => {
    check(
      '---\nname: handoff\ndescription: old text\nlicense: MIT\n---\n\n# body\ndescription: not this\n',
      `---\nname: handoff\ndescription: ${JSON.stringify(NEW)}\nlicense: MIT\n---\n\n# body\ndescription: not this\n`,
    );
  });

  it('replaces a folded block scalar whole, keeping the next key', () => {
    check(
      '---\ndescription: >\n  old folded\n  text\nname: handoff\n---\nbody\n',
      `---\ndescription: ${JSON.stringify(NEW)}\nname: handoff\n---\nbody\n`,
    );
  });

  it('replaces a literal block scalar at the end of the frontmatter', () => {
    check(
      '---\nname: handoff\ndescription: |-\n  a\n  b\n---\nbody\n',
      `---\nname: handoff\ndescription: ${JSON.stringify(NEW)}\n---\nbody\n`,
    );
  });

  it('keeps a comment after a quoted value, CRLF line endings and a BOM', () => {
    check(
      '\uFEFF---\r\nname: handoff\r\ndescription: "old: text"  # keep me\r\n---\r\nbody\r\n',
      `\uFEFF---\r\nname: handoff\r\ndescription: ${JSON.stringify(NEW)}  # keep me\r\n---\r\nbody\r\n`,
    );
  });

  it('replaces a plain value continued over two lines', () => {
    check(
      '---\ndescription: old text\n  continued\nname: handoff\n---\n',
      `---\ndescription: ${JSON.stringify(NEW)}\nname: handoff\n---\n`,
    );
  });

  it('refuses a frontmatter that is not strict YAML, or has no description', () => {
    expect(() => replaceDescription('---\ndescription: a: b: c\n---\n', NEW)).toThrow(DescriptionEditError);
    expect(() => replaceDescription('---\nname: x\n---\n', NEW)).toThrow(DescriptionEditError);
    expect(() => replaceDescription('no frontmatter', NEW)).toThrow(DescriptionEditError);
  });

  it('skillBody is what follows the closing line', () => {
    expect(skillBody('---\nname: x\n---\n# body\n')).toBe('# body\n');
  });
});
