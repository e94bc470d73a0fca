import { describe, expect, it } from 'vitest';
import { loadEvalSet } from '../../src/inputs/eval-set.js';
import type { EvalItem, EvalSet } from '../../src/inputs/types.js';
import { isHoldout, weakSetFindings } from '../../src/inputs/weak-set.js';
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
    const items = strongSet().filter((i, n) => (i.shouldTrigger ? n > 1 : n < 13));
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
    [{}, false],
  ])('%j → %s', (extra, expected) => {
    expect(isHoldout(item('x', true, extra))).toBe(expected);
  });

  it('sees the split field of an EVAL.yaml test', async () => {
    const loaded = await loadEvalSet(`${FIXTURES}/evals/good.eval.yaml`, 'release-notes');
    expect(loaded.items.filter(isHoldout).map((i) => i.id)).toEqual(['4']);
  });
});
