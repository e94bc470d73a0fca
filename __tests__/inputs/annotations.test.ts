import { describe, expect, it } from 'vitest';
import { heldOut, needsContext } from '../../src/inputs/annotations.js';
import { parseEvalSet } from '../../src/inputs/eval-set.js';
import { defectsOf } from './input-errors.js';

const SKILL = 'release-notes';

/** What the subsets read of each loaded item: [id, needs_context, held out]. */
function annotations(text: string, file: string): [string, boolean, boolean][] {
  return parseEvalSet(text, file, SKILL).items.map((i) => [i.id, needsContext(i.extra), heldOut(i.extra)]);
}

describe('needs_context and split in skill-creator JSON', () => {
  const json = (entries: object[]) => JSON.stringify(entries, null, 2);

  it('reads both annotations as fields, carried in extra as written', () => {
    const text = json([
      { id: 'a', query: 'dump the state of this refactor', should_trigger: true, needs_context: true },
      { id: 'b', query: 'write release notes for v2', should_trigger: true, split: 'holdout' },
      { id: 'c', query: 'fix the failing test', should_trigger: false, needs_context: false, split: 'train' },
    ]);
    expect(annotations(text, 'set.json')).toEqual([
      ['a', true, false],
      ['b', false, true],
      ['c', false, false],
    ]);
    expect(parseEvalSet(text, 'set.json', SKILL).items[2]?.extra).toEqual({
      needs_context: false,
      split: 'train',
    });
  });

  it('refuses a needs_context or split that is not what it says, naming the entry and the fix', async () => {
    const text = json([
      { id: 'a', query: 'one', should_trigger: true, needs_context: 'true' },
      { id: 'b', query: 'two', should_trigger: true, needs_context: 1 },
      { id: 'c', query: 'three', should_trigger: false, split: 'holdotu' },
      { id: 'd', query: 'four', should_trigger: false, holdout: 'yes' },
    ]);
    const errors = await defectsOf(() => parseEvalSet(text, 'set.json', SKILL));
    expect(errors.map((e) => e.message)).toEqual([
      'set.json:line 2 (entry #1, id "a"): needs_context is the string "true", not a boolean. Fix: write true without quotes',
      'set.json:line 8 (entry #2, id "b"): needs_context must be true or false, got number 1. Fix: write true or false, without quotes',
      'set.json:line 14 (entry #3, id "c"): split must be train or holdout, got the string "holdotu". Fix: write split: holdout for a query kept out of tuning, or leave it out (train is the default)',
      'set.json:line 20 (entry #4, id "d"): holdout is the string "yes", not a boolean. Fix: write true without quotes',
    ]);
  });
});

describe('needs_context and split in an AgentV EVAL.yaml', () => {
  const test = (id: string, extra: string, trigger = true) =>
    `  - id: ${id}\n    input: prompt ${id}\n${extra}    assertions:\n      - type: skill-trigger\n        skill: release-notes\n        should_trigger: ${trigger}\n`;

  it('reads them on the test or under its metadata', () => {
    const text = `tests:\n${[
      test('a', '    needs_context: true\n'),
      test('b', '    metadata:\n      needs_context: true\n      split: holdout\n'),
      test('c', '    split: holdout\n', false),
      test('d', '', false),
    ].join('')}`;
    expect(annotations(text, 'EVAL.yaml')).toEqual([
      ['a', true, false],
      ['b', true, true],
      ['c', false, true],
      ['d', false, false],
    ]);
  });

  it('refuses a quoted boolean or an unknown split, on the test and under metadata', async () => {
    const text = `tests:\n${[
      test('a', '    needs_context: "yes"\n'),
      test('b', '    metadata:\n      split: dev\n', false),
    ].join('')}`;
    const errors = await defectsOf(() => parseEvalSet(text, 'EVAL.yaml', SKILL));
    expect(errors.map((e) => e.message)).toEqual([
      'EVAL.yaml:line 2 (entry #1, id "a"): needs_context is the string "yes", not a boolean. Fix: write true without quotes',
      'EVAL.yaml:line 9 (entry #2, id "b"): metadata.split must be train or holdout, got the string "dev". Fix: write metadata.split: holdout for a query kept out of tuning, or leave it out (train is the default)',
    ]);
  });
});

describe('needs_context and split in a CSV', () => {
  it('reads them as columns: yes/no words, an empty cell is unset', () => {
    const text = [
      'id,should_trigger,prompt,needs_context,split',
      'a,true,dump the state of this refactor,yes,',
      'b,true,write release notes for v2,,holdout',
      'c,false,fix the failing test,0,train',
      'd,false,rename the branch,true,Holdout',
    ].join('\n');
    expect(annotations(text, 'set.csv')).toEqual([
      ['a', true, false],
      ['b', false, true],
      ['c', false, false],
      ['d', true, true],
    ]);
  });

  it('matches the column names case-insensitively, as the rest of the header', () => {
    const text = [
      'id,should_trigger,prompt,Needs_Context,SPLIT',
      'a,true,one,yes,holdout',
      'b,false,two,,',
    ].join('\n');
    expect(annotations(text, 'set.csv')).toEqual([
      ['a', true, true],
      ['b', false, false],
    ]);
  });

  it('refuses a cell that is no yes/no word or no split, by line', async () => {
    const text = [
      'id,should_trigger,prompt,needs_context,split',
      'a,true,one,maybe,',
      'b,false,two,,later',
    ].join('\n');
    const errors = await defectsOf(() => parseEvalSet(text, 'set.csv', SKILL));
    expect(errors.map((e) => e.message)).toEqual([
      'set.csv:line 2 (entry #1, id "a"): needs_context must be true or false, got the string "maybe". Fix: write true or false (yes/no and 1/0 work too), or leave the cell empty',
      'set.csv:line 3 (entry #2, id "b"): split must be train or holdout, got the string "later". Fix: write split: holdout for a query kept out of tuning, or leave it out (train is the default)',
    ]);
  });
});
