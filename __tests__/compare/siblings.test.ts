import { describe, expect, it } from 'vitest';
import { siblingSetWarnings } from '../../src/compare/siblings.js';
import type { Report } from '../../src/schemas/report.js';

type Sides = Pick<Report, 'siblings'>;
const names = { base: 'main', cand: 'this PR' };
const hash = (c: string) => c.repeat(64);

/** A report's sibling set: `{ name: hash letter }`, in the order given (the builder sorts by name). */
const withSiblings = (members: Record<string, string>, crossNegatives = false): Sides => ({
  siblings: {
    members: Object.entries(members).map(([name, h]) => ({ name, sha256: hash(h) })),
    crossNegatives,
  },
});

describe('siblingSetWarnings', () => {
  it('says nothing when neither report had siblings, or both had the same set', () => {
    expect(siblingSetWarnings({}, {}, names)).toEqual([]);
    const same = withSiblings({ docx: 'a', pdf: 'b' }, true);
    expect(siblingSetWarnings(same, withSiblings({ docx: 'a', pdf: 'b' }, true), names)).toEqual([]);
  });

  it('does not mind the order of the members', () => {
    expect(
      siblingSetWarnings(withSiblings({ docx: 'a', pdf: 'b' }), withSiblings({ pdf: 'b', docx: 'a' }), names),
    ).toEqual([]);
  });

  it('names each sibling added, removed or rewritten, in one warning, in that order', () => {
    expect(
      siblingSetWarnings(
        withSiblings({ docx: 'a', pdf: 'b', pptx: 'c' }),
        withSiblings({ docx: 'a', pdf: 'e', xlsx: 'd', csv: 'f' }),
        names,
      ),
    ).toEqual([
      {
        code: 'siblings',
        message:
          'the competition changed (sibling skills) from main to this PR: added xlsx, csv; removed pptx; description changed: pdf',
      },
    ]);
  });

  it('names only the kind of change there is', () => {
    const message = (a: Sides, b: Sides) => siblingSetWarnings(a, b, names)[0]?.message;
    expect(message(withSiblings({ pdf: 'a' }), withSiblings({ pdf: 'a', docx: 'b' }))).toBe(
      'the competition changed (sibling skills) from main to this PR: added docx',
    );
    expect(message(withSiblings({ pdf: 'a', docx: 'b' }), withSiblings({ docx: 'b' }))).toBe(
      'the competition changed (sibling skills) from main to this PR: removed pdf',
    );
    expect(message(withSiblings({ pdf: 'a' }), withSiblings({ pdf: 'b' }))).toBe(
      'the competition changed (sibling skills) from main to this PR: description changed: pdf',
    );
  });

  it('counts every sibling as added or removed when one report was measured without siblings', () => {
    expect(siblingSetWarnings({}, withSiblings({ docx: 'a', pdf: 'b' }), names)[0]?.message).toBe(
      'the competition changed (sibling skills) from main to this PR: added docx, pdf',
    );
    expect(siblingSetWarnings(withSiblings({ docx: 'a' }), {}, names)[0]?.message).toBe(
      'the competition changed (sibling skills) from main to this PR: removed docx',
    );
  });

  it('warns about cross-negatives only when the set itself is the same', () => {
    expect(siblingSetWarnings(withSiblings({ pdf: 'a' }), withSiblings({ pdf: 'a' }, true), names)).toEqual([
      { code: 'siblings', message: 'cross-negatives differ: main without, this PR with' },
    ]);
    expect(siblingSetWarnings(withSiblings({ pdf: 'a' }, true), withSiblings({ pdf: 'a' }), names)).toEqual([
      { code: 'siblings', message: 'cross-negatives differ: main with, this PR without' },
    ]);
    // A changed set already says the numbers may differ: one warning, not two.
    const both = siblingSetWarnings(withSiblings({ pdf: 'a' }), withSiblings({ docx: 'a' }, true), names);
    expect(both).toHaveLength(1);
    expect(both[0]?.message).not.toContain('cross-negatives');
  });

  it('reads a missing side as no siblings and no cross-negatives', () => {
    expect(siblingSetWarnings({}, withSiblings({}, true), names)).toEqual([
      { code: 'siblings', message: 'cross-negatives differ: main without, this PR with' },
    ]);
    expect(siblingSetWarnings(withSiblings({}), {}, names)).toEqual([]);
  });

  it('uses the names it is given for the two sides', () => {
    const [w] = siblingSetWarnings(withSiblings({ pdf: 'a' }), withSiblings({}), {
      base: 'baseline',
      cand: 'candidate',
    });
    expect(w?.message).toBe(
      'the competition changed (sibling skills) from baseline to candidate: removed pdf',
    );
  });
});
