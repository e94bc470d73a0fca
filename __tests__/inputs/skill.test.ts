import { describe, expect, it } from 'vitest';
import { loadSkill } from '../../src/inputs/files.js';
import { parseSkill } from '../../src/inputs/skill.js';
import {
  DESCRIPTION_MAX_CHARS,
  specLengthWarning,
  validateDescription,
} from '../../src/inputs/skill-fields.js';
import { defectOf, defectsOf, FIXTURES } from './input-errors.js';

const SKILLS = `${FIXTURES}/skills`;
const skillFile = (name: string) => `${SKILLS}/${name}/SKILL.md`;

describe('loadSkill: a valid SKILL.md', () => {
  it('reads name, description, when_to_use and the description line', async () => {
    const skill = await loadSkill(`${SKILLS}/release-notes`);
    expect(skill).toEqual({
      dir: `${SKILLS}/release-notes`,
      file: skillFile('release-notes'),
      name: 'release-notes',
      description:
        'Turns merged pull requests into customer-facing release notes. Use when the user asks what shipped, or for a changelog entry.',
      descriptionLine: 3,
      whenToUse: 'The user mentions a version tag, a sprint, or a changelog.',
      fileText: expect.stringContaining('name: release-notes'),
      emulatedListing:
        'Turns merged pull requests into customer-facing release notes. Use when the user asks what shipped, or for a changelog entry. - The user mentions a version tag, a sprint, or a changelog.',
      authoredListing:
        'Turns merged pull requests into customer-facing release notes. Use when the user asks what shipped, or for a changelog entry. - The user mentions a version tag, a sprint, or a changelog.',
      listingWarnings: [],
      warnings: [],
    });
  });

  it('accepts the path of the SKILL.md itself', async () => {
    const skill = await loadSkill(skillFile('release-notes'));
    expect(skill.dir).toBe(`${SKILLS}/release-notes`);
    expect(skill.name).toBe('release-notes');
  });

  it('reads a file with a BOM and CRLF line ends, and folds a >- block into one line', async () => {
    const skill = await loadSkill(`${SKILLS}/crlf-bom`);
    expect(skill.description).toBe('Turns merged pull requests into release notes.');
    expect(skill.descriptionLine).toBe(3);
  });

  it('takes the folder name when the frontmatter has no name', () => {
    const skill = parseSkill('---\ndescription: Writes release notes.\n---\n', {
      dir: '/repo/.claude/skills/notes-writer',
      file: '/repo/.claude/skills/notes-writer/SKILL.md',
    });
    expect(skill.name).toBe('notes-writer');
    expect(skill.warnings).toEqual([]);
  });

  it('applies a merge key (<<: *anchor) as Claude Code does: the description it carries is the description', () => {
    const skill = parseSkill(
      '---\nshared: &shared\n  description: Writes release notes.\nname: a\n<<: *shared\n---\n',
      { dir: 'a', file: 'a/SKILL.md' },
    );
    expect(skill.description).toBe('Writes release notes.');
    expect(skill.emulatedListing).toBe('Writes release notes.');
  });

  it('trims the description (a | block leaves a trailing newline the listing never shows)', () => {
    const skill = parseSkill('---\nname: a\ndescription: |\n  Writes release notes.\n---\n', {
      dir: 'a',
      file: 'a/SKILL.md',
    });
    expect(skill.description).toBe('Writes release notes.');
  });
});

describe('loadSkill: warnings, not errors', () => {
  it('warns when description + " - " + when_to_use exceeds the 1536-character listing cap', async () => {
    const skill = await loadSkill(`${SKILLS}/long-listing`);
    expect(skill.warnings).toHaveLength(1);
    // 983 + 3 + 559 = 1545: the CLI keeps 1535 characters and "…", so 10 are lost.
    expect(skill.warnings[0]).toContain('listing entry of 1545 characters');
    expect(skill.warnings[0]).toContain('cuts it to 1535 characters and "…"');
    expect(skill.warnings[0]).toContain('never reads the last 10');
    expect(skill.warnings[0]).toContain('shorten when_to_use or the description');
  });

  it('does not warn at exactly 1536 characters', () => {
    const description = 'a'.repeat(1000);
    const whenToUse = 'b'.repeat(1536 - 1000 - 3);
    const skill = parseSkill(`---\nname: x\ndescription: ${description}\nwhen_to_use: ${whenToUse}\n---\n`, {
      dir: 'x',
      file: 'x/SKILL.md',
    });
    expect(skill.warnings).toEqual([]);
  });

  it('warns when name differs from the folder name, and uses the frontmatter name', async () => {
    const skill = await loadSkill(`${SKILLS}/renamed`);
    expect(skill.name).toBe('changelog-writer');
    expect(skill.warnings).toHaveLength(1);
    expect(skill.warnings[0]).toContain('name "changelog-writer" differs from the folder name "renamed"');
  });

  it('warns that disable-model-invocation keeps Claude from loading the skill on its own', async () => {
    const skill = await loadSkill(`${SKILLS}/disabled`);
    expect(skill.warnings).toEqual([expect.stringContaining('disable-model-invocation: true')]);
  });

  it('loads an unquoted ": " inside a value as Claude Code does, with a warning naming the line', async () => {
    const skill = await loadSkill(`${SKILLS}/colon-value`);
    expect(skill.description).toBe('Summarise: write HANDOFF.md now, before the session ends.');
    expect(skill.warnings).toEqual([expect.stringMatching(/^frontmatter line\(s\) 3 are not valid YAML/)]);
  });
});

describe('loadSkill: defects', () => {
  it('a folder that does not exist', async () => {
    const e = await defectOf(() => loadSkill(`${SKILLS}/nope`));
    expect(e.location).toEqual({ file: `${SKILLS}/nope` });
    expect(e.problem).toBe('the skill folder does not exist');
    expect(e.fix).toContain('pass the folder that holds SKILL.md');
  });

  it('a folder without SKILL.md', async () => {
    const e = await defectOf(() => loadSkill(`${SKILLS}/empty-folder`));
    expect(e.message).toBe(
      `${SKILLS}/empty-folder: has no SKILL.md. Fix: pass the folder that holds SKILL.md, or create ${SKILLS}/empty-folder/SKILL.md with name and description frontmatter`,
    );
  });

  it('a skill.md in the wrong case', async () => {
    const e = await defectOf(() => loadSkill(`${SKILLS}/lowercase-file`));
    expect(e.problem).toBe('has skill.md but no SKILL.md');
    expect(e.fix).toBe('rename skill.md to SKILL.md (the name is case-sensitive)');
  });

  it('a file passed instead of a folder', async () => {
    const e = await defectOf(() => loadSkill(`${FIXTURES}/evals/good.json`));
    expect(e.problem).toBe('is a file, not a skill folder');
  });

  it('no frontmatter', async () => {
    const e = await defectOf(() => loadSkill(`${SKILLS}/no-frontmatter`));
    expect(e.location).toEqual({ file: skillFile('no-frontmatter'), line: 1 });
    expect(e.problem).toContain('has no YAML frontmatter');
    expect(e.fix).toContain('start the file with ---');
  });

  it('an unterminated frontmatter', async () => {
    const e = await defectOf(() => loadSkill(`${SKILLS}/unterminated`));
    expect(e.message).toBe(
      `${skillFile('unterminated')}:line 1: the frontmatter opened by --- on line 1 is never closed. Fix: add a line holding only --- after the last frontmatter key`,
    );
  });

  it('a YAML error, at its line in SKILL.md (not in the frontmatter)', async () => {
    const e = await defectOf(() => loadSkill(`${SKILLS}/bad-yaml`));
    expect(e.location).toEqual({ file: skillFile('bad-yaml'), line: 4 });
    expect(e.problem).toBe('the frontmatter is not valid YAML: Map keys must be unique');
    expect(e.fix).toBe('keep only one of the repeated keys');
  });

  it('an unclosed quote, at the line that opened it', async () => {
    const e = await defectOf(() => loadSkill(`${SKILLS}/unclosed-quote`));
    expect(e.location.line).toBe(3);
    expect(e.problem).toContain('Missing closing "quote');
    expect(e.fix).toContain('close the quote');
  });

  it('a frontmatter that is not a mapping', async () => {
    const e = await defectOf(() => loadSkill(`${SKILLS}/not-mapping`));
    expect(e.location.line).toBe(2);
    expect(e.problem).toBe('the frontmatter must be a mapping of keys (name:, description:), got a list');
  });

  it('a missing description, pointing at a key spelled in another case', async () => {
    const e = await defectOf(() => loadSkill(`${SKILLS}/no-description`));
    expect(e.location).toEqual({ file: skillFile('no-description'), line: 3 });
    expect(e.problem).toContain('has no description');
    expect(e.fix).toBe('rename the key "Description" to "description" (keys are case-sensitive)');
  });

  it('an empty description', async () => {
    const e = await defectOf(() => loadSkill(`${SKILLS}/empty-description`));
    expect(e.location).toEqual({ file: skillFile('empty-description'), line: 3 });
    expect(e.problem).toBe('description is empty');
  });

  it('a description that is not a string', async () => {
    const e = await defectOf(() => loadSkill(`${SKILLS}/description-list`));
    expect(e.location.line).toBe(3);
    expect(e.problem).toBe('description must be text, got a list');
  });

  it('a description over 1024 characters is a warning (Claude Code lists up to 1536), with how much to cut', async () => {
    const skill = await loadSkill(`${SKILLS}/too-long`);
    expect(skill.description).toHaveLength(1106);
    expect(skill.warnings).toEqual([
      'description is 1106 characters, over the 1024 the Agent Skills spec allows: Claude Code lists up to 1536 and is measured as it lists it, but other agents and validators may refuse the skill; shorten it by at least 82 characters to be safe',
    ]);
  });

  it('a description with angle brackets, quoting where', async () => {
    const e = await defectOf(() => loadSkill(`${SKILLS}/angle-brackets`));
    expect(e.location.line).toBe(3);
    expect(e.problem).toContain('description contains "<" and ">" (first at character 26');
    expect(e.problem).toContain('<version>');
    expect(e.fix).toContain('remove the angle brackets');
  });

  it('an invalid name, with a usable suggestion', async () => {
    const e = await defectOf(() => loadSkill(`${SKILLS}/bad-name`));
    expect(e.location).toEqual({ file: skillFile('bad-name'), line: 2 });
    expect(e.problem).toBe(
      'name "Release Notes" contains "R"; only lowercase letters, digits and hyphens are allowed',
    );
    expect(e.fix).toContain('e.g. "release-notes"');
  });

  it('no name and a folder name that cannot be one', async () => {
    const e = await defectOf(() => loadSkill(`${SKILLS}/Bad_Folder`));
    expect(e.problem).toContain('the frontmatter has no name, and the folder name "Bad_Folder"');
    expect(e.fix).toContain('add "name: bad-folder"');
  });

  it.each([
    ['-lead', 'starts or ends with a hyphen'],
    ['a'.repeat(65), 'is 65 characters, over 64'],
    ['pdf_tools', 'contains "_"'],
  ])('rejects the name %j', (name, why) => {
    const text = `---\nname: ${name}\ndescription: Writes release notes.\n---\n`;
    expect(() => parseSkill(text, { dir: 'x', file: 'x/SKILL.md' })).toThrow(why);
  });

  it('accepts a 64-character name', () => {
    const name = 'a'.repeat(64);
    const skill = parseSkill(`---\nname: ${name}\ndescription: Writes release notes.\n---\n`, {
      dir: name,
      file: `${name}/SKILL.md`,
    });
    expect(skill.name).toBe(name);
  });

  it('when_to_use that is not a string', async () => {
    const e = await defectOf(() => loadSkill(`${SKILLS}/when-to-use-list`));
    expect(e.location).toEqual({ file: skillFile('when-to-use-list'), line: 4 });
    expect(e.problem).toBe('when_to_use must be text, got a list');
  });

  it('reports every defect of a file at once', async () => {
    const errors = await defectsOf(() => loadSkill(`${SKILLS}/several-defects`));
    expect(errors.map((e) => [e.location.line, e.problem.split(' ').slice(0, 2).join(' ')])).toEqual([
      [3, 'description contains'],
      [4, 'when_to_use must'],
      [2, 'name "several--defects"'],
    ]);
    expect(errors[2]?.problem).toContain('contains two hyphens in a row');
  });
});

describe('validateDescription (--description)', () => {
  const source = { file: '--description' };

  it('returns the text trimmed', () => {
    expect(validateDescription('  Writes release notes.\n', source)).toBe('Writes release notes.');
  });

  it('accepts 1024 characters silently and 1025 with a spec warning (no longer a defect)', () => {
    expect(validateDescription('a'.repeat(DESCRIPTION_MAX_CHARS), source)).toHaveLength(1024);
    expect(specLengthWarning('a'.repeat(DESCRIPTION_MAX_CHARS))).toBeUndefined();
    expect(validateDescription('a'.repeat(1025), source)).toHaveLength(1025);
    expect(specLengthWarning('a'.repeat(1025))).toContain('description is 1025 characters, over the 1024');
  });

  it('counts characters, not UTF-16 units (1024 emoji are within the limit)', () => {
    const text = '📄'.repeat(1024);
    expect(text.length).toBe(2048);
    expect(validateDescription(text, source)).toBe(text);
  });

  it('rejects an empty text and angle brackets, naming the source', async () => {
    expect((await defectOf(() => validateDescription('   ', source))).message).toBe(
      '--description: description is empty. Fix: write what the skill does and when to use it',
    );
    const e = await defectOf(() => validateDescription('Use for files > 10 MB', source));
    expect(e.location).toEqual(source);
    expect(e.problem).toContain('description contains ">"');
  });
});
