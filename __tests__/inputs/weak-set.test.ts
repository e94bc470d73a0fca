import { describe, expect, it } from 'vitest';
import { loadEvalSet } from '../../src/inputs/files.js';
import type { EvalItem, EvalSet } from '../../src/inputs/types.js';
import { isContextual, isHoldout, sessionCue, weakSetFindings } from '../../src/inputs/weak-set.js';
import { FIXTURES } from './input-errors.js';

const POSITIVES = [
  'turn the pull requests merged since v2.3 into release notes',
  'what shipped this sprint? write it up for customers',
  'draft the changelog entry for version 3.0',
  'summarise the merged features for the announcement',
  'prepare release notes for the mobile app',
  'list the fixes that went out in the last deploy for our customers',
  'write the "what is new" section for the newsletter',
  'collect the merged pull requests into a customer update',
];
const NEAR_NEGATIVES = [
  'review the pull request 412 and leave comments', // shares "pull", "request"
  'write a commit message for my staged changes',
  'explain this stack trace',
  'rename the branch feature/login',
  'fix the failing test in utils',
  'what does this regex match?',
  'bump the version in package.json', // shares "version"
  'translate the README into German',
];

let counter = 0;
function item(query: string, shouldTrigger: boolean, extra: Record<string, unknown> = {}): EvalItem {
  counter++;
  return { id: `q${counter}`, query, shouldTrigger, extra };
}

function set(items: EvalItem[]): EvalSet {
  return { file: 'set.json', format: 'skill-creator-json', items };
}

/** 8 + 8 with near misses and a two-sided holdout: nothing to say. */
function strongSet(): EvalItem[] {
  return [
    ...POSITIVES.map((q, i) => item(q, true, i < 3 ? { split: 'holdout' } : {})),
    ...NEAR_NEGATIVES.map((q, i) => item(q, false, i < 3 ? { split: 'holdout' } : {})),
  ];
}

describe('weakSetFindings', () => {
  it('has nothing to say about a set that follows the guidance', () => {
    expect(weakSetFindings(set(strongSet()))).toEqual([]);
  });

  it('flags fewer than 8 positives and fewer than 8 negatives, with counts and what to add', () => {
    // Drops positives and negatives past the three held out of each, so the holdout stays whole.
    const items = strongSet().filter((i, n) => (i.shouldTrigger ? n < 6 : n < 13));
    const findings = weakSetFindings(set(items));
    expect(findings.map((f) => f.code)).toEqual(['few-positives', 'few-negatives']);
    expect(findings[0]?.message).toMatch(/^6 prompt\(s\) should trigger/);
    expect(findings[0]?.fix).toBe('add 2 or more realistic prompts that should load the skill');
    expect(findings[1]?.message).toMatch(/^5 prompt\(s\) should not trigger/);
    expect(findings.every((f) => f.level === 'warn')).toBe(true);
  });

  it('flags a set whose negatives share no meaningful word with any positive', () => {
    const far = [
      'explain this stack trace',
      'what time is it in Tokyo?',
      'fix the failing test in utils',
      'rename the branch login-page',
      'what does this regex match?',
      'translate the README into German',
      'sort these numbers',
      'how do I center a div?',
    ];
    const items = [
      ...POSITIVES.map((q, i) => item(q, true, i < 3 ? { split: 'holdout' } : {})),
      ...far.map((q, i) => item(q, false, i < 3 ? { split: 'holdout' } : {})),
    ];
    const findings = weakSetFindings(set(items));
    expect(findings.map((f) => f.code)).toEqual(['no-near-miss']);
    expect(findings[0]?.message).toContain(
      'none of the 8 negative prompt(s) shares a word with the positives',
    );
    expect(findings[0]?.fix).toContain('near misses');
  });

  it('counts one shared meaningful word as a near miss, plural or not', () => {
    const items = [
      item('prepare release notes for the app', true, { split: 'holdout' }),
      item('tag the releases in git', false, { split: 'holdout' }), // "releases" ~ "release"
    ];
    const codes = weakSetFindings(set(items)).map((f) => f.code);
    expect(codes).not.toContain('no-near-miss');
  });

  it('does not count stop words or words under 4 letters as shared', () => {
    const items = [
      item('please write the PDF notes for this app', true, { split: 'holdout' }),
      // shares only "please", "write", "this" (stop words) and "pdf", "app" (short)
      item('please write this PDF app icon', false, { split: 'holdout' }),
    ];
    expect(weakSetFindings(set(items)).map((f) => f.code)).toContain('no-near-miss');
  });

  it('flags a set with no holdout', () => {
    const items = strongSet().map((i) => ({ ...i, extra: {} }));
    const findings = weakSetFindings(set(items));
    expect(findings.map((f) => f.code)).toEqual(['no-holdout']);
    expect(findings[0]?.fix).toContain('split: holdout');
  });

  it('flags a holdout that holds only one side', () => {
    const items = strongSet().map((i) => (i.shouldTrigger ? i : { ...i, extra: {} }));
    const findings = weakSetFindings(set(items));
    expect(findings.map((f) => f.code)).toEqual(['one-sided-holdout']);
    expect(findings[0]?.message).toContain('are all positives');
    expect(findings[0]?.fix).toBe('hold out negatives too');
  });

  it('flags a class with fewer than 3 held-out queries, naming each thin class', () => {
    // Positives keep 2 held out (of q1..q3, the first loses its split); negatives keep 1.
    const items = strongSet().map((i, n) => (n === 0 || n === 8 || n === 9 ? { ...i, extra: {} } : i));
    const findings = weakSetFindings(set(items));
    expect(findings.map((f) => f.code)).toEqual(['small-holdout']);
    expect(findings[0]?.message).toMatch(
      /^only 2 held-out positives and 1 held-out negative: with fewer than 3/,
    );
    expect(findings[0]?.fix).toBe('hold out at least 3 positives and negatives (about 40% of each class)');
  });

  it('counts 3 held out as enough: only the class with 2 is named', () => {
    const items = strongSet().map((i, n) => (n === 8 ? { ...i, extra: {} } : i));
    expect(weakSetFindings(set(items)).map((f) => f.code)).toEqual(['small-holdout']);
    expect(weakSetFindings(set(items))[0]?.message).toMatch(/^only 2 held-out negatives:/);
    expect(weakSetFindings(set(strongSet()))).toEqual([]);
  });

  it('hints at positives that presuppose a session when none is marked needs_context', () => {
    const items = strongSet();
    items[3] = { ...(items[3] as EvalItem), query: 'dump the state of this refactor into the changelog' };
    items[5] = { ...(items[5] as EvalItem), query: 'write up what we did for the release notes' };
    // A negative with a cue is not a hint: the limit is about positives missing their material.
    items[12] = { ...(items[12] as EvalItem), query: 'explain the stack trace above' };
    const findings = weakSetFindings(set(items));
    expect(findings.map((f) => f.code)).toEqual(['presupposes-session']);
    expect(findings[0]?.message).toMatch(
      /^2 positive prompt\(s\) read like they presuppose an earlier session: q\d+ \("this refactor"\), q\d+ \("what we did"\)\. claude -p starts every run from nothing/,
    );
    expect(findings[0]?.fix).toContain('mark them needs_context: true');
    expect(findings[0]?.level).toBe('warn');
  });

  it('says nothing of cues once the set marks any prompt needs_context', () => {
    const items = strongSet();
    items[3] = { ...(items[3] as EvalItem), query: 'dump the state of this refactor into the changelog' };
    items[5] = { ...(items[5] as EvalItem), query: 'write up what we did', extra: { needs_context: true } };
    expect(weakSetFindings(set(items))).toEqual([]);
  });
});

describe('sessionCue', () => {
  it.each([
    ['dump the state of this refactor', 'this refactor'],
    ['summarise the session for the changelog', 'the session'],
    ['write up what we did today', 'what we did'],
    ['turn the notes above into a release post', 'above'],
    ["we've just merged it, write the notes", "we've just"],
    ['pick up where we left off', 'where we left off'],
    ['list what changed so far', 'so far'],
  ])('%s → %s', (query, cue) => {
    expect(sessionCue(query)).toBe(cue);
  });

  it.each([
    'draft the changelog entry for version 3.0',
    'I just want release notes for v2',
    'can you just write the release notes',
    'summarise the merged features for the announcement',
  ])('no cue in %s', (query) => {
    expect(sessionCue(query)).toBeUndefined();
  });
});

describe('isContextual', () => {
  it.each([
    [{ needs_context: true }, true],
    [{ needs_context: false }, false],
    [{ needs_context: 'yes' }, true], // a CSV column is text
    [{ needs_context: '' }, false],
    [{ metadata: { needs_context: true } }, true], // an EVAL.yaml test's metadata
    [{}, false],
  ])('%j → %s', (extra, expected) => {
    expect(isContextual(item('x', true, extra))).toBe(expected);
  });
});

describe('isHoldout', () => {
  it.each([
    [{ split: 'holdout' }, true],
    [{ split: 'Test' }, true],
    [{ split: ' validation ' }, true],
    [{ split: 'train' }, false],
    [{ holdout: true }, true],
    [{ holdout: 'yes' }, true], // a CSV column is text
    [{ holdout: 'no' }, false],
    [{ holdout: false }, false],
    [{ metadata: { split: 'holdout' } }, true],
    [{}, false],
  ])('%j → %s', (extra, expected) => {
    expect(isHoldout(item('x', true, extra))).toBe(expected);
  });

  it('sees the split field of an EVAL.yaml test', async () => {
    const loaded = await loadEvalSet(`${FIXTURES}/evals/good.eval.yaml`, 'release-notes');
    expect(loaded.items.filter(isHoldout).map((i) => i.id)).toEqual(['4']);
  });
});
