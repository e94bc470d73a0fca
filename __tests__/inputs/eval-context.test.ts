import { describe, expect, it } from 'vitest';
import { InputErrors } from '../../src/errors.js';
import { parseEvalSet } from '../../src/inputs/eval-set.js';

/**
 * An eval-set entry's own `context` (docs/context.md, "A context per entry"), in each format: a
 * file (kept as written, read later) or the turns inline; never left in the fields a report carries;
 * a bad one refused with the file, the entry and the fix.
 */
const TURNS = [
  { role: 'user', content: 'The deploy broke after the rename.' },
  { role: 'assistant', content: 'Fixed deploy.sh; it sourced the old env file.' },
];

function refusal(text: string, file: string): string {
  try {
    parseEvalSet(text, file, 'handoff');
  } catch (error) {
    expect(error).toBeInstanceOf(InputErrors);
    return (error as InputErrors).message;
  }
  throw new Error('expected a refusal');
}

describe('context in skill-creator JSON', () => {
  it('reads a file path and inline turns, and takes the field out of the extra fields', () => {
    const set = parseEvalSet(
      JSON.stringify([
        { query: 'write the handoff', should_trigger: true, context: 'contexts/deploy.json', note: 'n' },
        { query: 'now hand it over', should_trigger: true, context: TURNS },
        { query: 'what does this regex match', should_trigger: false },
      ]),
      'evals.json',
      'handoff',
    );
    expect(set.items.map((i) => i.context)).toEqual([
      { file: 'contexts/deploy.json' },
      { turns: TURNS },
      undefined,
    ]);
    expect(set.items.map((i) => i.extra)).toEqual([{ note: 'n' }, {}, {}]);
  });

  it('refuses a bad context with the file, the entry, the turn and the fix', () => {
    const message = refusal(
      JSON.stringify(
        [
          { query: 'a', should_trigger: true, context: 42 },
          { query: 'b', should_trigger: true, context: [{ role: 'user', content: 'only a question' }] },
          { query: 'c', should_trigger: false, context: [{ role: 'robot', content: 'x' }] },
          { query: 'd', should_trigger: false, context: '' },
        ],
        null,
        2,
      ),
      'evals.json',
    );
    expect(message).toContain(
      'evals.json:line 2 (entry #1): context must be a file path or a list of turns, got number 42. Fix: give "context" the path',
    );
    expect(message).toContain(
      'evals.json:line 7 (entry #2, context, turn #1): ends the context with a user turn; the query is the next user message. Fix: end the context',
    );
    expect(message).toContain('(entry #3, context, turn #1): has the role the string "robot"');
    expect(message).toContain('(entry #4): context is empty');
  });
});

describe('context in AgentV EVAL.yaml', () => {
  it('reads a path or inline turns on the test', () => {
    const yaml = [
      'tests:',
      '  - id: deploy',
      '    input: write the handoff',
      '    context: contexts/deploy.json',
      '    assertions: [{type: skill-trigger, skill: handoff, should_trigger: true}]',
      '  - id: inline',
      '    input: what does this regex match',
      '    context:',
      '      - {role: user, content: "The deploy broke after the rename."}',
      '      - {role: assistant, content: "Fixed deploy.sh; it sourced the old env file."}',
      '    assertions: [{type: skill-trigger, skill: handoff, should_trigger: false}]',
    ].join('\n');
    const set = parseEvalSet(yaml, 'EVAL.yaml', 'handoff');
    expect(set.items.map((i) => [i.id, i.context])).toEqual([
      ['deploy', { file: 'contexts/deploy.json' }],
      ['inline', { turns: TURNS }],
    ]);
    expect(set.items.every((i) => !('context' in i.extra))).toBe(true);
  });
});

describe('context in CSV', () => {
  it('reads a path, inline turns as JSON, and an empty cell as none', () => {
    const json = JSON.stringify(TURNS).replace(/"/g, '""');
    const csv = [
      'id,should_trigger,prompt,Context',
      'a,true,write the handoff,contexts/deploy.json',
      `b,true,now hand it over,"${json}"`,
      'c,false,what does this regex match,',
    ].join('\n');
    const set = parseEvalSet(csv, 'evals.csv', 'handoff');
    expect(set.items.map((i) => i.context)).toEqual([
      { file: 'contexts/deploy.json' },
      { turns: TURNS },
      undefined,
    ]);
    expect(set.items.map((i) => i.extra)).toEqual([{}, {}, {}]);
  });

  it('refuses a cell that starts as JSON and is not', () => {
    const csv = [
      'id,should_trigger,prompt,context',
      'a,true,write it,"[{""role"": ""user"""',
      'b,false,no,',
    ].join('\n');
    expect(refusal(csv, 'evals.csv')).toContain(
      'evals.csv:line 2 (entry #1, id "a"): context starts with "[" but is not a JSON list of turns',
    );
  });
});
