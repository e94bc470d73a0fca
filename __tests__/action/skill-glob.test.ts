import { describe, expect, it } from 'vitest';
import { globToRegExp, skillMatcher } from '../../src/action/skill-glob.js';
import { UsageError } from '../../src/errors.js';

/** The `skills` globs through picomatch: what the hand-written matcher got wrong, and what must not change. */
describe('skill globs', () => {
  it.each([
    // Character classes are classes, not literal brackets.
    ['skills/[ab]/SKILL.md', 'skills/a/SKILL.md', true],
    ['skills/[ab]/SKILL.md', 'skills/c/SKILL.md', false],
    ['skills/[a-c]*/SKILL.md', 'skills/beta/SKILL.md', true],
    ['skills/[^a]*/SKILL.md', 'skills/alpha/SKILL.md', false],
    ['skills/[^a]*/SKILL.md', 'skills/beta/SKILL.md', true],
    // Ranges and extglobs.
    ['v{1..3}/SKILL.md', 'v2/SKILL.md', true],
    ['v{1..3}/SKILL.md', 'v4/SKILL.md', false],
    ['skills/!(wip)/SKILL.md', 'skills/wip/SKILL.md', false],
    ['skills/!(wip)/SKILL.md', 'skills/done/SKILL.md', true],
    ['skills/@(a|b)/SKILL.md', 'skills/b/SKILL.md', true],
    // Unchanged from before: dot folders, ** as zero folders, * within a segment, literal regex characters.
    ['**/SKILL.md', '.claude/skills/a/SKILL.md', true],
    ['**/SKILL.md', 'SKILL.md', true],
    ['.claude/skills/*/SKILL.md', '.claude/skills/a/b/SKILL.md', false],
    ['skills/{x,y}/**', 'skills/y/deep/SKILL.md', true],
    ['a+b/$x/SKILL.md', 'a+b/$x/SKILL.md', true],
    ['a.b/SKILL.md', 'axb/SKILL.md', false],
    // A backslash is never a path separator.
    ['a\\b/SKILL.md', 'a/b/SKILL.md', false],
  ])('%s matches %s: %s', (glob, file, expected) => {
    expect(globToRegExp(glob).test(file)).toBe(expected);
  });

  it.each([
    [
      '{a,b/SKILL.md',
      'the glob "{a,b/SKILL.md" cannot be read: Missing closing: "}" - use "\\\\}" to match literal characters',
    ],
    [
      'skills/[ab/SKILL.md',
      'the glob "skills/[ab/SKILL.md" cannot be read: Missing closing: "]" - use "\\\\]" to match literal characters',
    ],
  ])('an unbalanced %s is an error naming the glob, not closed silently', (glob, message) => {
    expect(() => globToRegExp(glob)).toThrow(UsageError);
    expect(() => globToRegExp(glob)).toThrow(message);
    expect(() => skillMatcher(['**/SKILL.md', `!${glob}`])).toThrow(message);
  });

  it('a leading ! excludes (later lines win) and only SKILL.md files are skills', () => {
    const match = skillMatcher(['**/SKILL.md', '![ab]/**', 'a/keep/SKILL.md', './c/SKILL.md']);
    expect(match('a/x/SKILL.md')).toBe(false);
    expect(match('b/SKILL.md')).toBe(false);
    expect(match('a/keep/SKILL.md')).toBe(true);
    expect(match('c/SKILL.md')).toBe(true);
    expect(match('c/skill.md')).toBe(false);
    expect(skillMatcher(['**'])('x/README.md')).toBe(false);
  });
});
