import { describe, expect, it } from 'vitest';
import { planSkill, skillCandidates } from '../../src/action/changed-skills.js';
import { parseEvent } from '../../src/action/context.js';
import { globToRegExp, skillMatcher } from '../../src/action/skill-glob.js';
import { UsageError } from '../../src/errors.js';
import { evalCandidates } from '../../src/inputs/discovery.js';
import type { GitChange } from '../../src/system/git.js';
import { pullRequestPayload, pushPayload } from './harness.js';

const ROOT = '/repo';
const ALL = ['**/SKILL.md'];

function skill(name: string, description: string, body = 'Body.', extra = ''): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n${body}\n`;
}

describe('the skills globs', () => {
  it.each([
    ['**/SKILL.md', 'SKILL.md', true],
    ['**/SKILL.md', '.claude/skills/a/SKILL.md', true],
    ['.claude/skills/*/SKILL.md', '.claude/skills/a/SKILL.md', true],
    ['.claude/skills/*/SKILL.md', '.claude/skills/a/b/SKILL.md', false],
    ['skills/**', 'skills/a/b/SKILL.md', true],
    ['{a,b}/SKILL.md', 'b/SKILL.md', true],
    ['{a,b}/SKILL.md', 'c/SKILL.md', false],
    ['s?/SKILL.md', 's1/SKILL.md', true],
    ['a.b/SKILL.md', 'axb/SKILL.md', false],
  ])('%s matches %s: %s', (glob, file, expected) => {
    expect(globToRegExp(glob).test(file)).toBe(expected);
  });

  it('excludes with !, later lines winning, and only ever matches files named SKILL.md', () => {
    const match = skillMatcher(['**/SKILL.md', '!wip/**', 'wip/keep/SKILL.md']);
    expect(match('a/SKILL.md')).toBe(true);
    expect(match('wip/x/SKILL.md')).toBe(false);
    expect(match('wip/keep/SKILL.md')).toBe(true);
    expect(skillMatcher(['**'])('a/README.md')).toBe(false);
    expect(skillMatcher(['**'])('a/skill.md')).toBe(false);
  });
});

describe('skillCandidates', () => {
  it('keeps SKILL.md changes, maps renames across the globs, and sorts by path', () => {
    const changes: GitChange[] = [
      { status: 'modified', path: 'README.md' },
      { status: 'modified', path: 'z/SKILL.md' },
      { status: 'added', path: 'new/SKILL.md' },
      { status: 'removed', path: 'gone/SKILL.md' },
      { status: 'renamed', path: 'b/SKILL.md', previousPath: 'a/SKILL.md', similarity: 90 },
      { status: 'renamed', path: 'skills/in/SKILL.md', previousPath: 'outside/SKILL.md', similarity: 100 },
      { status: 'renamed', path: 'outside2/SKILL.md', previousPath: 'skills/out/SKILL.md', similarity: 100 },
      { status: 'copied', path: 'copy/SKILL.md', previousPath: 'z/SKILL.md', similarity: 100 },
      { status: 'type-changed', path: 'link/SKILL.md' },
    ];
    expect(skillCandidates(changes, ALL)).toEqual([
      { path: 'b/SKILL.md', previousPath: 'a/SKILL.md', change: 'renamed' },
      { path: 'copy/SKILL.md', change: 'added' },
      { path: 'gone/SKILL.md', change: 'removed' },
      { path: 'link/SKILL.md', change: 'modified' },
      { path: 'new/SKILL.md', change: 'added' },
      { path: 'outside2/SKILL.md', previousPath: 'skills/out/SKILL.md', change: 'renamed' },
      { path: 'skills/in/SKILL.md', previousPath: 'outside/SKILL.md', change: 'renamed' },
      { path: 'z/SKILL.md', change: 'modified' },
    ]);
    expect(skillCandidates(changes.slice(5, 7), ['skills/**'])).toEqual([
      { path: 'skills/in/SKILL.md', change: 'added' },
      { path: 'skills/out/SKILL.md', change: 'removed' },
    ]);
  });
});

describe('planSkill', () => {
  const file = 'skills/handoff/SKILL.md';

  it('measures a changed description, with the base parsed for the baseline', () => {
    const plan = planSkill(
      ROOT,
      { path: file, change: 'modified' },
      skill('handoff', 'New text.'),
      skill('handoff', 'Old text.'),
    );
    expect(plan).toMatchObject({
      kind: 'measure',
      head: { description: 'New text.' },
      base: { description: 'Old text.' },
    });
  });

  it('skips a body-only edit and says so', () => {
    const plan = planSkill(
      ROOT,
      { path: file, change: 'modified' },
      skill('handoff', 'Same.', 'New body'),
      skill('handoff', 'Same.', 'Old body'),
    );
    expect(plan).toEqual({
      kind: 'skip',
      path: file,
      change: 'modified',
      reason: 'body-only',
      skill: 'handoff',
    });
  });

  it('measures a change of when_to_use (the model reads it in the listing)', () => {
    const plan = planSkill(
      ROOT,
      { path: file, change: 'modified' },
      skill('handoff', 'Same.', 'Body', 'when_to_use: at the end of a session\n'),
      skill('handoff', 'Same.'),
    );
    expect(plan.kind).toBe('measure');
  });

  it('a rename: unchanged listing is skipped, a changed name is measured', () => {
    const renamed = {
      path: 'skills/handoff/SKILL.md',
      previousPath: 'skills/old/SKILL.md',
      change: 'renamed' as const,
    };
    expect(planSkill(ROOT, renamed, skill('handoff', 'Same.'), skill('handoff', 'Same.'))).toMatchObject({
      kind: 'skip',
      reason: 'renamed-unchanged',
    });
    // Without a name the folder names the skill: the listing changes with the folder.
    const noName = (d: string) => `---\ndescription: ${d}\n---\n`;
    expect(planSkill(ROOT, renamed, noName('Same.'), noName('Same.'))).toMatchObject({
      kind: 'measure',
      head: { name: 'handoff' },
      base: { name: 'old' },
    });
  });

  it('an added skill has no base; a removed one is reported', () => {
    expect(
      planSkill(ROOT, { path: file, change: 'added' }, skill('handoff', 'New.'), undefined),
    ).toMatchObject({
      kind: 'measure',
    });
    expect(planSkill(ROOT, { path: file, change: 'removed' }, undefined, skill('handoff', 'Old.'))).toEqual({
      kind: 'skip',
      path: file,
      change: 'removed',
      reason: 'removed',
      skill: 'handoff',
    });
  });

  it('a head that does not parse is an input error with its file and line', () => {
    const plan = planSkill(
      ROOT,
      { path: file, change: 'modified' },
      skill('handoff', 'Use <angle> brackets'),
      skill('handoff', 'Old.'),
    );
    if (plan.kind !== 'invalid') throw new Error(`expected invalid, got ${plan.kind}`);
    expect(plan.errors.errors[0]?.location).toEqual({ file, line: 3 });
  });

  it('a base that does not parse leaves the head measured alone, with the reason', () => {
    const plan = planSkill(
      ROOT,
      { path: file, change: 'modified' },
      skill('handoff', 'Fixed.'),
      '---\nname: [oops\n---\n',
    );
    expect(plan).toMatchObject({
      kind: 'measure',
      baseProblem: expect.stringContaining("the base branch's SKILL.md does not parse"),
    });
    expect(plan).not.toHaveProperty('base');
  });

  it('with every skill measured, an unchanged one is measured too', () => {
    expect(
      planSkill(ROOT, { path: file, change: 'all' }, skill('handoff', 'Same.'), skill('handoff', 'Same.'))
        .kind,
    ).toBe('measure');
  });
});

describe('evalCandidates', () => {
  it('follows the convention inside the skill folder', () => {
    expect(evalCandidates('.claude/skills/handoff/SKILL.md', 'handoff', [])).toEqual([
      '.claude/skills/handoff/evals/evals.json',
      '.claude/skills/handoff/evals.json',
      '.claude/skills/handoff/evals/EVAL.yaml',
      '.claude/skills/handoff/EVAL.yaml',
      '.claude/skills/handoff/evals/evals.csv',
      '.claude/skills/handoff/evals.csv',
    ]);
    expect(evalCandidates('SKILL.md', 'root', [])[1]).toBe('evals.json');
  });

  it('fills {dir} and {name} in the evals input', () => {
    expect(evalCandidates('skills/a/SKILL.md', 'a', ['evals/{name}.json', '{dir}/../shared.yaml'])).toEqual([
      'evals/a.json',
      'skills/shared.yaml',
    ]);
  });
});

describe('parseEvent', () => {
  const sha = (c: string) => c.repeat(40);

  it('reads a pull request, and tells a fork by its head repository', () => {
    const payload = pullRequestPayload({ number: 3, baseSha: sha('a'), headSha: sha('b'), headRef: 'topic' });
    expect(parseEvent('pull_request', payload, undefined)).toEqual({
      kind: 'pull_request',
      name: 'pull_request',
      number: 3,
      baseSha: sha('a'),
      headSha: sha('b'),
      baseRef: 'main',
      fromFork: false,
    });
    const fork = pullRequestPayload({
      number: 3,
      baseSha: sha('a'),
      headSha: sha('b'),
      headRef: 'p',
      fromFork: true,
    });
    expect(parseEvent('pull_request', fork, undefined)).toMatchObject({ fromFork: true });
    const deleted = {
      ...fork,
      pull_request: { ...fork.pull_request, head: { ...fork.pull_request.head, repo: null } },
    };
    expect(parseEvent('pull_request', deleted, undefined)).toMatchObject({ fromFork: true });
  });

  it('reads a push, knows the default branch, and drops an all-zero before', () => {
    expect(parseEvent('push', pushPayload({ before: sha('0'), after: sha('c') }), 'refs/heads/main')).toEqual(
      {
        kind: 'push',
        ref: 'refs/heads/main',
        after: sha('c'),
        onDefaultBranch: true,
        defaultBranch: 'main',
      },
    );
    const branch = parseEvent(
      'push',
      pushPayload({ before: sha('1'), after: sha('c'), ref: 'refs/heads/x' }),
      undefined,
    );
    expect(branch).toMatchObject({ onDefaultBranch: false, before: sha('1') });
  });

  it('refuses a payload of the wrong shape with a message that says where', () => {
    expect(() => parseEvent('pull_request', { pull_request: { number: 'x' } }, undefined)).toThrow(
      UsageError,
    );
    expect(() => parseEvent('pull_request', {}, undefined)).toThrow(/pull_request: /);
  });

  it('treats other events by the branch they run on', () => {
    expect(
      parseEvent('workflow_dispatch', { repository: { default_branch: 'main' } }, 'refs/heads/main'),
    ).toEqual({
      kind: 'other',
      name: 'workflow_dispatch',
      onDefaultBranch: true,
      defaultBranch: 'main',
    });
  });
});
