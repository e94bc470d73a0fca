import { describe, expect, it } from 'vitest';
import { parseEvalSet } from '../../src/inputs/eval-set.js';
import { loadEvalSet } from '../../src/inputs/files.js';
import { defectOf, defectsOf, FIXTURES } from './input-errors.js';

const EVALS = `${FIXTURES}/evals`;
const SKILL = 'release-notes';
const load = (name: string, skill = SKILL) => loadEvalSet(`${EVALS}/${name}`, skill);

describe('skill-creator JSON', () => {
  it('reads entries, keeps every extra field, trims queries, and uses a string id', async () => {
    const set = await load('good.json');
    expect(set.format).toBe('skill-creator-json');
    expect(set.file).toBe(`${EVALS}/good.json`);
    expect(set.items).toEqual([
      {
        id: 'ship-notes',
        query: 'turn the PRs merged since v2.3 into notes for the changelog',
        shouldTrigger: true,
        extra: { note: 'the core case' },
      },
      {
        id: 'q2',
        query: 'what shipped this sprint? write it up for customers',
        shouldTrigger: true,
        extra: { needs_context: true },
      },
      // A non-string id is not an item id; it travels in `extra` as written.
      { id: 'q3', query: 'summarize the review comments on PR 412', shouldTrigger: false, extra: { id: 7 } },
      {
        id: 'q4',
        query: 'write a commit message for my staged changes',
        shouldTrigger: false,
        extra: { split: 'holdout' },
      },
    ]);
  });

  it('quotes the parser on a syntax error, with the line', async () => {
    const e = await defectOf(() => load('bad-syntax.json'));
    expect(e.location).toEqual({ file: `${EVALS}/bad-syntax.json`, line: 3 });
    expect(e.problem).toMatch(/^is not valid JSON: .*position 147/);
    expect(e.fix).toContain('fix the syntax at line 3, column 65');
  });

  it('rejects a top-level object, naming its keys', async () => {
    const e = await defectOf(() => load('not-array.json'));
    expect(e.problem).toBe('must be a JSON array of entries, got an object with keys queries');
    expect(e.fix).toContain('[{"query": "…", "should_trigger": true}, …]');
  });

  it("recognises skill-creator's output-quality evals.json and says it is the wrong file", async () => {
    const e = await defectOf(() => load('skill-creator-evals.json'));
    expect(e.problem).toContain("looks like skill-creator's evals/evals.json");
    expect(e.fix).toContain('pass a trigger eval set');
  });

  it('reports every bad entry with its position, id, line, what is wrong and the fix', async () => {
    const errors = await defectsOf(() => load('bad-entries.json'));
    const file = `${EVALS}/bad-entries.json`;
    expect(errors.map((e) => e.message)).toEqual([
      `${file}:line 3 (entry #2): is the string "write a commit message", not an object. Fix: write each entry as {"query": "…", "should_trigger": true}`,
      `${file}:line 4 (entry #3, id "no-query"): query is missing. Fix: rename "prompt" to "query"`,
      `${file}:line 5 (entry #4, id "empty-query"): query is empty. Fix: write the prompt a user would type, or delete the entry`,
      `${file}:line 6 (entry #5, id "number-query"): query must be text, got number 42. Fix: write the prompt as a quoted string`,
      `${file}:line 7 (entry #6, id "string-bool"): should_trigger is the string "true", not a boolean. Fix: write true without quotes`,
      `${file}:line 8 (entry #7, id "no-bool"): should_trigger is missing. Fix: add "should_trigger": true for a prompt that should load the skill, false for one that should not`,
      `${file}:line 9 (entry #8, id "dup-query"): the same prompt as entry #1, id "ok-1" (line 2): "turn the merged PRs into release notes". Fix: delete one of the two or reword it; a repeated prompt counts twice in the rates`,
      `${file}:line 10 (entry #9, id "ok-1"): id "ok-1" is also the id of entry #1, id "ok-1" (line 2). Fix: give each entry its own id`,
      `${file}:line 11 (entry #10, id "has space"): id "has space" is not a plain identifier. Fix: use 1–64 letters, digits, ".", "_", "-" or ":", starting with a letter or digit`,
      `${file}:line 13 (entry #12): has no id, and the one it would get, "q12", is already the id of entry #11, id "q12" (line 12). Fix: give this entry an id, or rename the id of entry #11`,
    ]);
  });

  it('flags a user id that takes the id generated for an earlier entry', async () => {
    const text = JSON.stringify([
      { query: 'write release notes', should_trigger: true },
      { id: 'q1', query: 'explain this stack trace', should_trigger: false },
    ]);
    const e = await defectOf(() => parseEvalSet(text, 'set.json', SKILL));
    expect(e.location.entry).toBe('entry #2, id "q1"');
    expect(e.problem).toBe('id "q1" is also the id entry #1 gets because it has none');
  });

  it('refuses the camelCase key rather than guessing', async () => {
    const text = JSON.stringify([
      { query: 'write release notes', shouldTrigger: true },
      { query: 'explain this stack trace', should_trigger: false },
    ]);
    const e = await defectOf(() => parseEvalSet(text, 'set.json', SKILL));
    expect(e.problem).toBe('uses "shouldTrigger"; the key is "should_trigger"');
  });

  it('refuses a control character in a query', async () => {
    const text = JSON.stringify([
      { query: 'write release\u0000 notes', should_trigger: true },
      { query: 'explain this stack trace', should_trigger: false },
    ]);
    const e = await defectOf(() => parseEvalSet(text, 'set.json', SKILL));
    expect(e.problem).toBe('query contains the control character U+0000');
  });

  it('an empty set, a set with no positives, a set with no negatives', async () => {
    expect((await defectOf(() => load('empty.json'))).message).toBe(
      `${EVALS}/empty.json: the eval set has no entries. Fix: add prompts that should and should not load the skill`,
    );
    const noPositives = await defectOf(() => load('all-negative.json'));
    expect(noPositives.problem).toContain('no entry has should_trigger true (all 2 are negatives)');
    expect(noPositives.fix).toContain('add prompts that should load the skill');
    const noNegatives = await defectOf(() => load('all-positive.json'));
    expect(noNegatives.problem).toContain('no entry has should_trigger false (all 2 are positives)');
    expect(noNegatives.fix).toContain('near-miss prompts');
  });

  it.each([
    ['no positives', true],
    ['no negatives', false],
  ])('does not claim "%s" when the missing side only failed to parse', async (_, side) => {
    const text = JSON.stringify([
      { query: 'write release notes', should_trigger: !side },
      { query: 'explain this stack trace', should_trigger: String(side) },
    ]);
    const errors = await defectsOf(() => parseEvalSet(text, 'set.json', SKILL));
    expect(errors.map((e) => e.problem)).toEqual([`should_trigger is the string "${side}", not a boolean`]);
    expect(errors[0]?.fix).toBe(`write ${side} without quotes`);
  });

  it('an empty file', async () => {
    const e = await defectOf(() => parseEvalSet('  \n', 'set.json', SKILL));
    expect(e.problem).toBe('the eval set is empty');
  });

  it('a file that does not exist', async () => {
    const e = await defectOf(() => load('nope.json'));
    expect(e.location).toEqual({ file: `${EVALS}/nope.json` });
    expect(e.problem).toBe('the eval set does not exist');
  });
});

describe('AgentV EVAL.yaml', () => {
  it("takes only this skill's tests, from every assertion form and input shape", async () => {
    const set = await load('good.eval.yaml');
    expect(set.format).toBe('agentv-yaml');
    expect(set.items).toEqual([
      {
        id: 'notes-from-prs',
        query: 'Turn the PRs merged since v2.3 into release notes',
        shouldTrigger: true,
        extra: { criteria: 'Release notes grouped by feature' },
      },
      // `assert` works like `assertions`; the last user message's text parts are the prompt.
      {
        id: 'commit-message',
        query: 'Write a commit message for my staged changes',
        shouldTrigger: false,
        extra: {},
      },
      // should_trigger defaults to true.
      {
        id: 'default-true',
        query: 'What shipped this sprint? Write it up for customers.',
        shouldTrigger: true,
        extra: {},
      },
      // not-skill-used → false; a numeric id becomes text.
      {
        id: '4',
        query: 'Summarize the review comments on PR 412',
        shouldTrigger: false,
        extra: { split: 'holdout' },
      },
      // skill-used with a list naming the skill → true; vars.input is the prompt.
      {
        id: 'newer-used',
        query: 'Draft the changelog entry for 3.0',
        shouldTrigger: true,
        extra: { vars: { locale: 'en' } },
      },
    ]);
    expect(set.warnings).toEqual([expect.stringContaining('1 non-text part(s) of the input are left out')]);
  });

  it('matches the skill name exactly', async () => {
    const errors = await defectsOf(() => load('good.eval.yaml', 'release'));
    expect(errors[0]?.problem).toContain('no test has a trigger assertion naming the skill "release"');
  });

  it('names the skills it found when none is this one', async () => {
    const e = await defectOf(() => load('other-skill.yaml'));
    expect(e.message).toBe(
      `${EVALS}/other-skill.yaml: no test has a trigger assertion naming the skill "release-notes" (the trigger assertions name: "commit", "push"). Fix: measure one of those skills, or add "{type: skill-trigger, skill: release-notes, should_trigger: true}" to the tests for this one (names must match exactly)`,
    );
  });

  it('checks a subset on its own: one positive only is "no negatives"', async () => {
    const e = await defectOf(() => load('good.eval.yaml', 'commit'));
    expect(e.problem).toContain('no entry has should_trigger false (the only entry is a positive)');
  });

  it('applies YAML merge keys as AgentV does: a split carried by <<: *defaults is the split, and no "<<" is kept', () => {
    const trigger = (should: boolean) =>
      `    assertions:\n      - type: skill-trigger\n        skill: ${SKILL}\n        should_trigger: ${should}\n`;
    const text = [
      'held: &held',
      '  split: holdout',
      'tests:',
      '  - id: a',
      '    <<: *held',
      '    input: write the release notes',
      trigger(true),
      '  - id: b',
      '    <<: *held',
      '    split: train',
      '    input: bump the version',
      trigger(false),
    ].join('\n');
    const set = parseEvalSet(text, 'EVAL.yaml', SKILL);
    expect(set.items.map((i) => [i.id, i.extra])).toEqual([
      ['a', { split: 'holdout' }],
      ['b', { split: 'train' }],
    ]);
  });

  it('reports YAML syntax errors at the line that opened the quote', async () => {
    const e = await defectOf(() => load('bad-syntax.yaml'));
    expect(e.location).toEqual({ file: `${EVALS}/bad-syntax.yaml`, line: 3 });
    expect(e.problem).toBe('is not valid YAML: Missing closing "quote');
  });

  it('rejects a YAML file that is not an EVAL.yaml', async () => {
    const e = await defectOf(() => load('not-agentv.yaml'));
    expect(e.problem).toContain('must be an AgentV EVAL.yaml, a mapping with a "tests:" list; got a list');
    expect(e.fix).toContain('belongs in a .json file');
  });

  it('reports conflicting assertions, a missing user message, a quoted boolean and a missing input', async () => {
    const errors = await defectsOf(() => load('bad-agentv.yaml'));
    const file = `${EVALS}/bad-agentv.yaml`;
    expect(errors.map((e) => [e.location, e.problem])).toEqual([
      [
        { file, line: 2, entry: 'entry #1, id "conflicting"' },
        'its assertions disagree about whether "release-notes" should trigger',
      ],
      [
        { file, line: 10, entry: 'entry #2, id "no-user"' },
        'input is a list of messages with no role: user message',
      ],
      [
        { file, line: 17, entry: 'entry #3, id "quoted-bool"' },
        'should_trigger is the string "no", not a boolean',
      ],
      [{ file, line: 23, entry: 'entry #4, id "missing-input"' }, 'input is missing'],
    ]);
    expect(errors[2]?.fix).toBe('write false without quotes');
  });
});

describe('CSV', () => {
  it('reads Codex-style rows: multi-line prompts, yes/no/1/0, extra columns, generated ids', async () => {
    const set = await load('good.csv');
    expect(set.format).toBe('csv');
    expect(set.items).toEqual([
      {
        id: 'test-01',
        query: 'Turn the PRs merged since v2.3 into release notes',
        shouldTrigger: true,
        extra: { kind: 'explicit' },
      },
      {
        id: 'test-02',
        query: 'What shipped this sprint?\nWrite it up for customers.',
        shouldTrigger: true,
        extra: { kind: 'implicit' },
      },
      {
        id: 'test-03',
        query: 'Add Tailwind styling to my existing React app',
        shouldTrigger: false,
        extra: { kind: 'negative' },
      },
      {
        id: 'q4',
        query: 'Summarize the review comments, then list the open ones',
        shouldTrigger: false,
        extra: { kind: 'negative' },
      },
    ]);
  });

  it('reports rows by CSV line, also after a multi-line field and with CRLF line ends', async () => {
    const text = 'Prompt,Should_Trigger\r\n"write release notes\r\nfor v2",true\r\nexplain this,perhaps\r\n';
    const e = await defectOf(() => parseEvalSet(text, 'set.csv', SKILL));
    expect(e.location).toEqual({ file: 'set.csv', line: 4, entry: 'entry #2' });
    expect(e.problem).toBe('should_trigger is "perhaps"');
    expect(e.fix).toBe('write true or false (yes/no and 1/0 work too)');
  });

  it('places a row that spans lines at the line it starts on', async () => {
    const text =
      'id,should_trigger,prompt\nok,true,write release notes\nbad,sometimes,"explain\nthis\nstack trace"\n';
    const e = await defectOf(() => parseEvalSet(text, 'set.csv', SKILL));
    expect(e.location).toEqual({ file: 'set.csv', line: 3, entry: 'entry #2, id "bad"' });
  });

  it('reports bad rows with their lines', async () => {
    const errors = await defectsOf(() => load('bad-rows.csv'));
    expect(errors.map((e) => [e.location.line, e.location.entry, e.problem])).toEqual([
      [3, 'entry #2, id "r2"', 'should_trigger is "maybe"'],
      [4, 'entry #3, id "r3"', 'has 4 field(s), the header has 3'],
      [5, 'entry #4, id "r4"', 'prompt is empty'],
      [6, 'entry #5, id "r5"', 'the same prompt as entry #1, id "r1" (line 2): "write release notes for v2"'],
    ]);
    expect(errors[1]?.fix).toContain('wrap a prompt that holds a comma in double quotes');
  });

  it("quotes the parser's message on broken quoting", async () => {
    const e = await defectOf(() => load('bad-syntax.csv'));
    expect(e.location.line).toBe(3);
    expect(e.problem).toMatch(/^is not valid CSV: Quote Not Closed/);
  });

  it('rejects a header without should_trigger and query/prompt, quoting the header', async () => {
    const e = await defectOf(() => load('bad-header.csv'));
    expect(e.message).toBe(
      `${EVALS}/bad-header.csv:line 1: the header ("id", "expected", "text") has no "should_trigger" column and no "query" or "prompt" column. Fix: make the first line a header such as id,should_trigger,prompt`,
    );
  });

  it('rejects a header with both query and prompt', async () => {
    const e = await defectOf(() => parseEvalSet('query,prompt,should_trigger\na,b,true\n', 'x.csv', SKILL));
    expect(e.problem).toContain('has both a "query" and a "prompt" column');
  });
});

describe('format detection', () => {
  it('recognises CSV content under another extension', async () => {
    const set = await load('codex-evals.txt');
    expect(set.format).toBe('csv');
    expect(set.items.map((i) => i.id)).toEqual(['t1', 't2']);
  });

  it('recognises JSON and EVAL.yaml content', () => {
    const json = JSON.stringify([
      { query: 'a b', should_trigger: true },
      { query: 'c d', should_trigger: false },
    ]);
    expect(parseEvalSet(json, 'evals', SKILL).format).toBe('skill-creator-json');
    const yaml =
      'tests:\n  - id: a\n    input: write notes\n    assertions: [{type: skill-trigger, skill: release-notes}]\n  - id: b\n    input: fix a bug\n    assertions: [{type: not-skill-used, value: release-notes}]\n';
    expect(parseEvalSet(yaml, 'EVAL', SKILL).format).toBe('agentv-yaml');
  });

  it('says which extensions to use when the content is not recognisable', async () => {
    const e = await defectOf(() => load('mystery.txt'));
    expect(e.problem).toContain('cannot tell which eval-set format this is (extension ".txt"');
    expect(e.fix).toBe(
      'name the file .json (skill-creator), .yaml (AgentV EVAL.yaml) or .csv (id,should_trigger,prompt)',
    );
  });
});
