import { describe, expect, it } from 'vitest';
import { InputErrors } from '../../src/errors.js';
import { readAgentvYaml } from '../../src/inputs/eval-agentv.js';
import { Problems } from '../../src/inputs/problems.js';

// The AgentV EVAL.yaml reader alone, on inline YAML; eval-set.test.ts tests it through the loader
// with the checks every format shares (duplicates, positives and negatives).
const FILE = 'evals/EVAL.yaml';
const SKILL = 'notes';

/** What the reader returned, or the defects it threw, with the defects it left for the caller. */
function read(text: string, skill = SKILL) {
  const problems = new Problems();
  const warnings: string[] = [];
  try {
    const candidates = readAgentvYaml(text, FILE, skill, problems, warnings);
    return { candidates, problems: problems.errors.map((e) => e.message), warnings };
  } catch (error) {
    if (!(error instanceof InputErrors)) throw error;
    return { candidates: undefined, problems: error.errors.map((e) => e.message), warnings };
  }
}

const trigger = (should: boolean | string = true, skill = SKILL) =>
  `{type: skill-trigger, skill: ${skill}, should_trigger: ${should}}`;
const test = (id: string, input: string, assertions: string) =>
  `  - id: ${id}\n    input: ${input}\n    assertions: [${assertions}]`;
const tests = (...items: string[]) => `tests:\n${items.join('\n')}\n`;

describe('the file as a whole', () => {
  it('reads one test of the skill with its position, line and entry label', () => {
    expect(read(tests(test('a', 'write the notes', trigger())))).toEqual({
      candidates: [
        {
          position: 1,
          location: { file: FILE, line: 2, entry: 'entry #1, id "a"' },
          id: 'a',
          query: 'write the notes',
          shouldTrigger: true,
          extra: {},
        },
      ],
      problems: [],
      warnings: [],
    });
  });

  it('a YAML syntax error is thrown at once, with its line', () => {
    const { candidates, problems } = read('tests:\n  - id: "open\n    input: x\n');
    expect(candidates).toBeUndefined();
    expect(problems).toEqual([
      `${FILE}:line 2: is not valid YAML: Missing closing "quote. Fix: close the quote or bracket that is left open`,
    ]);
  });

  it('a repeated key is refused at its line, as the YAML library refuses it, even inside a merge', () => {
    const twice = `tests:\n  - id: a\n    input: hi\n    input: again\n    assertions: [${trigger()}]\n`;
    expect(read(twice).problems).toEqual([
      `${FILE}:line 4: is not valid YAML: Map keys must be unique. Fix: keep only one of the repeated keys`,
    ]);
    // A merge key brings keys in; only what is written twice in one mapping is a repeat.
    const merged = `defaults: &d\n  input: hi\ntests:\n  - <<: *d\n    id: a\n    assertions: [${trigger()}]\n`;
    expect(read(merged).problems).toEqual([]);
  });

  it('one mapping of 20,000 keys: its one repeat found at its line, by the one-pass check', () => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `    k${i}: v`).join('\n');
    const text = `tests:\n  - id: a\n    input: hi\n${keys}\n    k7: again\n    assertions: [${trigger()}]\n`;
    const problems = read(text).problems;
    expect(problems).toEqual([
      `${FILE}:line 20004: is not valid YAML: Map keys must be unique. Fix: keep only one of the repeated keys`,
    ]);
  });

  it('a mapping without tests names up to five of its keys, or (none)', () => {
    const { problems } = read('name: x\ndescription: y\na: 1\nb: 2\nc: 3\nd: 4\n');
    expect(problems).toEqual([
      `${FILE}:line 1: must be an AgentV EVAL.yaml, a mapping with a "tests:" list; got an object with keys name, description, a, b, c. Fix: write "tests:" and under it one "- id: …, input: …, assertions: [{type: skill-trigger, skill: …, should_trigger: true}]" per prompt; a plain list of {query, should_trigger} belongs in a .json file`,
    ]);
    expect(read('{}\n').problems[0]).toContain('got an object with keys (none).');
  });

  it('a document that is not a mapping says what it is, without keys', () => {
    expect(read('just text\n').problems[0]).toContain('; got the string "just text". Fix:');
    expect(read('').problems[0]).toContain('; got null. Fix:');
  });

  it('tests that is not a list is reported at the line of its key', () => {
    const { candidates, problems } = read('description: x\n\ntests:\n  id: a\n');
    expect(candidates).toBeUndefined();
    expect(problems).toEqual([
      `${FILE}:line 3: "tests" must be a list, got an object. Fix: write each test on its own "- id: …" line under "tests:"`,
    ]);
    expect(read('tests:\n').problems[0]).toContain('"tests" must be a list, got null');
  });

  it('an empty list of tests has none for the skill, and says there are no trigger assertions', () => {
    const { candidates, problems } = read('tests: []\n');
    expect(candidates).toEqual([]);
    expect(problems).toEqual([
      `${FILE}: no test has a trigger assertion naming the skill "notes" (the file has no skill-trigger, skill-used or not-skill-used assertions). Fix: add "{type: skill-trigger, skill: notes, should_trigger: true}" (false for a near-miss) under each test's assertions`,
    ]);
  });

  it('when no test is for the skill, the names found are listed sorted, each quoted and escaped', () => {
    const text = tests(
      test('a', 'x', trigger(true, 'zeta')),
      test('b', 'y', `{type: skill-used, value: "we\\"ird\\nname"}`),
      test('c', 'z', trigger(true, 'alpha')),
    );
    const { candidates, problems } = read(text);
    expect(candidates).toEqual([]);
    expect(problems).toEqual([
      `${FILE}: no test has a trigger assertion naming the skill "notes" (the trigger assertions name: "alpha", "we\\"ird\\nname", "zeta"). Fix: measure one of those skills, or add "{type: skill-trigger, skill: notes, should_trigger: true}" to the tests for this one (names must match exactly)`,
    ]);
  });
});

describe('which tests belong to the skill', () => {
  it('tests of other skills are left out without complaint, even broken ones', () => {
    const text = tests(
      test('mine', 'write the notes', trigger()),
      `  - id: theirs\n    assertions: [${trigger(true, 'other')}]`,
    );
    const { candidates, problems } = read(text);
    expect(candidates?.map((c) => [c.id, c.position])).toEqual([['mine', 1]]);
    expect(problems).toEqual([]);
  });

  it('the name must match exactly', () => {
    expect(read(tests(test('a', 'x', trigger(true, 'Notes')))).candidates).toEqual([]);
  });

  it('should_trigger defaults to true; skill-used is true and not-skill-used false', () => {
    const text = tests(
      test('default', 'a', `{type: skill-trigger, skill: ${SKILL}}`),
      test('used', 'b', `{type: skill-used, value: ${SKILL}}`),
      test('unused', 'c', `{type: not-skill-used, value: ${SKILL}}`),
    );
    expect(read(text).candidates?.map((c) => [c.id, c.shouldTrigger])).toEqual([
      ['default', true],
      ['used', true],
      ['unused', false],
    ]);
  });

  it('skill-used names the skill by value, a list, a {name} mapping, or skill', () => {
    const text = tests(
      test('list', 'a', `{type: skill-used, value: [other, ${SKILL}]}`),
      test('named', 'b', `{type: skill-used, value: {name: ${SKILL}, version: 2}}`),
      test('by-skill', 'c', `{type: not-skill-used, skill: ${SKILL}}`),
      test('pattern', 'd', `{type: skill-used, value: {pattern: "no.*"}}`),
    );
    expect(read(text).candidates?.map((c) => [c.id, c.shouldTrigger])).toEqual([
      ['list', true],
      ['named', true],
      ['by-skill', false],
    ]);
  });

  it('assertions that are rubric text, other types, or a skill-trigger without a skill name do not count', () => {
    const text = tests(
      test(
        'a',
        'x',
        `"mentions the version", {type: contains, value: notes}, {type: skill-trigger, skill: 3}`,
      ),
    );
    expect(read(text).candidates).toEqual([]);
  });

  it('assert works like assertions, and both lists are read', () => {
    const text = `tests:\n  - id: a\n    input: x\n    assert: [${trigger()}]\n  - id: b\n    input: y\n    assertions: ["rubric"]\n    assert: [${trigger(false)}]\n`;
    expect(read(text).candidates?.map((c) => [c.id, c.shouldTrigger])).toEqual([
      ['a', true],
      ['b', false],
    ]);
  });

  it('agreeing assertions decide together; disagreeing ones are a problem and leave the verdict unset', () => {
    const text = tests(
      test('agree', 'a', `${trigger()}, {type: skill-used, value: ${SKILL}}`),
      test('disagree', 'b', `${trigger()}, {type: not-skill-used, value: ${SKILL}}`),
    );
    const { candidates, problems } = read(text);
    expect(candidates?.map((c) => c.shouldTrigger)).toEqual([true, undefined]);
    expect(problems).toEqual([
      `${FILE}:line 5 (entry #2, id "disagree"): its assertions disagree about whether "notes" should trigger. Fix: keep one trigger assertion for this skill per test`,
    ]);
  });

  it('a should_trigger that is not a boolean is reported, and the test is kept without a verdict', () => {
    const { candidates, problems } = read(
      tests(test('q', 'x', trigger('"yes"')), test('m', 'y', trigger('maybe'))),
    );
    expect(candidates?.map((c) => 'shouldTrigger' in c)).toEqual([false, false]);
    expect(problems).toEqual([
      `${FILE}:line 2 (entry #1, id "q"): should_trigger is the string "yes", not a boolean. Fix: write true without quotes`,
      `${FILE}:line 5 (entry #2, id "m"): should_trigger must be true or false, got the string "maybe". Fix: write true or false, without quotes`,
    ]);
  });

  it('assertions that are not a list are reported', () => {
    const { problems } = read(`tests:\n  - id: a\n    input: x\n    assertions: {type: skill-trigger}\n`);
    expect(problems[0]).toBe(
      `${FILE}:line 2 (entry #1, id "a"): "assertions" must be a list, got an object. Fix: write each assertion as a "- type: …" item under "assertions:"`,
    );
  });
});

describe('a test of the skill', () => {
  it('a numeric id becomes text; another id type is reported and the entry has no id', () => {
    const text = tests(test('7', 'a', trigger()), test('true', 'b', trigger()));
    const { candidates, problems } = read(text);
    expect(candidates?.map((c) => [c.id, c.location.entry])).toEqual([
      ['7', 'entry #1, id "7"'],
      [undefined, 'entry #2'],
    ]);
    expect(problems).toEqual([
      `${FILE}:line 5 (entry #2): id must be text, got boolean true. Fix: write the id as a short word, e.g. id: pdf-merge`,
    ]);
  });

  it('a test that is not a mapping is reported by position', () => {
    const { problems } = read(`tests:\n  - write the notes\n${test('b', 'x', trigger())}\n`);
    expect(problems).toEqual([
      `${FILE}:line 2 (entry #1): is the string "write the notes", not a test. Fix: write each test as a mapping with id, input and assertions`,
    ]);
  });

  it('the query is trimmed and checked like every format’s: a missing input is reported', () => {
    const text = `tests:\n  - id: a\n    input: "  padded  "\n    assertions: [${trigger()}]\n  - id: b\n    assertions: [${trigger()}]\n`;
    const { candidates, problems } = read(text);
    expect(candidates?.map((c) => c.query)).toEqual(['padded', undefined]);
    expect(problems).toEqual([
      `${FILE}:line 5 (entry #2, id "b"): input is missing. Fix: add "input" with the prompt a user would type, as text`,
    ]);
  });

  it('vars.input is the prompt when input is absent; the other vars are kept, input wins over vars.input', () => {
    const text = `tests:\n  - id: a\n    vars: {input: from vars, locale: en}\n    assertions: [${trigger()}]\n  - id: b\n    input: from input\n    vars: {input: ignored}\n    assertions: [${trigger()}]\n`;
    expect(read(text).candidates?.map((c) => [c.query, c.extra])).toEqual([
      ['from vars', { vars: { locale: 'en' } }],
      ['from input', {}],
    ]);
  });

  it('every other field travels in extra, and its annotations are checked', () => {
    const text = `tests:\n  - id: a\n    input: x\n    criteria: grouped by feature\n    metadata: {split: banana}\n    assertions: [${trigger()}]\n`;
    const { candidates, problems } = read(text);
    expect(candidates?.[0]?.extra).toEqual({ criteria: 'grouped by feature', metadata: { split: 'banana' } });
    expect(problems).toEqual([
      `${FILE}:line 2 (entry #1, id "a"): metadata.split must be train or holdout, got the string "banana". Fix: write metadata.split: holdout for a query kept out of tuning, or leave it out (train is the default)`,
    ]);
  });
});

describe('an input written as messages', () => {
  const messages = (input: string) =>
    `tests:\n  - id: m\n    input: ${input}\n    assertions: [${trigger()}]\n`;

  it('the last user message is the prompt', () => {
    const input =
      '[{role: system, content: be brief}, {role: user, content: first}, {role: assistant, content: ok}, {role: user, content: second}]';
    expect(read(messages(input)).candidates?.[0]?.query).toBe('second');
  });

  it('text parts are joined by newlines, as value, text or a bare string; other parts are left out with a warning', () => {
    const input =
      '[{role: user, content: [{type: text, value: one}, {type: file, value: a.pdf}, {type: text, text: two}, three, {type: image}]}]';
    const { candidates, warnings } = read(messages(input));
    expect(candidates?.[0]?.query).toBe('one\ntwo\nthree');
    expect(warnings).toEqual([
      `${FILE} (entry #1, id "m"): 2 non-text part(s) of the input are left out; the prompt is measured without them`,
    ]);
  });

  it('no user message, or a user message with no text part, is a problem', () => {
    expect(read(messages('[{role: system, content: hi}]')).problems).toEqual([
      `${FILE}:line 2 (entry #1, id "m"): input is a list of messages with no role: user message. Fix: add {role: user, content: "…the prompt…"} as the last message`,
    ]);
    expect(read(messages('[{role: user, content: [{type: file, value: a.pdf}]}]')).problems).toEqual([
      `${FILE}:line 2 (entry #1, id "m"): the last user message has no text part. Fix: add a {type: text, value: "…the prompt…"} part`,
    ]);
  });
});
